"""The engine serves several event loops at once (one completion queue per loop), uvloop, and loop changes."""

from __future__ import annotations

import asyncio
import threading

import pytest

from _local_server import PAYLOAD, LocalServer
from boltwire import HTTPClient


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


async def burst(url: str, n: int) -> int:
    async with HTTPClient(base_url=url, max_connections=8) as client:
        rs = await asyncio.gather(*[client.get("/json") for _ in range(n)])
        return sum(r.data == PAYLOAD for r in rs)


def test_loops_in_several_threads(server):
    results: list[int] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(asyncio.run(asyncio.wait_for(burst(server.url, 200), 20)))
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert results == [200] * 4


def test_one_client_across_two_loops(server):
    client = HTTPClient(base_url=server.url)

    async def first():
        await client.__aenter__()
        return (await client.get("/json")).status

    async def second():
        # A new loop: the client binds a completion queue to it on first use.
        r = (await client.get("/json")).status
        await client.aclose()
        return r

    assert asyncio.run(first()) == 200
    assert asyncio.run(second()) == 200


def test_uvloop(server):
    uvloop = pytest.importorskip("uvloop")
    assert uvloop.run(asyncio.wait_for(burst(server.url, 300), 20)) == 300


def test_uvloop_cancellation(server):
    uvloop = pytest.importorskip("uvloop")

    async def main():
        async with HTTPClient(base_url=server.url) as client:
            tasks = [asyncio.ensure_future(client.get("/slow?ms=20")) for _ in range(50)]
            await asyncio.sleep(0.005)
            for t in tasks[::2]:
                t.cancel()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            assert sum(isinstance(r, asyncio.CancelledError) for r in results) >= 1
            rs = await asyncio.gather(*[client.get("/json") for _ in range(50)])
            return all(r.status == 200 for r in rs)

    assert uvloop.run(asyncio.wait_for(main(), 20))


def test_staggered_timeouts_fire_each_on_time(server):
    import time

    from boltwire import HTTPTimeoutError

    async def one(timeout: float) -> float:
        start = time.monotonic()
        with pytest.raises(HTTPTimeoutError) as info:
            await client_ref[0].get("/hang", timeout=timeout)
        assert info.value.kind == "total"
        return time.monotonic() - start

    client_ref: list[HTTPClient] = []

    async def main():
        async with HTTPClient(base_url=server.url) as client:
            client_ref.append(client)
            timeouts = [0.1 + 0.05 * (i % 6) for i in range(24)]
            hangs = [asyncio.ensure_future(one(t)) for t in timeouts]
            ok = await asyncio.gather(*[client.get("/json") for _ in range(50)])  # unaffected meanwhile
            waited = await asyncio.gather(*hangs)
            assert all(r.status == 200 for r in ok)
            for t, w in zip(timeouts, waited):
                assert t - 0.01 <= w < t + 1.0, (t, w)
            await asyncio.sleep(0.05)
            open_, idle = client._stats()
            assert open_ == idle  # every timed-out connection was closed

    asyncio.run(asyncio.wait_for(main(), 20))


def test_one_client_in_two_running_loops_at_once(server):
    # Two threads, each with its own running loop, share one HTTPClient concurrently: every request of both loops
    # completes (each loop has its own completion sink), and closing from one loop ends the other's sink cleanly.
    client = HTTPClient(base_url=server.url)
    opened = threading.Event()
    both_done = threading.Barrier(2, timeout=20)
    results: dict[str, int] = {}
    errors: list[BaseException] = []

    async def work(name: str, first: bool) -> None:
        if first:
            await client.__aenter__()
            opened.set()
        else:
            assert opened.wait(10)
        rs = await asyncio.gather(*[client.get(f"/slow?ms={i % 3}") for i in range(150)])
        results[name] = sum(r.data == PAYLOAD for r in rs)
        await asyncio.get_running_loop().run_in_executor(None, both_done.wait)
        if first:
            await client.aclose()

    def run(name: str, first: bool) -> None:
        try:
            asyncio.run(asyncio.wait_for(work(name, first), 30))
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=("a", True)), threading.Thread(target=run, args=("b", False))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(40)
    assert errors == []
    assert results == {"a": 150, "b": 150}
    assert not client.is_open


def test_close_fails_the_other_loops_requests_instead_of_stranding_them(server):
    from boltwire.http import HTTPTransportError

    client = HTTPClient(base_url=server.url)
    started = threading.Event()
    outcome: list[BaseException | str] = []

    async def waiter() -> None:
        try:
            await client.get("/hang")
            outcome.append("answered")
        except HTTPTransportError as e:
            outcome.append(e)

    def other_loop() -> None:
        async def main():
            task = asyncio.ensure_future(waiter())
            await asyncio.sleep(0.2)
            started.set()
            await asyncio.wait_for(task, 10)

        asyncio.run(main())

    async def owner() -> None:
        await client.__aenter__()
        t = threading.Thread(target=other_loop)
        t.start()
        assert await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
        await client.aclose()
        await asyncio.get_running_loop().run_in_executor(None, t.join, 15)

    asyncio.run(owner())
    assert len(outcome) == 1 and isinstance(outcome[0], HTTPTransportError)
    assert "closed" in str(outcome[0])
