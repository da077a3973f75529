"""Streaming responses and request bodies of both clients against uvicorn (tests/http/stream_app.py): chunks as they
arrive, NDJSON values, back-pressure, early exit (the server sees the disconnect and the connection is not reused),
iterator uploads (chunked), error statuses and leak loops."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import os
import time

import pytest

from boltwire import HTTPClient, Struct, SyncHTTPClient, _core
from boltwire.http import AsyncStream, HTTPConnectionError, HTTPResponseError, SyncStream


class Line(Struct):
    i: int


def settle_stats(server, key: str, want: int, seconds: float = 5.0) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        stats = server.stats()
        if stats[key] == want or time.monotonic() > deadline:
            return stats
        time.sleep(0.02)


def live_exchanges_settle(baseline: int, seconds: float = 5.0) -> int:
    deadline = time.monotonic() + seconds
    while True:
        gc.collect()
        live = _core._http_live_exchanges()
        if live <= baseline or time.monotonic() > deadline:
            return live
        time.sleep(0.01)


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
        stats = settle_stats(stream_server, "endless_closed", closed_before + 1)
        assert stats["endless_closed"] == closed_before + 1 and stats["endless_open"] == 0
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
    stats = settle_stats(stream_server, "endless_closed", closed_before + 1)
    assert stats["endless_closed"] == closed_before + 1


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


def test_stream_leak_loop(stream_server):
    baseline = _core._http_live_exchanges()
    fds = len(os.listdir("/proc/self/fd"))
    with SyncHTTPClient() as client:
        for _ in range(100):
            for _ in client.stream_get(stream_server.url + "/endless"):
                break
            with client.stream_get(stream_server.url + "/ndjson?n=2", response_data_type=Line) as s:
                assert len(list(s)) == 2

    async def main():
        async with HTTPClient() as client:
            for _ in range(100):
                async for _ in client.stream_get(stream_server.url + "/endless"):
                    break
                assert len([x async for x in client.stream_get(stream_server.url + "/ndjson?n=2")]) >= 1

    asyncio.run(main())
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
