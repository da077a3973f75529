"""The async bridge works in batches: completions that pile up are delivered by one reader callback, and the requests
that callback's woken tasks submit reach the engine when it ends (no further loop iteration, no call_soon)."""

from __future__ import annotations

import asyncio
import json
import select
import time

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient
from test_client_call_future import raw_call  # the call behind client.get(path), before any await


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def count_wakeups(loop, sink) -> list[int]:
    """Replaces the sink's reader callback by one that records how many calls each wake-up finished."""
    batches: list[int] = []

    def on_ready() -> None:
        before = sink.outstanding()
        sink.on_ready()
        batches.append(before - sink.outstanding())

    loop.remove_reader(sink.fileno())
    loop.add_reader(sink.fileno(), on_ready)
    return batches


def test_completions_that_pile_up_resolve_every_call_in_one_wakeup(server):
    async def main():
        async with HTTPClient(base_url=server.url, max_connections=20) as client:
            loop = asyncio.get_running_loop()
            batches = count_wakeups(loop, client._current[1])
            calls = [raw_call(client, f"/echo?i={i}") for i in range(200)]
            await asyncio.sleep(0)  # the submissions go to the engine
            time.sleep(1.0)  # the loop is busy: the engine's completions queue up behind one eventfd byte
            responses = await asyncio.wait_for(asyncio.gather(*calls), 20)
            # Every call got its own answer, however the completions were grouped.
            assert [json.loads(r.data)["target"] for r in responses] == [f"/echo?i={i}" for i in range(200)]
            assert sum(batches) == 200
            assert max(batches) > 1, batches  # completions that waited were delivered together
            assert client._current[1].outstanding() == 0

    asyncio.run(main())


def test_a_burst_of_submissions_from_a_wakeup_is_handed_over_at_its_end(server):
    """Requests made by callbacks the reader callback runs are with the engine when it returns: here the loop stops in
    that very iteration, and the engine still answers them (the sink's eventfd becomes readable)."""
    loop = asyncio.new_event_loop()
    try:
        client = HTTPClient(base_url=server.url, max_connections=20)
        loop.run_until_complete(client.__aenter__())
        sink = client._current[1]
        burst: list = []

        def on_done(call) -> None:  # run by the reader callback (no task is running)
            burst.extend(raw_call(client, f"/echo?burst={i}") for i in range(50))
            loop.stop()

        first: list = []

        def start() -> None:  # inside the running loop
            first.append(raw_call(client, "/echo?first"))
            first[0].add_done_callback(on_done)

        loop.call_soon(start)
        loop.run_forever()  # stops in the iteration whose reader callback finished the first call
        assert first[0].done() and len(burst) == 50
        assert all(not c.done() for c in burst)
        # No loop iteration ran since: the engine has the burst only if the reader callback handed it over.
        readable, _, _ = select.select([sink.fileno()], [], [], 10)
        assert readable, "the burst never reached the engine"
        responses = loop.run_until_complete(asyncio.wait_for(asyncio.gather(*burst), 20))
        assert [json.loads(r.data)["target"] for r in responses] == [f"/echo?burst={i}" for i in range(50)]
        loop.run_until_complete(client.aclose())
    finally:
        loop.close()


def test_many_tasks_chained_through_wakeups_all_complete(server):
    """The race's shape: workers that each await one request after another; every request answers its own path."""

    async def main():
        async with HTTPClient(base_url=server.url, max_connections=10) as client:
            todo = iter(range(600))
            seen: list[str] = []

            async def worker() -> None:
                for i in todo:
                    r = await client.get(f"/echo?w={i}")
                    seen.append(json.loads(r.data)["target"])

            await asyncio.wait_for(asyncio.gather(*(worker() for _ in range(50))), 30)
            assert sorted(seen) == sorted(f"/echo?w={i}" for i in range(600))
            assert client._current[1].outstanding() == 0

    asyncio.run(main())
