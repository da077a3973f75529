"""Error types and attributes: HTTPResponseError (picklable), transport, connection and malformed responses."""

from __future__ import annotations

import asyncio
import pickle
import socket

import pytest

from _local_server import LocalServer
from boltwire import (

    BoltwireError,
    HTTPClient,
    HTTPConnectionError,
    HTTPResponseError,
    HTTPTimeoutError,
    HTTPTransportError,
    SyncHTTPClient,
)

# A 64-byte label cannot be encoded in a DNS query, so getaddrinfo fails locally: no packet leaves the
# machine (a plain .invalid name would still be sent to the configured resolver, which is not loopback).
UNRESOLVABLE_HOST = "a" * 64 + ".invalid"


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_hierarchy():
    assert issubclass(HTTPConnectionError, HTTPTransportError)
    assert issubclass(HTTPTimeoutError, HTTPTransportError)
    assert issubclass(HTTPTransportError, BoltwireError)
    assert issubclass(HTTPResponseError, BoltwireError)
    assert not issubclass(HTTPResponseError, HTTPTransportError)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_response_error_attributes_and_pickle(server, mode):
    if mode == "sync":
        with SyncHTTPClient(base_url=server.url) as client:
            with pytest.raises(HTTPResponseError) as info:
                client.get("/status/418")
    else:
        async def main():
            async with HTTPClient(base_url=server.url) as client:
                await client.get("/status/418")

        with pytest.raises(HTTPResponseError) as info:
            asyncio.run(main())
    e = info.value
    assert e.status == 418
    assert e.headers["x-status"] == "yes"
    assert e.body.startswith(b'{"error":"status 418"')
    assert len(e.body) > 300
    assert e.body_start == e.body[:100]  # bytes, as lothc has it
    assert e.body_text == e.body.decode()
    assert e.request.method == "GET" and e.request.path == "/status/418" and e.method == "GET"
    assert e.error == {"error": "status 418", **{k: v for k, v in e.error.items() if k != "error"}}
    assert "418" in str(e)
    e2 = pickle.loads(pickle.dumps(e))
    assert type(e2) is HTTPResponseError
    assert (e2.status, e2.body, e2.body_start, e2.headers.get_all("x-status")) == (418, e.body, e.body_start, ["yes"])
    assert str(e2) == str(e)


def test_timeout_error_pickles_with_kind():
    e = pickle.loads(pickle.dumps(HTTPTimeoutError("read timed out", "read")))
    assert e.kind == "read" and str(e) == "read timed out"


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_connection_refused(mode):
    url = f"http://127.0.0.1:{closed_port()}/"
    if mode == "sync":
        with SyncHTTPClient() as client:
            with pytest.raises(HTTPConnectionError, match="connect"):
                client.get(url)
            assert client._stats() == (0, 0)
    else:
        async def main():
            async with HTTPClient() as client:
                with pytest.raises(HTTPConnectionError, match="connect"):
                    await client.get(url)
                return client._stats()

        assert asyncio.run(main()) == (0, 0)


def test_dns_failure():
    with SyncHTTPClient() as client:
        with pytest.raises(HTTPConnectionError, match="resolve"):
            client.get(f"http://{UNRESOLVABLE_HOST}/")
        assert client._stats() == (0, 0)


def test_dns_failure_async_and_names_resolved_off_the_engine(server):
    async def main():
        async with HTTPClient(max_connections=1) as client:
            with pytest.raises(HTTPConnectionError, match="resolve"):
                await client.get(f"http://{UNRESOLVABLE_HOST}/")
            assert client._stats() == (0, 0)  # the slot reserved for the lookup came back
            rs = await asyncio.gather(*[client.get(f"http://localhost:{server.port}/json") for _ in range(20)])
            assert all(r.status == 200 for r in rs)
            return client._stats()

    assert asyncio.run(asyncio.wait_for(main(), 30)) == (1, 1)


@pytest.mark.parametrize("path,needle", [("/malformed", "Content-Length"), ("/garbage", "status line")])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_malformed_response_says_what(server, mode, path, needle):
    if mode == "sync":
        with SyncHTTPClient(base_url=server.url) as client:
            with pytest.raises(HTTPTransportError) as info:
                client.get(path)
            assert client._stats()[0] == 0
    else:
        async def main():
            async with HTTPClient(base_url=server.url) as client:
                with pytest.raises(HTTPTransportError) as info:
                    await client.get(path)
                assert client._stats()[0] == 0
                return info

        info = asyncio.run(main())
    assert not isinstance(info.value, (HTTPConnectionError, HTTPTimeoutError))
    assert needle in str(info.value)


def test_max_response_size(server):
    with SyncHTTPClient(base_url=server.url, max_response_size=100) as client:
        with pytest.raises(HTTPTransportError, match="max_response_size"):
            client.get("/json")
        assert client.get("/multi").data == b"[1,2,3]"  # small bodies still pass, on the same client


def test_urls_rejected():
    with SyncHTTPClient() as client:
        with pytest.raises(ValueError):
            client.get("/relative-without-base")
        with pytest.raises(ValueError):
            client.get("ftp://127.0.0.1/")
        with pytest.raises(ValueError):
            client.request("BAD METHOD", "http://127.0.0.1:1/")


@pytest.mark.parametrize("url", ["http://a b/", "http://a\r\nb/", "http://[::1/", "http://h:99999/"])
def test_bad_hosts_rejected_before_sending(url):
    with SyncHTTPClient() as client:
        with pytest.raises(ValueError):
            client.get(url)


def test_bad_timeouts_rejected():
    with pytest.raises(ValueError):
        SyncHTTPClient(timeout=-1)
    with pytest.raises(ValueError):
        HTTPClient(connect_timeout="1")
    with pytest.raises(ValueError):
        SyncHTTPClient(max_connections=0)
    with SyncHTTPClient() as client:
        with pytest.raises(ValueError):
            client.get("http://127.0.0.1:1/", timeout=-0.5)
        with pytest.raises(TypeError):
            client.get("http://127.0.0.1:1/", timeout="soon")
