"""Cancellation storm, a SyncHTTPClient shared by 8 threads, and fork (use, fork, use in the child)."""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time

import pytest

from _local_server import PAYLOAD, LocalServer
from boltwire import HTTPClient, SyncHTTPClient


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def test_cancellation_storm_leaks_no_slot(server):
    rng = random.Random(1234)

    async def main():
        async with HTTPClient(base_url=server.url, max_connections=20, pool_timeout=10) as client:
            tasks = [asyncio.ensure_future(client.get("/slow?ms=%d" % rng.choice((0, 1, 5)))) for _ in range(1000)]
            victims = rng.sample(tasks, 500)
            for i, t in enumerate(victims):
                if i % 50 == 0:
                    await asyncio.sleep(0.001 * rng.random())  # cancel at different moments of the exchange
                t.cancel()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            cancelled = sum(isinstance(r, asyncio.CancelledError) for r in results)
            ok = sum(getattr(r, "status", 0) == 200 for r in results)
            assert cancelled + ok == 1000, [r for r in results if not isinstance(r, asyncio.CancelledError)
                                            and getattr(r, "status", 0) != 200][:3]
            assert cancelled >= 1
            open_before, _ = client._stats()
            assert open_before <= 20
            more = await asyncio.gather(*[client.get("/json") for _ in range(1000)])
            assert all(r.status == 200 and r.data == PAYLOAD for r in more)
            await asyncio.sleep(0.05)
            open_, idle = client._stats()
            assert open_ == idle  # nothing is busy, so every counted slot is an idle connection
            assert open_ <= 20
            # Every slot is usable: 20 concurrent slow requests all fit without a pool timeout.
            rs = await asyncio.gather(*[client.get("/slow?ms=50", timeout=5) for _ in range(20)])
            assert all(r.status == 200 for r in rs)

    asyncio.run(asyncio.wait_for(main(), 60))


def test_cancel_waiting_on_hang_closes_connection(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            task = asyncio.ensure_future(client.get("/hang"))
            await asyncio.sleep(0.1)
            assert client._stats() == (1, 0)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await asyncio.sleep(0.05)
            assert client._stats() == (0, 0)  # closed, never reused dirty
            assert (await client.get("/json")).status == 200

    asyncio.run(asyncio.wait_for(main(), 10))


def test_wait_for_timeout_cancels_request(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(client.get("/hang"), 0.1)
            await asyncio.sleep(0.05)
            assert client._stats() == (0, 0)

    asyncio.run(asyncio.wait_for(main(), 10))


def test_sync_client_shared_by_8_threads(server):
    with SyncHTTPClient(base_url=server.url) as client:
        errors: list[BaseException] = []
        counts = [0] * 8

        def work(i: int) -> None:
            try:
                for _ in range(100):
                    r = client.get("/json", response_data_type=dict)
                    assert r.data["user"]["id"] == 42
                    counts[i] += 1
            except BaseException as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert errors == []
        assert counts == [100] * 8
        open_, idle = client._stats()
        assert open_ == idle and 1 <= open_ <= 8


def _fork_and_run(fn) -> int:
    pid = os.fork()
    if pid == 0:  # child
        code = 1
        try:
            code = 0 if fn() else 3
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_fork_sync_client(server):
    with SyncHTTPClient(base_url=server.url) as client:
        assert client.get("/json").status == 200

        def child():
            return all(client.get("/json").data == PAYLOAD for _ in range(5))

        assert _fork_and_run(child) == 0
        assert client.get("/json").status == 200  # the parent's pool still works


def test_fork_async_client(server):
    client = HTTPClient(base_url=server.url)

    async def use():
        async with client:
            rs = await asyncio.gather(*[client.get("/json") for _ in range(10)])
            return all(r.data == PAYLOAD for r in rs)

    assert asyncio.run(use())

    def child():
        return asyncio.run(asyncio.wait_for(use(), 10))

    assert _fork_and_run(child) == 0
    assert asyncio.run(use())


def test_fork_with_open_async_client_and_live_loop(server):
    loop = asyncio.new_event_loop()
    client = HTTPClient(base_url=server.url)
    try:
        loop.run_until_complete(client.__aenter__())

        async def use():
            rs = await asyncio.gather(*[client.get("/json") for _ in range(10)])
            return all(r.data == PAYLOAD for r in rs)

        assert loop.run_until_complete(use())

        def child():
            return asyncio.run(asyncio.wait_for(use(), 10))

        assert _fork_and_run(child) == 0
        assert loop.run_until_complete(asyncio.wait_for(use(), 10))  # the parent's loop and pool are untouched
        loop.run_until_complete(client.aclose())
    finally:
        loop.close()


def test_response_before_request_body_is_read(server):
    # The answer arrives while the client is still writing its 8 MiB body: it must be read once writing ends.
    body = b"y" * (8 * 1024 * 1024)

    async def main():
        async with HTTPClient(base_url=server.url, read_timeout=10) as client:
            r = await client.post("/early", content=body)
            assert r.data == b'"early"'
            return (await client.get("/json")).status

    start = time.monotonic()
    assert asyncio.run(asyncio.wait_for(main(), 20)) == 200
    assert time.monotonic() - start < 8  # not the read timeout
    with SyncHTTPClient(base_url=server.url, read_timeout=10) as client:
        assert client.post("/early", content=body).data == b'"early"'


def test_aclose_fails_requests_in_flight(server):
    from boltwire import HTTPTransportError

    async def main():
        client = HTTPClient(base_url=server.url)
        await client.__aenter__()
        task = asyncio.ensure_future(client.get("/hang"))
        await asyncio.sleep(0.1)
        await client.aclose()
        with pytest.raises(HTTPTransportError, match="closed"):
            await task

    asyncio.run(asyncio.wait_for(main(), 10))
