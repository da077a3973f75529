"""tests/http/test_client_response_parity.py: Response as lothc has it: elapsed seconds, request info, mutable
header copies, HEAD data None, hand-built responses, typed headers, msgspec Structs inside containers."""

from __future__ import annotations

import asyncio
from typing import Optional, TypedDict

import msgspec
import pytest
from _script_server import ScriptServer

from boltwire import Struct
from boltwire.http import CaseInsensitiveDict, HTTPClient, RequestInfo, Response, SyncHTTPClient

JSON = [("Content-Type", "application/json")]


@pytest.fixture(scope="module")
def srv():
    s = ScriptServer()
    yield s
    s.close()


class RateHeaders(Struct):
    x_rate_limit: int
    content_type: str
    retry_after: Optional[float] = None


class RateDict(TypedDict):
    x_rate_limit: int
    etag: str


class MItem(msgspec.Struct):
    a: int


def test_response_fields(srv):
    srv.script("/r", (200, JSON + [("Set-Cookie", "a=1"), ("set-cookie", "b=2")], b'{"ok":1}'))
    with SyncHTTPClient(base_url=srv.url) as client:
        r = client.get("/r", params={"q": "1"}, headers={"X-Trace": "t"})
    assert isinstance(r.elapsed, float) and 0 <= r.elapsed < 5
    assert (r.request.method, r.request.path, r.request.host) == ("GET", "/r", "127.0.0.1")
    assert r.request.url == srv.url + "/r?q=1" and r.request.headers["x-trace"] == "t"
    assert r.headers.get_all("SET-COOKIE") == ["a=1", "b=2"]
    copy = r.headers.copy()
    assert isinstance(copy, CaseInsensitiveDict)
    copy["Set-Cookie"] = "c=3"
    del copy["content-type"]
    assert copy.get_all("set-cookie") == ["c=3"] and "content-type" not in copy
    assert r.headers.get_all("set-cookie") == ["a=1", "b=2"] and "content-type" in r.headers  # untouched


def test_head_data_is_none_both_clients(srv):
    srv.script("/h", (200, JSON, b'{"ok":1}'))
    with SyncHTTPClient(base_url=srv.url) as client:
        assert client.head("/h", response_data_type=dict).data is None

    async def main():
        async with HTTPClient(base_url=srv.url) as client:
            return await client.head("/h")

    assert asyncio.run(main()).data is None


def test_hand_built_response():
    req = RequestInfo("POST", "http://api/x")
    r = Response(201, {"id": 1}, headers={"Location": "/x/1"}, url="http://api/x", method="POST", elapsed=0.25,
                 request=req, typed_headers={"location": "/x/1"})
    assert (r.status, r.data, r.headers["location"], r.elapsed, r.request, r.typed_headers) == (
        201, {"id": 1}, "/x/1", 0.25, req, {"location": "/x/1"})
    plain = Response(204)
    assert plain.data is None and plain.typed_headers is None and plain.request.method == "GET"


def test_typed_headers_struct_and_typeddict(srv):
    srv.script("/t", (200, JSON + [("X-Rate-Limit", "7"), ("ETag", '"v1"'), ("Retry-After", "1.5")], b"{}"))
    with SyncHTTPClient(base_url=srv.url) as client:
        r = client.get("/t", response_headers_type=RateHeaders)
        assert r.typed_headers == RateHeaders(7, "application/json", 1.5)
        assert client.get("/t", response_headers_type=RateDict).typed_headers == {"x_rate_limit": 7, "etag": '"v1"'}
        assert client.get("/t").typed_headers is None

    async def main():
        async with HTTPClient(base_url=srv.url) as client:
            return await client.get("/t", response_headers_type=RateHeaders)

    assert asyncio.run(main()).typed_headers.x_rate_limit == 7


@pytest.mark.parametrize(
    "tp, body, expected",
    [
        (list[MItem], b'[{"a": 1}, {"a": 2}]', [MItem(1), MItem(2)]),
        (Optional[MItem], b'{"a": 3}', MItem(3)),
        (Optional[MItem], b"null", None),
        (dict[str, MItem], b'{"k": {"a": 4}}', {"k": MItem(4)}),
    ],
)
def test_msgspec_struct_inside_a_container(srv, tp, body, expected):
    srv.script("/m", (200, JSON, body))
    with SyncHTTPClient(base_url=srv.url) as client:
        assert client.get("/m", response_data_type=tp).data == expected
