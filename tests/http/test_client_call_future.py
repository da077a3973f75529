"""The async client's in-flight call (_HttpCall) is its own asyncio future: no asyncio.Future is made per request.

These tests hold it to asyncio.Future's contract as tasks, asyncio.wait_for / gather / shield and user code see it:
awaiting, done-callbacks (with their contexts), cancel(msg), result() / exception() in every state, and the loop's
exception handler for a callback that raises."""

from __future__ import annotations

import asyncio
import contextvars

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient
from boltwire.http import HTTPTransportError


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def raw_call(client: HTTPClient, path: str):
    """The call behind client.get(path): the native object, before any await."""
    return client._call("GET", path, None, None, None, None, None, None, bytes, None)


def test_call_is_an_asyncio_future_and_resolves_to_the_response(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            call = raw_call(client, "/json")
            assert asyncio.isfuture(call)
            assert not call.done() and not call.cancelled()
            assert call.get_loop() is asyncio.get_running_loop()
            with pytest.raises(asyncio.InvalidStateError):
                call.result()
            with pytest.raises(asyncio.InvalidStateError):
                call.exception()
            response = await call
            assert response.status == 200
            assert call.done() and not call.cancelled()
            assert call.result() is response
            assert call.exception() is None
            assert await call is response  # awaiting a finished call returns at once

    asyncio.run(main())


def test_done_callbacks_run_once_each_in_their_context(server):
    var = contextvars.ContextVar("var", default="unset")

    async def main():
        async with HTTPClient(base_url=server.url) as client:
            call = raw_call(client, "/json")
            seen = []
            ctx = contextvars.copy_context()
            ctx.run(var.set, "given")
            call.add_done_callback(lambda c: seen.append(("first", c.result().status, var.get())), context=ctx)
            var.set("current")
            call.add_done_callback(lambda c: seen.append(("second", c.done(), var.get())))
            removed = call.add_done_callback(print)
            assert removed is None
            assert call.remove_done_callback(print) == 1
            await call
            await asyncio.sleep(0)  # callbacks of a call awaited from a task may be scheduled
            assert seen == [("first", 200, "given"), ("second", True, "current")]
            late = []
            call.add_done_callback(late.append)  # already done: scheduled on the loop, as asyncio does
            assert late == []
            await asyncio.sleep(0)
            assert late == [call]

    asyncio.run(main())


def test_cancel_with_message_reaches_the_awaiting_task(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            call = raw_call(client, "/slow?ms=2000")

            async def waiter():
                return await call

            task = asyncio.ensure_future(waiter())
            await asyncio.sleep(0.05)
            assert task.cancel("stop now")
            with pytest.raises(asyncio.CancelledError) as info:
                await task
            assert info.value.args == ("stop now",)
            assert call.cancelled() and call.done()
            assert call.cancel() is False  # cancelling twice is a no-op
            with pytest.raises(asyncio.CancelledError):
                call.result()
            with pytest.raises(asyncio.CancelledError):
                call.exception()
            # The client is still usable; the cancelled request's connection was not handed back half-read.
            assert (await client.get("/json")).status == 200

    asyncio.run(main())


def test_wait_for_gather_and_shield_accept_the_call(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            responses = await asyncio.gather(raw_call(client, "/json"), raw_call(client, "/json"))
            assert [r.status for r in responses] == [200, 200]
            assert (await asyncio.wait_for(raw_call(client, "/json"), 5)).status == 200
            slow = raw_call(client, "/slow?ms=2000")
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(slow, 0.05)
            assert slow.cancelled()  # wait_for cancels the future it gave up on
            assert (await asyncio.shield(raw_call(client, "/json"))).status == 200

    asyncio.run(main())


def test_transport_error_is_the_calls_exception(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            call = raw_call(client, "/malformed")
            with pytest.raises(HTTPTransportError) as info:
                await call
            assert call.done() and not call.cancelled()
            assert call.exception() is info.value
            with pytest.raises(type(info.value)):
                call.result()

    asyncio.run(main())


def test_a_raising_callback_goes_to_the_loops_exception_handler(server):
    async def main():
        reported = []
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda lp, context: reported.append(context))
        async with HTTPClient(base_url=server.url) as client:
            call = raw_call(client, "/json")
            done = asyncio.Event()

            def bad(c):
                done.set()
                raise ValueError("callback failed")

            call.add_done_callback(bad)
            await asyncio.wait_for(done.wait(), 5)  # the call is not awaited by a task: only the callbacks see it
            await asyncio.sleep(0)
            assert call.result().status == 200
        assert len(reported) == 1
        assert isinstance(reported[0]["exception"], ValueError)
        assert reported[0]["future"] is call

    asyncio.run(main())


def test_cancel_argument_checking(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            call = raw_call(client, "/json")
            with pytest.raises(TypeError):
                call.cancel("a", "b")
            with pytest.raises(TypeError):
                call.cancel(message="x")
            with pytest.raises(TypeError):
                call.add_done_callback(print, ctx=None)
            assert call.cancel(msg="bye")
            with pytest.raises(asyncio.CancelledError) as info:
                await call
            assert info.value.args == ("bye",)

    asyncio.run(main())
