"""Pool limits (total, per host, idle per host, idle expiry) and the stale keep-alive connection retry."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient, SyncHTTPClient


@pytest.fixture()
def server():
    with LocalServer() as s:
        yield s


def test_max_connections_per_host_async(server):
    async def main():
        async with HTTPClient(base_url=server.url, max_connections_per_host=3) as client:
            rs = await asyncio.gather(*[client.get("/slow?ms=30") for _ in range(30)])
            assert all(r.status == 200 for r in rs)
            return client._stats()

    open_, idle = asyncio.run(asyncio.wait_for(main(), 20))
    assert server.connections == 3
    assert server.peak_open <= 3
    assert open_ == idle == 3


def test_max_connections_total_across_hosts_async(server):
    # Two origins (127.0.0.1 and localhost) share one total limit of 2.
    async def main():
        async with HTTPClient(max_connections=2) as client:
            urls = [f"http://127.0.0.1:{server.port}/slow?ms=20", f"http://localhost:{server.port}/slow?ms=20"]
            rs = await asyncio.gather(*[client.get(urls[i % 2]) for i in range(20)])
            assert all(r.status == 200 for r in rs)
            return client._stats()

    open_, idle = asyncio.run(asyncio.wait_for(main(), 20))
    assert server.peak_active == 2  # never more than two requests at once (the server sees closes late)
    assert open_ <= 2


def test_max_connections_sync_threads(server):
    with SyncHTTPClient(base_url=server.url, max_connections=2) as client:
        errors = []

        def work():
            try:
                for _ in range(5):
                    assert client.get("/slow?ms=10").status == 200
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        threads = [threading.Thread(target=work) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        assert errors == []
        assert client._stats()[0] <= 2
    assert server.peak_active == 2
    assert server.connections == 2


def test_pool_max_idle_per_host(server):
    async def main():
        async with HTTPClient(base_url=server.url, pool_max_idle_per_host=2) as client:
            await asyncio.gather(*[client.get("/slow?ms=30") for _ in range(6)])
            return client._stats()

    assert asyncio.run(asyncio.wait_for(main(), 20)) == (2, 2)


def test_pool_idle_timeout_expires_connections(server):
    with SyncHTTPClient(base_url=server.url, pool_idle_timeout=0.1) as client:
        client.get("/json")
        time.sleep(0.25)
        client.get("/json")
    assert server.connections == 2


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_stale_keep_alive_connection_is_retried(server, mode):
    # /close answers without "Connection: close" and then closes: the idle pooled connection is stale.
    if mode == "sync":
        with SyncHTTPClient(base_url=server.url) as client:
            for _ in range(5):
                assert client.get("/close").data == b'"closing"'
                time.sleep(0.1)  # the server has closed its end by now
                assert client.get("/json").status == 200
                assert client.get("/close").status == 200
    else:
        async def main():
            async with HTTPClient(base_url=server.url) as client:
                for _ in range(5):
                    assert (await client.get("/close")).data == b'"closing"'
                    await asyncio.sleep(0.1)
                    assert (await client.get("/json")).status == 200
                    assert (await client.get("/close")).status == 200

        asyncio.run(asyncio.wait_for(main(), 20))
    assert server.requests == 15


def test_stale_retry_happens_only_once(server):
    # Every connection answers /close and then dies; a request on a stale one is retried once and succeeds.
    with SyncHTTPClient(base_url=server.url) as client:
        client.get("/close")
        time.sleep(0.1)
        before = server.connections
        assert client.get("/close").status == 200
        assert server.connections == before + 1


def test_sync_request_sent_on_a_just_closed_connection_is_retried(server):
    # The server closes the connection just after its answer: the checkout's peek sees the close (or, should the
    # close race the peek, the EOF/reset without a response byte makes the client send the request again), and the
    # request is answered on a fresh connection. (The resend itself is pinned by test_client_resend's /drop tests.)
    with SyncHTTPClient(base_url=server.url) as client:
        assert client.get("/json").status == 200
        for _ in range(5):
            before = server.connections
            assert client.get("/close").status == 200  # on the pooled connection
            time.sleep(0.06)
            assert client.get("/json").status == 200
            assert server.connections == before + 1
