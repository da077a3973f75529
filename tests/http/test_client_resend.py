"""The resend rule (RFC 9110 §9.2.2) and early responses to uploads, for both clients.

A request goes out again on a new connection only when its reused keep-alive connection gave no response and
either the server cannot have seen it or the method is idempotent. A POST that the server received is never sent
twice: the caller gets HTTPConnectionError saying why. The rule's tests run over plain http and over https (the
same server with TLS): on https "the server cannot have seen it" means no TLS record of the request reached the
kernel, whatever plaintext the TLS layer had already taken."""

from __future__ import annotations

import asyncio
import time

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient, SyncHTTPClient
from boltwire.http import HTTPConnectionError, HTTPResponseError


@pytest.fixture()
def server():
    with LocalServer() as s:
        yield s


@pytest.fixture(params=["http", "https"])
def any_server(request):
    with LocalServer(tls=request.param == "https") as s:
        yield s


def options(server) -> dict:
    """base_url, and for https the server's CA as the only root."""
    tls = {"root_certificates": [server.ca_pem], "tls_built_in_root_certs": False} if server.ca_pem else {}
    return {"base_url": server.url, **tls}


def run_sync(server, calls):
    with SyncHTTPClient(**options(server)) as client:
        return calls(client)


def run_async(server, calls):
    async def main():
        async with HTTPClient(**options(server)) as client:
            return await calls(client)

    return asyncio.run(asyncio.wait_for(main(), 20))


def drops(server, method):
    return [entry for entry in server.log if entry == (method, "/drop")]


def test_post_dropped_after_arrival_is_not_resent_sync(any_server):
    def calls(client):
        client.get("/json")  # the connection is now a reused keep-alive one
        with pytest.raises(HTTPConnectionError) as info:
            client.post("/drop", content=b"pay once")
        return info.value

    error = run_sync(any_server, calls)
    assert "not resent" in str(error) and "POST" in str(error)
    assert len(drops(any_server, "POST")) == 1


def test_post_dropped_after_arrival_is_not_resent_async(any_server):
    async def calls(client):
        await client.get("/json")
        with pytest.raises(HTTPConnectionError) as info:
            await client.post("/drop", content=b"pay once")
        return info.value

    error = run_async(any_server, calls)
    assert "not resent" in str(error) and "POST" in str(error)
    assert len(drops(any_server, "POST")) == 1


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_idempotent_request_dropped_is_resent_once_sync(any_server, method):
    def calls(client):
        client.get("/json")
        return client.request(method, "/drop")

    r = run_sync(any_server, calls)
    assert r.status == 200
    assert len(drops(any_server, method)) == 2  # the dropped copy and the resent one
    assert any_server.connections == 2


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_idempotent_request_dropped_is_resent_once_async(any_server, method):
    async def calls(client):
        await client.get("/json")
        return await client.request(method, "/drop")

    r = run_async(any_server, calls)
    assert r.status == 200
    assert len(drops(any_server, method)) == 2
    assert any_server.connections == 2


def test_patch_is_not_idempotent_either(any_server):
    def calls(client):
        client.get("/json")
        with pytest.raises(HTTPConnectionError, match="PATCH request was not resent"):
            client.patch("/drop", json={"a": 1})

    run_sync(any_server, calls)
    assert len(drops(any_server, "PATCH")) == 1


def test_drop_on_a_fresh_connection_is_an_error_not_a_resend(any_server):
    # The first request on a new connection: nothing was reused, so nothing is resent, whatever the method.
    with SyncHTTPClient(**options(any_server), timeout=5) as client:
        r = client.get("/drop")  # a connection's first request is answered
        assert r.status == 200
    with SyncHTTPClient(**options(any_server), timeout=5) as client:
        with pytest.raises(HTTPResponseError) as info:
            client.post("/reject", content=b"x")
    assert info.value.status == 413
    assert any_server.log.count(("POST", "/reject")) == 1


def test_post_on_a_connection_reset_while_idle_is_resent(any_server):
    # The server resets the idle keep-alive connection before the next POST: the pool's peek at checkout drops it
    # (or, should the RST race the peek, the first send fails with no byte of it, no TLS record on https, at the
    # server, and the resend rule sends it once more), so the POST goes out once, on a new connection.
    def calls(client):
        assert client.get("/reset?ms=5").status == 200
        time.sleep(0.04)  # the RST has arrived
        return client.post("/echo", content=b"pay once")

    r = run_sync(any_server, calls)
    assert r.status == 200 and b"pay once" in r.data
    assert any_server.log.count(("POST", "/echo")) == 1
    assert any_server.connections == 2


BIG = 20 * 1024 * 1024


def test_early_413_to_a_large_upload_is_returned_sync(server):
    with SyncHTTPClient(base_url=server.url, timeout=20) as client:
        r = client.post("/reject", content=b"x" * BIG, error_for_status=False)
    assert r.status == 413
    assert r.data == b'"too large"'
    assert server.log.count(("POST", "/reject")) == 1


def test_early_413_to_a_large_upload_is_returned_async(server):
    async def calls(client):
        return await client.post("/reject", content=b"x" * BIG, error_for_status=False)

    r = run_async(server, calls)
    assert r.status == 413
    assert r.data == b'"too large"'


def test_early_answer_then_body_read_keeps_the_connection_usable_async(server):
    # /early answers before reading the body, then reads it: the response is valid, and the connection may not
    # be reused for the next request only if the request was not fully sent; either way the next call works.
    async def calls(client):
        first = await client.post("/early", content=b"y" * 1_000_000)
        second = await client.get("/json")
        return first, second

    first, second = run_async(server, calls)
    assert first.status == 200 and first.data == b'"early"'
    assert second.status == 200
