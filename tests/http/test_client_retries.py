"""tests/http/test_client_retries.py: max_retries with full-jitter backoff, Retry-After (seconds and HTTP date) capped
by max_retry_after, the idempotency rule for transport errors, and the attempt count on the final error. Sleeps and
the clock are replaced (retry.sleep / async_sleep / random / clock), so delays are asserted exactly."""

from __future__ import annotations

import asyncio
import email.utils

import pytest
from _script_server import ScriptServer

from boltwire.http import HTTPClient, HTTPConnectionError, HTTPResponseError, SyncHTTPClient

JSON = [("Content-Type", "application/json")]
OK = (200, JSON, b'{"ok":true}')
UNAVAILABLE = (503, JSON, b'{"busy":true}')


@pytest.fixture()
def srv():
    s = ScriptServer()
    yield s
    s.close()


def fake(client, rand=0.5, now=1_000_000.0):
    """Replace the client's sleeps, jitter and clock; returns the list of requested delays."""
    delays: list[float] = []
    retry = client._policy.retry
    retry.sleep = delays.append
    retry.random = lambda: rand
    retry.clock = lambda: now

    async def async_sleep(d):
        delays.append(d)

    retry.async_sleep = async_sleep
    return delays


def test_statuses_are_retried_with_exponential_full_jitter(srv):
    srv.script("/r", UNAVAILABLE, (500, JSON, b"{}"), OK)
    with SyncHTTPClient(base_url=srv.url, max_retries=3) as client:
        delays = fake(client, rand=0.5)
        r = client.get("/r")
    assert r.status == 200 and len(srv.hits("/r")) == 3
    assert delays == [0.05, 0.1]  # uniform(0, 0.1 * 2**n) with the draw 0.5


def test_backoff_max_caps_the_exponential(srv):
    srv.script("/r", UNAVAILABLE)
    with SyncHTTPClient(base_url=srv.url, max_retries=4, backoff_base=1.0, backoff_max=1.5) as client:
        delays = fake(client, rand=1.0)
        with pytest.raises(HTTPResponseError) as info:
            client.get("/r")
    assert delays == [1.0, 1.5, 1.5, 1.5]
    assert info.value.attempts == 5 and info.value.status == 503 and len(srv.hits("/r")) == 5


def test_retry_after_seconds_and_http_date(srv):
    now = 1_700_000_000.0
    srv.script("/r", (429, [("Retry-After", "3")], b""),
               (503, [("Retry-After", email.utils.formatdate(now + 10, usegmt=True))], b""), OK)
    with SyncHTTPClient(base_url=srv.url, max_retries=2) as client:
        delays = fake(client, now=now)
        assert client.get("/r").status == 200
    assert delays == [3.0, 10.0]


def test_retry_after_beyond_the_cap_ends_retrying(srv):
    srv.script("/r", (503, [("Retry-After", "3600")], b""), OK)
    with SyncHTTPClient(base_url=srv.url, max_retries=3, max_retry_after=60) as client:
        delays = fake(client)
        with pytest.raises(HTTPResponseError) as info:
            client.get("/r")
    assert delays == [] and info.value.attempts == 1 and info.value.headers["retry-after"] == "3600"


def test_unreadable_retry_after_falls_back_to_backoff(srv):
    # RFC 9110 §10.2.3: delay-seconds is ASCII digits. A field str.isdigit() accepts but float() does not (the
    # superscript two, one latin-1 byte) is unreadable, so the backoff applies; it was a ValueError out of get().
    srv.script("/r", (503, [("Retry-After", "\u00b2")], b""), OK)
    with SyncHTTPClient(base_url=srv.url, max_retries=1) as client:
        delays = fake(client, rand=0.5)
        assert client.get("/r").status == 200
    assert delays == [0.05]


def test_only_retry_methods_and_statuses(srv):
    srv.script("/r", UNAVAILABLE, OK)
    with SyncHTTPClient(base_url=srv.url, max_retries=2) as client:
        fake(client)
        with pytest.raises(HTTPResponseError):
            client.post("/r", json={})  # POST is not in the default retry_methods
        assert len(srv.hits("/r")) == 1
        srv.script("/r", (404, JSON, b"{}"), OK)
        with pytest.raises(HTTPResponseError):
            client.get("/r")  # 404 is not a retry status
    with SyncHTTPClient(base_url=srv.url, max_retries=2, retry_methods=["post"], retry_statuses=[409]) as client:
        fake(client)
        srv.script("/c", (409, JSON, b"{}"), OK)
        assert client.post("/c", json={}).status == 200 and len(srv.hits("/c")) == 2


def test_error_for_status_false_still_retries_and_returns_the_last_response(srv):
    srv.script("/r", UNAVAILABLE)
    with SyncHTTPClient(base_url=srv.url, max_retries=2, error_for_status=False) as client:
        fake(client)
        r = client.get("/r")
    assert r.status == 503 and len(srv.hits("/r")) == 3


def test_transport_errors_retry_idempotent_methods_only(srv):
    srv.script("/d", "drop", "drop", OK)
    with SyncHTTPClient(base_url=srv.url, max_retries=3) as client:
        delays = fake(client)
        assert client.get("/d").status == 200
    assert len(delays) == 2
    srv.script("/p", "drop")
    with SyncHTTPClient(base_url=srv.url, max_retries=3, retry_methods=["POST", "GET"]) as client:
        fake(client)
        with pytest.raises(HTTPConnectionError) as info:
            client.post("/p", content=b"once")  # a POST is never resent after a transport error
    assert info.value.attempts == 1 and len(srv.hits("/p")) == 1
    srv.script("/g", "drop")
    with SyncHTTPClient(base_url=srv.url, max_retries=2) as client:
        fake(client)
        with pytest.raises(HTTPConnectionError) as info:
            client.get("/g")
    assert info.value.attempts == 3


def test_async_retries_loop_in_the_calling_task(srv):
    srv.script("/r", UNAVAILABLE, UNAVAILABLE, OK)

    async def main():
        async with HTTPClient(base_url=srv.url, max_retries=2) as client:
            delays = fake(client, rand=1.0)
            tasks = []

            async def sleep(d):  # between attempts: only the calling task exists, the same one each time
                delays.append(d)
                tasks.append((len(asyncio.all_tasks()), asyncio.current_task()))

            client._policy.retry.async_sleep = sleep
            r = await client.get("/r")
            assert tasks == [(1, asyncio.current_task())] * 2
            return r, delays

    r, delays = asyncio.run(main())
    assert r.status == 200 and delays == [0.1, 0.2] and len(srv.hits("/r")) == 3


def test_async_final_error_carries_attempts(srv):
    srv.script("/r", UNAVAILABLE)

    async def main():
        async with HTTPClient(base_url=srv.url, max_retries=1) as client:
            fake(client)
            with pytest.raises(HTTPResponseError) as info:
                await client.get("/r")
            return info.value

    assert asyncio.run(main()).attempts == 2


def test_bad_retry_settings():
    with pytest.raises(ValueError):
        SyncHTTPClient(max_retries=-1)
    with pytest.raises(ValueError):
        SyncHTTPClient(max_retries=1, backoff_base=-1)
    with pytest.raises(TypeError):
        SyncHTTPClient(max_retries=1, retry_methods="GET")
    assert SyncHTTPClient()._policy is None  # no policy: the verbs' native path
