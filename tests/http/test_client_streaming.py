"""Streaming responses and request bodies of both clients against uvicorn (tests/http/stream_app.py): chunks as they
arrive, NDJSON values, back-pressure, early exit (the server sees the disconnect and the connection is not reused),
iterator uploads (chunked), error statuses and leak loops."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import time

import pytest

from boltwire import HTTPClient, Struct, SyncHTTPClient, _core
from boltwire.http import (
    AsyncStream,
    HTTPConnectionError,
    HTTPRedirectError,
    HTTPResponseError,
    HTTPTimeoutError,
    HTTPTransportError,
    SyncStream,
)
from test_client_leaks import live_exchanges_settle


class Line(Struct):
    i: int


def closed_streams(server, at_least: int, seconds: float = 5.0) -> dict:
    """The app's counters once at least `at_least` /endless streams were left by their client and none is open
    (the server notices a closed connection a moment later)."""
    deadline = time.monotonic() + seconds
    while True:
        stats = server.stats()
        if (stats["endless_closed"] >= at_least and stats["endless_open"] == 0) or time.monotonic() > deadline:
            return stats
        time.sleep(0.02)


# ---- responses ------------------------------------------------------------------------------------------------


def test_sync_ndjson_decoded_per_line_with_head_first(stream_server):
    with SyncHTTPClient() as client:
        with client.stream_get(stream_server.url + "/ndjson?n=5", response_data_type=Line) as stream:
            assert isinstance(stream, SyncStream)
            assert stream.status == 200  # before any body was read
            assert stream.headers["content-type"].startswith("application/x-ndjson")
            assert stream.http_version == "HTTP/1.1"
            assert list(stream) == [Line(i) for i in range(5)]
        chunks = list(client.stream_get(stream_server.url + "/ndjson?n=3"))
        assert b"".join(chunks) == b"".join(json.dumps({"i": i}).encode() + b"\n" for i in range(3))


def test_async_chunks_arrive_as_they_are_sent(stream_server):
    async def main():
        async with HTTPClient() as client:
            stream = client.stream_get(stream_server.url + "/ndjson?n=4&delay=0.2", response_data_type=dict)
            assert isinstance(stream, AsyncStream)
            seen = []
            start = time.monotonic()
            async for value in stream:
                seen.append((value, time.monotonic() - start))
            assert [v for v, _ in seen] == [{"i": i} for i in range(4)]
            # the first line came long before the last one was sent (0.6 s later): not buffered to the end
            assert seen[0][1] < seen[-1][1] - 0.3
            async with client.stream("GET", stream_server.url + "/ndjson?n=2") as raw:
                assert raw.status == 200
                assert await raw.read() == b'{"i": 0}\n{"i": 1}\n'

    asyncio.run(main())


def test_error_status_raises_before_the_body(stream_server):
    with SyncHTTPClient() as client:
        with pytest.raises(HTTPResponseError) as info:
            with client.stream_get(stream_server.url + "/status/404"):
                pass
        assert info.value.status == 404
        with client.stream_get(stream_server.url + "/status/404", error_for_status=False) as stream:
            assert stream.status == 404
            assert stream.read() == b"no"

    async def main():
        async with HTTPClient() as client:
            with pytest.raises(HTTPResponseError):
                async for _ in client.stream_get(stream_server.url + "/status/500"):
                    pass

    asyncio.run(main())


def test_connection_refused_is_a_connection_error():
    with SyncHTTPClient() as client:
        with pytest.raises(HTTPConnectionError):
            list(client.stream_get("http://127.0.0.1:1/"))


def test_sync_break_closes_the_connection_and_the_server_sees_it(stream_server):
    closed_before = stream_server.stats()["endless_closed"]
    with SyncHTTPClient() as client:
        stream = client.stream_get(stream_server.url + "/endless")
        got = 0
        for chunk in stream:
            got += len(chunk)
            if got > 200_000:
                break
        endless_port = int(stream.headers["x-peer"])
        assert client._stats()[0] == 0  # the half-read connection was closed, not pooled
        stats = closed_streams(stream_server, closed_before + 1)
        assert stats["endless_closed"] >= closed_before + 1 and stats["endless_open"] == 0
        port = client.get(stream_server.url + "/peer", response_data_type=dict).data["port"]
        assert port != endless_port  # a new connection


def test_async_break_closes_the_connection_and_the_server_sees_it(stream_server):
    closed_before = stream_server.stats()["endless_closed"]

    async def main():
        async with HTTPClient() as client:
            async with client.stream_get(stream_server.url + "/endless") as stream:
                endless_port = int(stream.headers["x-peer"])
                n = 0
                async for _ in stream:
                    n += 1
                    if n == 5:
                        break
            port = (await client.get(stream_server.url + "/peer", response_data_type=dict)).data["port"]
            assert port != endless_port

    asyncio.run(main())
    stats = closed_streams(stream_server, closed_before + 1)
    assert stats["endless_closed"] >= closed_before + 1 and stats["endless_open"] == 0


def test_a_stream_read_to_its_end_leaves_its_connection_reusable(stream_server):
    with SyncHTTPClient() as client:
        with client.stream_get(stream_server.url + "/peer") as stream:
            first = json.loads(stream.read())["port"]
        assert client.get(stream_server.url + "/peer", response_data_type=dict).data["port"] == first


def test_backpressure_stops_the_sender_while_the_consumer_lags(stream_server):
    """The consumer reads one chunk then sleeps: the engine stops reading (bounded buffer), so what the server could
    send is bounded by the socket buffers, not by how fast loopback is."""

    async def main():
        async with HTTPClient() as client:
            async with client.stream_get(stream_server.url + "/endless") as stream:
                items = stream.__aiter__()
                await items.__anext__()
                await asyncio.sleep(0.5)
                held = 0
                # what arrived while we slept is at most the engine's buffer plus one read
                chunk = stream._native.take()
                held = len(chunk)
                assert held <= 256 * 1024 + 64 * 1024 + 16 * 1024
                await items.__anext__()  # reading resumes
                await items.aclose()

    asyncio.run(main())


STALL = 0.4  # seconds the consumer waits between two readings of what the server has sent


def check_sender_stalled(sent_before: int, sent_after: int) -> None:
    """While the consumer waited, the server could hand over nothing more (its chunk would not go out): the client
    read nothing meanwhile, or at most what its bounded buffer takes. Without back-pressure, loopback moves
    gigabytes in STALL seconds."""
    assert sent_after - sent_before <= 1 << 20, (sent_before, sent_after)
    assert sent_after < 64 << 20, sent_after  # what the socket buffers and the client's buffer hold, at most


@pytest.mark.parametrize("is_async", [True, False], ids=["async", "sync"])
def test_a_stalled_consumer_stalls_the_server(stream_server, is_async):
    """Checked on the server's side (/endless counts the bytes it handed over): once the consumer stops reading, the
    sender stops too; once it reads again, the sender moves on. The sync client reads only inside next(); the async
    one reads ahead into a bounded buffer."""

    def sent_to(stream) -> int:  # what the server handed over on this stream's connection (X-Peer: our port)
        return stream_server.stats()["endless_sent"].get(stream.headers["x-peer"], 0)

    chunks_to_resume = 20000  # 16 KiB each: far more than the buffers between the two hold

    if is_async:
        async def main():
            async with HTTPClient() as client:
                async with client.stream_get(stream_server.url + "/endless") as stream:
                    items = stream.__aiter__()
                    await items.__anext__()
                    await asyncio.sleep(STALL)
                    before = sent_to(stream)
                    await asyncio.sleep(STALL)
                    after = sent_to(stream)
                    for n in range(chunks_to_resume):
                        await items.__anext__()
                        if n % 256 == 255 and sent_to(stream) > after:
                            return before, after, True
                    return before, after, False

        before, after, resumed = asyncio.run(main())
    else:
        with SyncHTTPClient() as client:
            with client.stream_get(stream_server.url + "/endless") as stream:
                items = iter(stream)
                next(items)
                time.sleep(STALL)
                before = sent_to(stream)
                time.sleep(STALL)
                after = sent_to(stream)
                resumed = False
                for n in range(chunks_to_resume):
                    next(items)
                    if n % 256 == 255 and sent_to(stream) > after:
                        resumed = True
                        break
    check_sender_stalled(before, after)
    assert resumed, "the server did not send again once the consumer read on"


def test_stream_leak_loop(stream_server, tmp_path):
    baseline = _core._http_live_exchanges()
    fds = len(os.listdir("/proc/self/fd"))
    with SyncHTTPClient() as client:
        for _ in range(100):
            for _ in client.stream_get(stream_server.url + "/endless"):
                break
            with client.stream_get(stream_server.url + "/ndjson?n=2", response_data_type=Line) as s:
                assert len(list(s)) == 2
        del s  # the last stream (and its exchange) would live on in this frame

    async def main():
        async with HTTPClient() as client:
            for _ in range(100):
                async for _ in client.stream_get(stream_server.url + "/endless"):
                    break
                assert len([x async for x in client.stream_get(stream_server.url + "/ndjson?n=2")]) >= 1

    asyncio.run(main())
    with SyncHTTPClient() as client:  # failures and SSE too: interrupted downloads, refused and parsed streams
        for i in range(30):
            with pytest.raises(HTTPConnectionError):
                client.download(stream_server.url + "/cut?size=200000", tmp_path / f"d{i}")
            assert len(list(client.sse(stream_server.url + "/sse?scenario=parse"))) == 4
            with pytest.raises(HTTPResponseError):
                list(client.stream_get(stream_server.url + "/status/500"))
    assert list(tmp_path.iterdir()) == []
    assert live_exchanges_settle(baseline) <= baseline
    assert len(os.listdir("/proc/self/fd")) <= fds + 4


# ---- request bodies -------------------------------------------------------------------------------------------


def pieces(count: int, size: int):
    for i in range(count):
        yield bytes([i % 256]) * size


def test_iterator_upload_is_sent_chunked(stream_server):
    data = b"".join(pieces(80, 65536))
    with SyncHTTPClient() as client:
        doc = client.post(stream_server.url + "/upload", content=pieces(80, 65536), response_data_type=dict).data
    assert doc["transfer_encoding"] == "chunked" and doc["content_length"] is None
    assert doc["size"] == len(data) and doc["sha256"] == hashlib.sha256(data).hexdigest()

    async def agen():
        for piece in pieces(20, 10000):
            await asyncio.sleep(0)
            yield piece

    async def main():
        async with HTTPClient() as client:
            r = await client.put(stream_server.url + "/upload", content=agen(), response_data_type=dict)
            assert r.data["size"] == 200000 and r.data["transfer_encoding"] == "chunked"
            r = await client.post(stream_server.url + "/upload", content=["a", "é"], response_data_type=dict)
            assert r.data["sha256"] == hashlib.sha256("aé".encode()).hexdigest()
            async with client.stream_post(stream_server.url + "/upload", content=iter([b"xy"]),
                                          response_data_type=dict) as s:
                assert [v async for v in s][0]["size"] == 2

    asyncio.run(main())


def test_sync_stream_post_and_stream_with_any_method(stream_server):
    with SyncHTTPClient() as client:
        with client.stream_post(stream_server.url + "/upload", content=pieces(3, 1000), response_data_type=dict) as s:
            assert isinstance(s, SyncStream) and s.status == 200
            (doc,) = list(s)
        assert doc["size"] == 3000 and doc["transfer_encoding"] == "chunked"
        with client.stream("PUT", stream_server.url + "/upload", content=b"abc") as s:
            doc = json.loads(s.read())
        assert doc["size"] == 3 and doc["content_length"] == "3"
        with client.stream("GET", stream_server.url + "/ndjson?n=3", response_data_type=Line) as s:
            assert list(s) == [Line(0), Line(1), Line(2)]


def test_failing_body_iterator_propagates_and_drops_the_connection(stream_server):
    def broken():
        yield b"abc"
        raise OSError("the source failed")

    with SyncHTTPClient() as client:
        with pytest.raises(OSError, match="the source failed"):
            client.post(stream_server.url + "/upload", content=broken())
        assert client._stats()[0] == 0
        assert client.get(stream_server.url + "/peer").status == 200

    with SyncHTTPClient() as client:
        with pytest.raises(TypeError, match="must yield bytes or str"):
            client.post(stream_server.url + "/upload", content=iter([1, 2]))


def test_max_response_size_bounds_the_whole_stream(stream_server):
    with SyncHTTPClient(max_response_size=300_000) as client:
        got = 0
        with pytest.raises(HTTPTransportError, match="max_response_size"):
            for chunk in client.stream_get(stream_server.url + "/endless"):
                got += len(chunk)
        assert got <= 300_000


def test_an_early_answer_to_a_streamed_upload_is_returned(stream_server):
    def endless_body():
        for _ in range(2000):  # 20 MB unless the client stops sending
            yield b"x" * 10_000

    with SyncHTTPClient(timeout=20) as client:
        with pytest.raises(HTTPResponseError) as info:
            client.post(stream_server.url + "/reject", content=endless_body())
        assert info.value.status == 413

    async def main():
        async with HTTPClient(timeout=20) as client:
            r = await client.post(stream_server.url + "/reject", content=endless_body(), error_for_status=False)
            assert r.status == 413 and r.data == b"too large"

    asyncio.run(main())


def test_timeouts_of_a_stream(stream_server):
    """timeout= bounds the wait for the head only; read_timeout bounds silence from the server, but never a consumer
    that takes its time (a paused stream has no read deadline)."""
    url = stream_server.url
    with SyncHTTPClient(timeout=0.5) as client:
        assert len(list(client.stream_get(url + "/ndjson?n=4&delay=0.3"))) >= 1  # 0.9 s in all: no total timeout
    with SyncHTTPClient(read_timeout=0.1) as client:
        with pytest.raises(HTTPTimeoutError) as info:
            list(client.stream_get(url + "/ndjson?n=3&delay=0.5"))
        assert info.value.kind == "read"

    async def main():
        async with HTTPClient(read_timeout=0.2) as client:
            async with client.stream_get(url + "/endless") as stream:
                items = stream.__aiter__()
                await items.__anext__()
                await asyncio.sleep(0.6)  # the engine paused: the read timeout does not run
                for _ in range(10):
                    await items.__anext__()
                await items.aclose()
            with pytest.raises(HTTPTimeoutError):
                async for _ in client.stream_get(url + "/ndjson?n=3&delay=0.5"):
                    pass

    asyncio.run(main())
    with SyncHTTPClient(read_timeout=0.2) as client:
        stream = client.stream_get(url + "/endless")
        it = iter(stream)
        next(it)
        time.sleep(0.5)
        assert len(next(it)) > 0
        stream.close()


def test_cancelling_a_consumer_task_closes_its_stream(stream_server):
    closed_before = stream_server.stats()["endless_closed"]

    async def consume(client):
        async for _ in client.stream_get(stream_server.url + "/endless"):
            await asyncio.sleep(0.01)

    async def main():
        async with HTTPClient() as client:
            task = asyncio.create_task(consume(client))
            await asyncio.sleep(0.3)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert (await client.get(stream_server.url + "/peer")).status == 200

    asyncio.run(main())
    stats = closed_streams(stream_server, closed_before + 1)
    assert stats["endless_closed"] >= closed_before + 1 and stats["endless_open"] == 0


def test_streams_refuse_auth_providers_and_middleware_rather_than_skip_them(stream_server, tmp_path):
    with SyncHTTPClient(bearer_auth=lambda: "token") as client:
        with pytest.raises(NotImplementedError, match="bearer_auth"):
            client.stream_get(stream_server.url + "/peer")
        with pytest.raises(NotImplementedError):
            client.post(stream_server.url + "/upload", content=iter([b"x"]))
        assert client.stream_get(stream_server.url + "/peer", skip_auth=True).read()
    with SyncHTTPClient(middleware=[lambda request, call_next: call_next(request)]) as client:
        with pytest.raises(NotImplementedError, match="middleware"):
            client.download(stream_server.url + "/peer", tmp_path / "peer.json")
        assert list(tmp_path.iterdir()) == []
        # without dest or progress, download() is a plain GET, which goes through the middleware
        assert client.download(stream_server.url + "/peer").status == 200
    with SyncHTTPClient(bearer_token="static") as client:  # a static header is simply sent
        doc = client.post(stream_server.url + "/echo-body", content=iter([b"{}"]), headers={"Content-Type": "a/b"})
        assert doc.data == b"{}" and doc.headers["content-type"] == "a/b"


def test_per_call_raises_and_error_type_on_streams(stream_server, tmp_path):
    from boltwire.http import HTTPResponseError

    class Teapot(HTTPResponseError):
        pass

    with SyncHTTPClient() as client:
        with pytest.raises(Teapot) as info:
            list(client.stream_get(stream_server.url + "/status/418", raises=Teapot))
        assert info.value.status == 418 and info.value.body == b"no"
        with pytest.raises(Teapot):
            client.download(stream_server.url + "/status/418", tmp_path / "x", raises=Teapot)
        with pytest.raises(Teapot):
            list(client.sse(stream_server.url + "/status/418", raises=Teapot))
        with pytest.raises(TypeError):
            client.stream_get(stream_server.url + "/peer", raises=int)
    assert list(tmp_path.iterdir()) == []



# ---- a streamed request body meets a redirect ----------------------------------------------------------------------


def send(kind: str, method: str, url: str, **options):
    """One request with a streamed body on a fresh client of `kind`."""
    client_options = options.pop("client", {})
    if kind == "sync":
        with SyncHTTPClient(**client_options) as client:
            return client.request(method, url, **options)

    async def main():
        async with HTTPClient(**client_options) as client:
            return await client.request(method, url, **options)

    return asyncio.run(main())


@pytest.mark.parametrize("kind", ["sync", "async"])
@pytest.mark.parametrize("status", [307, 308])
def test_a_streamed_body_is_not_replayed_on_307_308(stream_server, kind, status):
    # The iterable was used up by the first request: following would send an empty (or partial) body.
    url = f"{stream_server.url}/moved/{status}"
    with pytest.raises(HTTPRedirectError, match="cannot be replayed") as info:
        send(kind, "PUT", url, content=iter([b"pay", b"load"]))
    assert [(h.status, h.url, h.data) for h in info.value.history] == [(status, url, b"payload")]
    assert isinstance(info.value, HTTPTransportError)


@pytest.mark.parametrize("kind", ["sync", "async"])
@pytest.mark.parametrize("status", [301, 302, 303])
def test_a_streamed_body_on_301_302_303_goes_on_as_get(stream_server, kind, status):
    url = f"{stream_server.url}/moved/{status}"
    r = send(kind, "POST", url, content=iter([b"a=", b"1"]), response_data_type=dict)
    assert r.status == 200 and "port" in r.data  # /peer answers GET only: the second request was a GET
    assert r.url == stream_server.url + "/peer"
    assert [(h.status, h.data) for h in r.history] == [(status, b"a=1")]


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_streamed_body_redirect_comes_back_when_not_following(stream_server, kind):
    r = send(kind, "PUT", f"{stream_server.url}/moved/307", content=iter([b"x"]),
             client={"follow_redirects": False})
    assert r.status == 307 and r.data == b"x" and r.headers["location"] == "/peer"
