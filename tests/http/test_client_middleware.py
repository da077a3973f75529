"""tests/http/test_client_middleware.py: middleware=[...] sees and changes requests, answers itself, sees responses
and errors, runs in order (first = outermost), sync or async, on both clients; a client without it has no policy."""

from __future__ import annotations

import asyncio

import pytest

from boltwire.http import HTTPClient, HTTPResponseError, OutgoingRequest, Response, SyncHTTPClient


def test_order_changes_and_responses_sync(boltwire_mocker):
    boltwire_mocker.add_get_response(path="/a", data=b"ok")
    boltwire_mocker.mock("GET", path="/e").with_status(500)
    log = []

    def outer(req: OutgoingRequest, call_next):
        log.append(("outer", req.method, req.url))
        req.headers["X-Outer"] = "1"
        try:
            r = call_next(req)
        except HTTPResponseError as e:
            log.append(("outer saw error", e.status))
            raise
        log.append(("outer saw", r.status))
        return r

    def inner(req, call_next):
        log.append(("inner", req.headers["x-outer"]))
        req.headers["X-Inner"] = "2"
        return call_next(req)

    with SyncHTTPClient(base_url="http://api.test", middleware=[outer, inner]) as client:
        assert client.get("/a").data == b"ok"
        with pytest.raises(HTTPResponseError):
            client.get("/e")
    sent = boltwire_mocker.get_requests()[0]
    assert sent.headers["x-outer"] == "1" and sent.headers["x-inner"] == "2"
    assert log == [("outer", "GET", "http://api.test/a"), ("inner", "1"), ("outer saw", 200),
                   ("outer", "GET", "http://api.test/e"), ("inner", "1"), ("outer saw error", 500)]


def test_middleware_may_answer_itself(boltwire_mocker):
    cache = {"http://api.test/c": Response(200, b"cached", url="http://api.test/c")}

    def cached(req, call_next):
        return cache.get(req.url) or call_next(req)

    with SyncHTTPClient(base_url="http://api.test", middleware=[cached]) as client:
        assert client.get("/c").data == b"cached"
    assert boltwire_mocker.get_call_count() == 0


def test_async_and_sync_middleware_on_the_async_client(boltwire_mocker):
    boltwire_mocker.add_post_response(path="/p", data={"ok": 1})
    seen = []

    async def timing(req, call_next):
        r = await call_next(req)
        seen.append((req.method, r.status, type(r.elapsed).__name__))
        return r

    def tag(req, call_next):  # a plain function on the async client: returns the awaitable it is given
        req.headers["X-Tag"] = "t"
        return call_next(req)

    async def main():
        async with HTTPClient(base_url="http://api.test", middleware=[timing, tag]) as client:
            return await client.post("/p", json={"a": 1}, response_data_type=dict)

    assert asyncio.run(main()).data == {"ok": 1}
    assert seen == [("POST", 200, "float")]
    sent = boltwire_mocker.get_requests()[0]
    assert sent.headers["x-tag"] == "t" and sent.json() == {"a": 1}
    assert sent.headers["content-type"] == "application/json"


def test_no_middleware_no_policy():
    assert SyncHTTPClient()._policy is None and HTTPClient()._policy is None
    assert SyncHTTPClient(middleware=[lambda r, n: n(r)])._policy is not None
    with pytest.raises(TypeError):
        SyncHTTPClient(middleware=[42])
