"""The verbs' native path finds the running loop without asyncio.get_running_loop() when the loop has not changed
(on Python < 3.12 that call costs a getpid syscall per request). These tests change the running loop under it in
every way the cache must notice: loops taking turns in one thread, a coroutine driven with no loop, and a fork
inside a running loop."""

from __future__ import annotations

import asyncio
import os

import pytest

from _local_server import PAYLOAD, LocalServer
from boltwire import HTTPClient


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def test_loops_taking_turns_in_one_thread(server):
    client = HTTPClient(base_url=server.url)
    loops = [asyncio.new_event_loop() for _ in range(3)]

    async def one():
        call = client.get("/json")
        r = await call
        return r.data, asyncio.get_running_loop()

    try:
        loops[0].run_until_complete(client.__aenter__())
        for _ in range(3):
            for loop in loops:
                data, ran_on = loop.run_until_complete(asyncio.wait_for(one(), 10))
                assert data == PAYLOAD and ran_on is loop
        # Each loop got its own completion sink.
        assert set(client._sinks) == set(loops)
        loops[0].run_until_complete(client.aclose())
        for loop in loops[1:]:  # the other loops retire their sinks when they run next
            loop.run_until_complete(asyncio.sleep(0.01))
    finally:
        for loop in loops:
            loop.close()


def test_a_verb_driven_outside_any_loop_after_one_ran(server):
    client = HTTPClient(base_url=server.url)

    async def warm():
        await client.__aenter__()
        return (await client.get("/json")).status

    assert asyncio.run(warm()) == 200
    coro = client.get("/json")
    with pytest.raises(RuntimeError, match="no running event loop"):
        coro.send(None)
    coro.close()
    assert asyncio.run(warm()) == 200  # and a new loop works again
    asyncio.run(client.aclose())


def test_fork_inside_a_running_loop(server):
    # The child inherits the running loop (and the thread state holding it); asyncio itself says there is no
    # running loop in the child, and so must the client, instead of queueing on the parent's loop.
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            assert (await client.get("/json")).status == 200
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read)
                try:
                    asyncio.get_running_loop()
                    verdict = b"asyncio sees a loop"
                except RuntimeError:
                    try:
                        await client.get("/json")
                        verdict = b"the client sent"
                    except RuntimeError as e:
                        verdict = b"ok" if "no running event loop" in str(e) else str(e).encode()
                    except BaseException as e:  # noqa: BLE001 - reported to the parent
                        verdict = repr(e).encode()
                os.write(write, verdict)
                os._exit(0)
            os.close(write)
            _, status = os.waitpid(pid, 0)
            verdict = os.read(read, 1000)
            os.close(read)
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
            assert verdict == b"ok"
            # The parent goes on with its loop and client.
            assert (await client.get("/json")).data == PAYLOAD

    asyncio.run(asyncio.wait_for(main(), 20))
