"""Leak loops over the request, error and cancellation paths of both clients.

Each loop runs a few thousand requests down one path; afterwards every native exchange is freed (the transport's
live-exchange count is back where it started), no _HttpCall or _HttpSink survives its client, pool slots all came
back, and the process's Python allocations did not grow beyond a small bound."""

from __future__ import annotations

import asyncio
import gc
import time
import tracemalloc

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient, SyncHTTPClient, _core
from boltwire.http import HTTPConnectionError, HTTPResponseError, HTTPTimeoutError

N = 1000


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def live_exchanges_settle(baseline: int, seconds: float = 5.0) -> int:
    """The live-exchange count once the engine has let go of finished exchanges (it frees them asynchronously)."""
    deadline = time.monotonic() + seconds
    while True:
        gc.collect()
        live = _core._http_live_exchanges()
        if live <= baseline or time.monotonic() > deadline:
            return live
        time.sleep(0.01)


def cancel_every_task(loop: asyncio.AbstractEventLoop) -> None:
    """Cancels the loop's pending tasks without running it (so their calls stay in flight)."""
    for task in asyncio.all_tasks(loop):
        task.cancel()


def native_objects(name: str) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o).__name__ == name)


class Bounded:
    """Python allocation growth across a block (after a warm-up round outside it), not counting the in-process
    test server's own bookkeeping (it logs every request)."""

    IGNORE = (tracemalloc.Filter(False, "*_local_server.py", all_frames=True),
              tracemalloc.Filter(False, tracemalloc.__file__))

    def __enter__(self):
        gc.collect()
        tracemalloc.start(25)
        self.start = tracemalloc.take_snapshot().filter_traces(self.IGNORE)
        return self

    def __exit__(self, *exc):
        gc.collect()
        end = tracemalloc.take_snapshot().filter_traces(self.IGNORE)
        tracemalloc.stop()
        self.growth = sum(stat.size_diff for stat in end.compare_to(self.start, "filename"))


def sync_paths(client: SyncHTTPClient, refused_url: str) -> None:
    client.get("/json")
    client.get("/json", response_data_type=dict)
    with pytest.raises(HTTPResponseError):
        client.get("/status/404")
    with pytest.raises(HTTPConnectionError):
        client.get("/truncated")
    with pytest.raises(HTTPConnectionError):
        client.get(refused_url)


@pytest.fixture(scope="module")
def refused_url():
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return f"http://127.0.0.1:{port}/"


def test_sync_paths_free_everything(server, refused_url):
    baseline = _core._http_live_exchanges()
    with SyncHTTPClient(base_url=server.url) as client:
        sync_paths(client, refused_url)
        with Bounded() as b:
            for _ in range(N // 5):
                sync_paths(client, refused_url)
        open_, idle = client._stats()
        assert open_ == idle  # nothing checked out is left behind
    assert live_exchanges_settle(baseline) <= baseline
    assert b.growth < 200_000, b.growth


def test_sync_timeouts_free_everything(server):
    baseline = _core._http_live_exchanges()
    # The answer comes long after the 2 ms read timeout: a client thread descheduled on a loaded machine still
    # finds nothing to read when it wakes (with ?ms=50 it once found the whole response and did not time out).
    with SyncHTTPClient(base_url=server.url, read_timeout=0.002) as client:
        for _ in range(50):
            with pytest.raises(HTTPTimeoutError):
                client.get("/slow?ms=1000")
        assert client._stats()[0] == client._stats()[1]
    assert live_exchanges_settle(baseline) <= baseline


async def async_paths(client: HTTPClient) -> None:
    await client.get("/json")
    await client.get("/json", response_data_type=dict)
    with pytest.raises(HTTPResponseError):
        await client.get("/status/500")
    with pytest.raises(HTTPConnectionError):
        await client.get("/truncated")
    task = asyncio.ensure_future(client.get("/hang"))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def test_async_paths_free_everything(server):
    baseline = _core._http_live_exchanges()

    async def main():
        async with HTTPClient(base_url=server.url) as client:
            await async_paths(client)
            with Bounded() as b:
                for _ in range(N // 5):
                    await async_paths(client)
            return b

    b = asyncio.run(asyncio.wait_for(main(), 60))
    assert live_exchanges_settle(baseline) <= baseline
    assert native_objects("_HttpCall") == 0
    assert native_objects("_HttpSink") == 0
    assert b.growth < 300_000, b.growth


def test_whole_batch_cancelled(server):
    baseline = _core._http_live_exchanges()

    async def main():
        async with HTTPClient(base_url=server.url, max_connections=4) as client:
            tasks = [asyncio.ensure_future(client.get("/slow?ms=200")) for _ in range(300)]
            await asyncio.sleep(0.05)
            for t in tasks:
                t.cancel()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            assert all(isinstance(r, asyncio.CancelledError) for r in results)
            # Every slot comes back: the client still works at full width.
            rs = await asyncio.gather(*[client.get("/json") for _ in range(20)])
            assert all(r.status == 200 for r in rs)

    asyncio.run(asyncio.wait_for(main(), 30))
    assert live_exchanges_settle(baseline) <= baseline


def test_sink_dropped_with_requests_in_flight(server):
    # The loop and the client go away without aclose() while requests are still in flight: the engine finishes
    # them (timeout) and frees them with the completion queue nobody drains any more.
    baseline = _core._http_live_exchanges()

    async def main():
        client = HTTPClient(base_url=server.url, timeout=0.3)
        await client.__aenter__()
        for _ in range(50):
            asyncio.ensure_future(client.get("/hang"))
        await asyncio.sleep(0.05)

    loop = asyncio.new_event_loop()
    loop.run_until_complete(main())
    # No name may stay bound to a task here: a `for task in ...` variable kept the last task, its call, the sink and
    # every exchange in the sink's queue alive (the failure seen under load, when that task had started its request).
    cancel_every_task(loop)
    loop.close()
    del loop
    live = live_exchanges_settle(baseline, seconds=10)
    # Which owner kept them (seen once under heavy load): the calls, or a sink and its queue.
    holders = {name: native_objects(name) for name in ("_HttpCall", "_HttpSink")}
    assert live <= baseline, holders
    assert native_objects("_HttpSink") == 0
    assert native_objects("_HttpCall") == 0


def test_client_garbage_with_cycles_is_collected(server):
    # A call's done-callbacks reach the task that awaits it, whose frame holds the call: the collector must see
    # through _HttpCall (a GC type) to free such a cycle.
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            call = client._call("GET", "/json", None, None, None, None, None, None, bytes, None)
            holder = [call]
            call.add_done_callback(lambda f, h=holder: h)  # call -> callback -> list -> call
            await call

    asyncio.run(main())
    assert native_objects("_HttpCall") == 0
