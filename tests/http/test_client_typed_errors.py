"""tests/http/test_client_typed_errors.py: error_type= / raises= decode 4xx/5xx bodies onto HTTPResponseError."""

from __future__ import annotations

import asyncio
import pickle
from typing import Generic, TypeVar

import pytest
from _script_server import ScriptServer

from boltwire import Struct
from boltwire.http import HTTPClient, HTTPResponseError, RequestInfo, SyncHTTPClient

JSON = [("Content-Type", "application/json")]
PROBLEM = b'{"code": 42, "detail": "no such thing"}'


class Problem(Struct):
    code: int
    detail: str


class APIError(HTTPResponseError[Problem]):
    pass


T = TypeVar("T")


class Generic404(HTTPResponseError[T], Generic[T]):
    pass


class Pinned(Generic404[Problem]):  # pinned through a generic parent
    pass


@pytest.fixture(scope="module")
def srv():
    s = ScriptServer()
    yield s
    s.close()


def test_error_type_decodes_the_body(srv):
    srv.script("/p", (404, JSON, PROBLEM))
    with SyncHTTPClient(base_url=srv.url) as client:
        with pytest.raises(HTTPResponseError) as info:
            client.get("/p", error_type=Problem)
    e = info.value
    assert type(e) is HTTPResponseError
    assert e.error == Problem(42, "no such thing") and e.parsed_body is e.error and e.parse_error is None
    assert e.status == 404 and e.body == PROBLEM and e.body_start == PROBLEM[:100]
    assert isinstance(e.request, RequestInfo)
    assert (e.request.method, e.request.path, e.request.host) == ("GET", "/p", "127.0.0.1")
    assert e.request.url == srv.url + "/p" and e.request.headers["accept"] == "*/*"
    assert e.attempts == 1


def test_raises_subclass_pins_the_error_type_async(srv):
    srv.script("/p", (409, JSON, PROBLEM))

    async def main():
        async with HTTPClient(base_url=srv.url) as client:
            with pytest.raises(APIError) as info:
                await client.post("/p", json={"a": 1}, raises=APIError)
            return info.value

    e = asyncio.run(main())
    assert type(e) is APIError and e.error == Problem(42, "no such thing") and e.status == 409
    assert e.request.method == "POST" and e.request.headers["content-type"] == "application/json"


def test_raises_through_a_generic_parent_and_client_level(srv):
    srv.script("/p", (500, JSON, PROBLEM))
    with SyncHTTPClient(base_url=srv.url, raises=Pinned) as client:  # client-level: no per-call option needed
        with pytest.raises(Pinned) as info:
            client.get("/p")
    assert info.value.error == Problem(42, "no such thing")


def test_body_that_does_not_match_keeps_parse_error(srv):
    srv.script("/p", (502, JSON, b'{"unexpected": true}'), )
    with SyncHTTPClient(base_url=srv.url, error_type=Problem) as client:
        with pytest.raises(HTTPResponseError) as info:
            client.get("/p")
    e = info.value
    assert isinstance(e.parse_error, ValueError) and e.error == {"unexpected": True}
    srv.script("/p", (502, [("Content-Type", "text/html")], b"<html>bad gateway</html>"))
    with SyncHTTPClient(base_url=srv.url, error_type=Problem) as client:
        with pytest.raises(HTTPResponseError) as info:
            client.get("/p")
    assert isinstance(info.value.parse_error, ValueError) and info.value.error is None


def test_without_error_type_the_body_is_a_json_object_or_none(srv):
    srv.script("/p", (400, JSON, b'{"x": [1]}'))
    with SyncHTTPClient(base_url=srv.url) as client:
        with pytest.raises(HTTPResponseError) as info:
            client.get("/p")
        assert info.value.error == {"x": [1]} and info.value.parse_error is None
        srv.script("/p", (400, JSON, b"[1, 2]"))
        with pytest.raises(HTTPResponseError) as info:
            client.get("/p")
        assert info.value.error is None


def test_bad_arguments_are_type_errors_before_sending(srv):
    srv.reset()
    with SyncHTTPClient(base_url=srv.url) as client:
        with pytest.raises(TypeError, match="into"):
            client.get("/p", into=dict, response_data_type=list)
        with pytest.raises(TypeError, match="raises"):
            client.get("/p", raises=ValueError)
        with pytest.raises(TypeError, match="not both"):
            client.get("/p", raises=APIError, error_type=Problem)
        with pytest.raises(TypeError, match="unbound"):
            client.get("/p", raises=Generic404)
    with pytest.raises(TypeError):
        SyncHTTPClient(raises=int)
    assert srv.hits("/p") == []


def test_into_is_response_data_type(srv):
    srv.script("/p", (200, JSON, PROBLEM))
    with SyncHTTPClient(base_url=srv.url) as client:
        assert client.get("/p", into=Problem).data == Problem(42, "no such thing")


def test_error_subscript_constructor_shapes_and_pickle():
    assert HTTPResponseError[Problem] is not None  # subscriptable for annotations
    req = RequestInfo("GET", "http://h:1/a?b=1")
    assert (req.path, req.host) == ("/a", "h")
    e = HTTPResponseError(404, b"x" * 150, req, {"k": 1}, headers={"Retry-After": "3"})
    assert e.body_start == b"x" * 100 and e.error == {"k": 1} and e.request is req and e.headers["retry-after"] == "3"
    assert str(e).endswith("…")
    old = HTTPResponseError(418, {"a": "b"}, b"teapot", method="GET", url="http://h/")  # the earlier shape
    assert (old.status, old.body, old.headers["a"], old.method, old.url) == (418, b"teapot", "b", "GET", "http://h/")
    e2 = pickle.loads(pickle.dumps(APIError(400, b"{}", req, Problem(1, "d"))))
    assert type(e2) is APIError and e2.error == Problem(1, "d") and e2.request == req
