"""Each timeout kind (connect, read, write, pool, total), per client and per request, sync and async."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient, HTTPTimeoutError, SyncHTTPClient


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


@pytest.fixture(scope="module")
def blackhole():
    """A listening socket whose accept queue is full: further connects get no SYN-ACK and hang."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(0)
    fillers = []
    port = s.getsockname()[1]
    for _ in range(8):
        f = socket.socket()
        f.setblocking(False)
        try:
            f.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        fillers.append(f)
    time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    for f in fillers:
        f.close()
    s.close()


def check(mode, kwargs, path_or_url, kind, request_kwargs=None, server=None, limit=3.0):
    request_kwargs = request_kwargs or {}
    start = time.monotonic()
    if mode == "sync":
        with SyncHTTPClient(**kwargs) as client:
            with pytest.raises(HTTPTimeoutError) as info:
                client.post(path_or_url, **request_kwargs) if "content" in request_kwargs else client.get(
                    path_or_url, **request_kwargs)
            stats = client._stats()
    else:
        async def main():
            async with HTTPClient(**kwargs) as client:
                with pytest.raises(HTTPTimeoutError) as info:
                    if "content" in request_kwargs:
                        await client.post(path_or_url, **request_kwargs)
                    else:
                        await client.get(path_or_url, **request_kwargs)
                await asyncio.sleep(0.05)
                return info, client._stats()

        info, stats = asyncio.run(asyncio.wait_for(main(), 10))
    assert time.monotonic() - start < limit
    assert info.value.kind == kind, str(info.value)
    assert stats == (0, 0)  # the timed-out connection is closed, its slot freed
    return info.value


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_connect_timeout(blackhole, mode):
    check(mode, {"connect_timeout": 0.2}, blackhole, "connect")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_read_timeout(server, mode):
    check(mode, {"base_url": server.url, "read_timeout": 0.2}, "/hang", "read")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_total_timeout_while_bytes_keep_coming(server, mode):
    # The body drips a byte every 50 ms: the read timeout (1 s) never fires, the total one (0.3 s) does.
    check(mode, {"base_url": server.url, "read_timeout": 1.0, "timeout": 0.3}, "/drip?n=100&ms=50", "total")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_per_request_timeout(server, mode):
    check(mode, {"base_url": server.url}, "/hang", "total", {"timeout": 0.2})


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_write_timeout(server, mode):
    body = b"x" * (32 * 1024 * 1024)  # more than the socket buffers hold; the server never reads it
    check(mode, {"base_url": server.url, "write_timeout": 0.2}, "/noread", "write", {"content": body}, limit=5.0)


def test_pool_timeout_sync(server):
    import threading

    with SyncHTTPClient(base_url=server.url, max_connections=1, pool_timeout=0.2) as client:
        t = threading.Thread(target=client.get, args=("/slow?ms=800",))
        t.start()
        time.sleep(0.1)
        with pytest.raises(HTTPTimeoutError) as info:
            client.get("/json")
        assert info.value.kind == "pool"
        t.join()
        assert client.get("/json").status == 200


def test_pool_timeout_async(server):
    async def main():
        async with HTTPClient(base_url=server.url, max_connections_per_host=1, pool_timeout=0.2) as client:
            slow = asyncio.ensure_future(client.get("/slow?ms=800"))
            await asyncio.sleep(0.05)
            with pytest.raises(HTTPTimeoutError) as info:
                await client.get("/json")
            assert info.value.kind == "pool"
            assert (await slow).status == 200
            assert (await client.get("/json")).status == 200

    asyncio.run(asyncio.wait_for(main(), 10))


def test_ctrl_c_interrupts_a_blocking_request(server, sigint_raises):
    import os
    import signal
    import threading

    with SyncHTTPClient(base_url=server.url, timeout=None) as client:
        timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            client.get("/hang")  # no timeout at all: only the signal ends it
        assert time.monotonic() - start < 2
        timer.join()
        assert client._stats() == (0, 0)  # the interrupted connection was closed
        assert client.get("/json").status == 200
