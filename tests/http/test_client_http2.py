"""tests/http/test_client_http2.py: HTTP/2, both clients: h2 by ALPN over TLS (http2=True) and cleartext h2c with
prior knowledge (http2_prior_knowledge=True).

Against nginx (the nginx_tls fixture's HTTP/2 listeners): many concurrent requests on ONE connection (counted in
nginx's access log), typed decoding, POST bodies, a body past the client's 16 MiB connection window, the ALPN
fallback to HTTP/1.1. Against the scripted h2 server (h2_server.py) for what nginx cannot do on demand: GOAWAY with
requests in flight (refused streams resent, processed ones failed), RST_STREAM, a limit of one stream, a tiny flow
control window for request bodies, cancellation and timeouts resetting their stream on a connection that lives on.
"""

from __future__ import annotations

import asyncio
import gc
import json
import time

import pytest
from h2_server import H2Server
from nginx_server import big_body, payload
from nginx_tls_server import HUGE_SIZE, huge_body

from boltwire import (HTTPClient, HTTPConnectionError, HTTPTimeoutError, HTTPTransportError, Struct, SyncHTTPClient,
                      _core)


class User(Struct):
    id: int
    name: str
    roles: list[str]


class Doc(Struct):
    status: str
    user: User


def tls_options(server) -> dict:
    return {"root_certificates": [server.ca_pem], "tls_built_in_root_certs": False}


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def wait_for(predicate, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


@pytest.fixture
def h2_server():
    servers = []

    def make(**options) -> H2Server:
        server = H2Server(**options).start()
        servers.append(server)
        return server

    yield make
    for s in servers:
        s.stop()


# ---- nginx: ALPN h2 and h2c --------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["alpn", "h2c"])
def test_sync_get_and_typed_decoding(nginx_tls, mode):
    url, options = (nginx_tls.h2_url, {"http2": True, **tls_options(nginx_tls)}) if mode == "alpn" else (
        nginx_tls.h2c_url, {"http2_prior_knowledge": True})
    with SyncHTTPClient(**options) as client:
        r = client.get(url + "/")
        assert (r.status, r.http_version, r.data) == (200, "HTTP/2", payload())
        assert r.tls_version == ("TLSv1.3" if mode == "alpn" else None)
        doc = client.get(url + "/", response_data_type=Doc).data
        assert doc.status == "success" and doc.user.name == "Alice Johnson" and doc.user.roles == ["admin", "editor"]
        assert client.get(url + "/text").data == b"hello\n"
        assert client.get(url + "/big").data == big_body()
        head = client.head(url + "/big")
        assert (head.status, head.http_version, head.headers["content-length"]) == (200, "HTTP/2", str(len(big_body())))
        assert not head.data
    assert len(nginx_tls.h2_connections(port_of(url))) >= 1


@pytest.mark.parametrize("mode", ["alpn", "h2c"])
def test_async_many_streams_share_one_connection(nginx_tls, mode):
    # A fresh listener-specific count: nginx's connection serials for this port before and after.
    url, options = (nginx_tls.h2_url, {"http2": True, **tls_options(nginx_tls)}) if mode == "alpn" else (
        nginx_tls.h2c_url, {"http2_prior_knowledge": True})
    before = nginx_tls.h2_connections(port_of(url)) if (nginx_tls.prefix / "h2_access.log").exists() else set()

    async def main():
        async with HTTPClient(**options) as client:
            rs = await asyncio.gather(*[client.get(url + "/", response_data_type=Doc) for _ in range(100)])
            assert all(r.status == 200 and r.http_version == "HTTP/2" for r in rs)
            assert {r.data.user.id for r in rs} == {42}
            assert client._transport.stats() == (1, 1)  # one connection, idle again
            more = await asyncio.gather(*[client.get(url + "/text") for _ in range(50)])
            assert all(r.data == b"hello\n" for r in more)

    asyncio.run(main())
    after = nginx_tls.h2_connections(port_of(url))
    assert len(after - before) == 1, after - before


@pytest.mark.parametrize("is_async", [False, True])
def test_body_past_the_connection_window(nginx_tls, is_async):
    url = nginx_tls.h2_url + "/huge"
    options = {"http2": True, **tls_options(nginx_tls)}
    if is_async:
        async def main():
            async with HTTPClient(**options) as client:
                return await asyncio.gather(client.get(url), client.get(url))

        rs = asyncio.run(main())
    else:
        with SyncHTTPClient(**options) as client:
            rs = [client.get(url), client.get(url)]
    expected = huge_body()
    for r in rs:
        assert r.http_version == "HTTP/2"
        assert len(r.data) == HUGE_SIZE
        assert r.data == expected


@pytest.mark.parametrize("is_async", [False, True])
def test_download_into_a_file_and_into_memory(nginx_tls, tmp_path, is_async):
    # download() arms its stream (the file's descriptor, or memory): on HTTP/2 the engine takes the armed file at
    # the 2xx head and writes the DATA frames' bytes into it; memory gets one bytes object.
    url = nginx_tls.h2_url + "/huge"
    options = {"http2": True, **tls_options(nginx_tls)}
    dest = tmp_path / "huge.bin"
    port = port_of(nginx_tls.h2_url)
    before = nginx_tls.h2_connections(port) if (nginx_tls.prefix / "h2_access.log").exists() else set()
    if is_async:
        async def main():
            async with HTTPClient(**options) as client:
                return await client.download(url, dest), await client.download(url)

        to_file, to_memory = asyncio.run(main())
    else:
        with SyncHTTPClient(**options) as client:
            to_file, to_memory = client.download(url, dest), client.download(url)
    expected = huge_body()
    assert to_file.status == 200 and to_file.data == dest and dest.read_bytes() == expected
    assert to_file.http_version == to_memory.http_version == "HTTP/2"
    assert to_memory.status == 200 and to_memory.data == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.bin"]
    assert wait_for(lambda: len(nginx_tls.h2_connections(port) - before) >= 1)


@pytest.mark.parametrize("is_async", [False, True])
def test_post_bodies(nginx_tls, is_async):
    sizes = [0, 1, 70_000, 5 << 20]  # past nginx's 64 KiB preread window: sent as the server opens its window
    options = {"http2_prior_knowledge": True}
    url = nginx_tls.h2c_url + "/sink"
    if is_async:
        async def main():
            async with HTTPClient(**options) as client:
                return await asyncio.gather(*[client.post(url, content=b"p" * n, response_data_type=dict)
                                              for n in sizes])

        rs = asyncio.run(main())
    else:
        with SyncHTTPClient(**options) as client:
            rs = [client.post(url, content=b"p" * n, response_data_type=dict) for n in sizes]
    assert [(r.status, r.data) for r in rs] == [(200, {"ok": True})] * len(sizes)


def test_alpn_falls_back_to_http11(nginx_tls):
    # The plain TLS listener does not speak h2: ALPN picks http/1.1 and the origin stays HTTP/1.1.
    async def main():
        async with HTTPClient(http2=True, **tls_options(nginx_tls)) as client:
            rs = await asyncio.gather(*[client.get(nginx_tls.url + "/") for _ in range(20)])
            return {r.http_version for r in rs}, {r.data for r in rs}

    versions, bodies = asyncio.run(main())
    assert versions == {"HTTP/1.1"} and bodies == {payload()}
    with SyncHTTPClient(http2=False, **tls_options(nginx_tls)) as client:
        assert client.get(nginx_tls.h2_url + "/").http_version == "HTTP/1.1"  # not offered: not used


@pytest.mark.parametrize("is_async", [False, True])
def test_h2c_to_an_http11_server_is_a_protocol_error(nginx, is_async):
    # nginx's plain listener answers the HTTP/2 preface with an HTTP/1.1 400: not HTTP/2, said so.
    if is_async:
        async def main():
            async with HTTPClient(http2_prior_knowledge=True, timeout=10) as client:
                await client.get(nginx.url + "/")

        with pytest.raises(HTTPTransportError) as info:
            asyncio.run(main())
    else:
        with SyncHTTPClient(http2_prior_knowledge=True, timeout=10) as client:
            with pytest.raises(HTTPTransportError) as info:
                client.get(nginx.url + "/")
    assert "HTTP/2 protocol error" in str(info.value) and "PROTOCOL_ERROR" in str(info.value), str(info.value)


# ---- scripted server: errors, limits, flow control ---------------------------------------------------------------


def test_goaway_refused_streams_are_resent(h2_server):
    server = h2_server(goaway=(6, 3, 3))  # answers 3, GOAWAY naming the 3rd as last processed, closes

    async def main():
        async with HTTPClient(http2_prior_knowledge=True, timeout=10) as client:
            return await asyncio.gather(*[client.get(f"{server.url}/echo?i={i}") for i in range(6)])

    rs = asyncio.run(main())
    conns = [json.loads(r.data)["connection"] for r in rs]
    assert all(r.status == 200 for r in rs)
    assert conns[:3] == [1, 1, 1] and conns[3:] == [2, 2, 2]
    assert server.connections == 2


def test_goaway_processed_streams_fail(h2_server):
    # POSTs: 2 answered, 2 more at or below the GOAWAY's last stream id (the server may have processed them: not
    # resent, HTTPConnectionError), 2 above it (refused: resent on a new connection).
    server = h2_server(goaway=(6, 2, 4))

    async def main():
        async with HTTPClient(http2_prior_knowledge=True, timeout=10) as client:
            return await asyncio.gather(*[client.post(f"{server.url}/echo", content=b"x" * 10) for i in range(6)],
                                        return_exceptions=True)

    rs = asyncio.run(main())
    ok = [json.loads(r.data)["connection"] for r in rs if not isinstance(r, BaseException)]
    failed = [r for r in rs if isinstance(r, BaseException)]
    assert sorted(ok) == [1, 1, 2, 2]
    assert len(failed) == 2 and all(isinstance(e, HTTPConnectionError) for e in failed), failed
    assert all("closed" in str(e) for e in failed)


@pytest.mark.parametrize("is_async", [False, True])
def test_rst_stream_is_a_named_error_and_the_connection_lives_on(h2_server, is_async):
    server = h2_server()
    url = server.url
    if is_async:
        async def main():
            async with HTTPClient(http2_prior_knowledge=True, timeout=10) as client:
                with pytest.raises(HTTPConnectionError) as info:
                    await client.get(url + "/rst?code=2")
                return info, await client.get(url + "/echo")

        info, after = asyncio.run(main())
    else:
        with SyncHTTPClient(http2_prior_knowledge=True, timeout=10) as client:
            with pytest.raises(HTTPConnectionError) as info:
                client.get(url + "/rst?code=11")
            after = client.get(url + "/echo")
    assert "reset by the server" in str(info.value)
    assert ("INTERNAL_ERROR" if is_async else "ENHANCE_YOUR_CALM") in str(info.value)
    assert after.status == 200 and json.loads(after.data)["connection"] == 1
    assert server.connections == 1


def test_max_one_concurrent_stream(h2_server):
    server = h2_server(max_streams=1)

    async def main():
        async with HTTPClient(http2_prior_knowledge=True, timeout=10, max_connections_per_host=3) as client:
            await client.get(server.url + "/echo")  # the server's SETTINGS are known from here on
            return await asyncio.gather(*[client.get(f"{server.url}/echo?i={i}") for i in range(12)])

    rs = asyncio.run(main())
    assert all(r.status == 200 and r.http_version == "HTTP/2" for r in rs)
    assert server.max_open_streams == 1
    assert 1 < server.connections <= 3  # more connections only past the limit, within max_connections_per_host


def test_pool_limits_and_pool_timeout_apply(h2_server):
    # One connection allowed, one stream on it (the server's limit): a second request waits for a slot and its
    # pool timeout ends the wait; with pool_max_idle_per_host=0 the connection closes with its last stream.
    server = h2_server(max_streams=1)

    async def main():
        async with HTTPClient(http2_prior_knowledge=True, max_connections_per_host=1, pool_timeout=0.3,
                              read_timeout=3) as client:
            await client.get(server.url + "/echo")
            hang = asyncio.ensure_future(client.get(server.url + "/hang"))
            await asyncio.sleep(0.1)
            with pytest.raises(HTTPTimeoutError) as info:
                await client.get(server.url + "/echo")
            hang.cancel()
            return info

    info = asyncio.run(main())
    assert "waiting for a free connection" in str(info.value)
    assert server.connections == 1

    other = h2_server()
    with SyncHTTPClient(http2_prior_knowledge=True, pool_max_idle_per_host=0) as client:
        for _ in range(3):
            assert client.get(other.url + "/echo").status == 200
        assert client._transport.stats() == (0, 0)
    assert other.connections == 3


@pytest.mark.parametrize("is_async", [False, True])
def test_request_bodies_respect_a_tiny_window(h2_server, is_async):
    server = h2_server(window=1024)  # h2 raises on the server side if the client sent past its window
    sizes = [100, 1024, 200_000]
    if is_async:
        async def main():
            async with HTTPClient(http2_prior_knowledge=True, timeout=10) as client:
                return await asyncio.gather(*[client.post(server.url + "/echo", content=b"b" * n) for n in sizes])

        rs = asyncio.run(main())
    else:
        with SyncHTTPClient(http2_prior_knowledge=True, timeout=10) as client:
            rs = [client.post(server.url + "/echo", content=b"b" * n) for n in sizes]
    assert [json.loads(r.data)["body_size"] for r in rs] == sizes
    assert server.connections == 1


def test_cancellation_resets_the_stream(h2_server):
    server = h2_server()
    gc.collect()  # (see test_leaving_a_stream_early_resets_it_and_keeps_the_connection)
    baseline = _core._http_live_exchanges()

    async def main():
        async with HTTPClient(http2_prior_knowledge=True, timeout=10) as client:
            await client.get(server.url + "/echo")
            task = asyncio.ensure_future(client.get(server.url + "/hang"))
            await asyncio.sleep(0.3)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            for _ in range(100):
                if server.resets:
                    break
                await asyncio.sleep(0.02)
            return await client.get(server.url + "/echo")

    after = asyncio.run(main())
    assert server.resets == [(1, 3, 8)]  # stream 3 (the second request), CANCEL
    assert json.loads(after.data)["connection"] == 1 and server.connections == 1
    assert wait_for(lambda: _core._http_live_exchanges() == baseline)


@pytest.mark.parametrize("is_async", [False, True])
def test_read_timeout_resets_the_stream(h2_server, is_async):
    server = h2_server()
    if is_async:
        async def main():
            async with HTTPClient(http2_prior_knowledge=True, read_timeout=0.3) as client:
                with pytest.raises(HTTPTimeoutError):
                    await client.get(server.url + "/hang")
                return await client.get(server.url + "/echo")

        after = asyncio.run(main())
    else:
        with SyncHTTPClient(http2_prior_knowledge=True, read_timeout=0.3) as client:
            with pytest.raises(HTTPTimeoutError):
                client.get(server.url + "/hang")
            after = client.get(server.url + "/echo")  # the reset goes out with this request's frames
    assert json.loads(after.data)["connection"] == 1 and server.connections == 1
    assert wait_for(lambda: server.resets == [(1, 1, 8)]), server.resets


def test_sync_threads_each_drive_their_own_stream(h2_server):
    # A blocking caller drives its connection itself: concurrent threads use one connection each, never more than
    # one stream on it at a time.
    import threading

    server = h2_server()
    errors: list[BaseException] = []
    with SyncHTTPClient(http2_prior_knowledge=True, timeout=10) as client:
        def worker():
            try:
                for _ in range(10):
                    assert client.get(server.url + "/echo").status == 200
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
    assert server.max_open_streams == 1 and 1 <= server.connections <= 4


# ---- streaming over HTTP/2 ---------------------------------------------------------------------------------------


def test_streamed_responses_arrive_in_pieces(nginx_tls):
    url = nginx_tls.h2c_url
    with SyncHTTPClient(http2_prior_knowledge=True) as client:
        with client.stream_get(url + "/big") as stream:
            chunks = list(stream)
        assert b"".join(chunks) == big_body() and len(chunks) > 1 and stream.http_version == "HTTP/2"
        assert client.get(url + "/text").data == b"hello\n"  # the connection carries on

    async def main():
        async with HTTPClient(http2_prior_knowledge=True) as client:
            pieces = []
            async with client.stream_get(url + "/huge") as stream:
                async for chunk in stream:
                    pieces.append(chunk)
            return pieces, stream.http_version

    pieces, version = asyncio.run(main())
    assert len(pieces) > 1 and b"".join(pieces) == huge_body()
    assert version == "HTTP/2"  # the stream reports its protocol, as a Response does


def test_leaving_a_stream_early_resets_it_and_keeps_the_connection(nginx_tls):
    url = nginx_tls.h2c_url
    # Collected first: an earlier test's exchange kept by a reference cycle (an exception raised out of asyncio.run
    # holds the task, its frames and their streams) would be freed by the gc.collect() below and leave the count
    # under the baseline for good.
    gc.collect()
    baseline = _core._http_live_exchanges()

    async def main():
        async with HTTPClient(http2_prior_knowledge=True) as client:
            async with client.stream_get(url + "/huge") as stream:
                async for _ in stream:
                    break
            r = await client.get(url + "/text")
            return r.data, client._transport.stats()

    data, stats = asyncio.run(main())
    assert data == b"hello\n" and stats == (1, 1)
    with SyncHTTPClient(http2_prior_knowledge=True) as client:
        with client.stream_get(url + "/huge") as stream:
            next(iter(stream))
        del stream  # the stream object owns its exchange
        assert client.get(url + "/text").data == b"hello\n"
        assert client._transport.stats() == (1, 1)
    assert wait_for(lambda: gc.collect() >= 0 and _core._http_live_exchanges() == baseline)


def test_a_streamed_upload_is_refused_over_http2_not_cut(h2_server):
    server = h2_server()
    with SyncHTTPClient(http2_prior_knowledge=True, timeout=10) as client:
        with pytest.raises(HTTPTransportError) as info:
            client.post(server.url + "/echo", content=iter([b"a" * 10, b"b" * 10]))
        assert "streamed request body is not sent over HTTP/2" in str(info.value)
        assert json.loads(client.post(server.url + "/echo", content=b"c" * 20).data)["body_size"] == 20
