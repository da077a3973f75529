"""tests/http/test_client_struct_bodies.py: typed objects as request parts with both clients: params=, data=,
headers= and json= given a boltwire Struct, a msgspec Struct, a dataclass, an attrs class, a pydantic model or a
TypedDict; encoded names (rename / alias) are what goes on the wire."""

from __future__ import annotations

import dataclasses
import datetime
from typing import TypedDict
from urllib.parse import parse_qsl

import attrs
import msgspec
import pydantic
import pytest
from _both_clients import both
from _both_clients import request as send

from boltwire import Struct


@pytest.fixture
def srv(scripted):
    return scripted


class Query(Struct, rename="camel"):
    page_size: int
    tags: list[str] = []
    active: bool = True
    since: datetime.date | None = None


@dataclasses.dataclass
class Form:
    name: str
    count: int


@attrs.define
class AttrsForm:
    x: int
    y: str


class MsgQuery(msgspec.Struct):
    q: str
    n: int = 1


class Model(pydantic.BaseModel):
    trace_id: str = pydantic.Field(alias="X-Trace-Id")
    retries: int


class Payload(TypedDict):
    a: int
    b: list[str]


class HeaderStruct(Struct):
    x_request_id: str
    x_count: int
    x_missing: str | None = None


@both
def test_params_from_a_struct(srv, is_async):
    send(is_async, "GET", f"{srv.url}/p", params=Query(20, ["a", "b"], since=datetime.date(2024, 5, 6)))
    (hit,) = srv.hits("/p")
    assert parse_qsl(hit.path.split("?", 1)[1], keep_blank_values=True) == [
        ("pageSize", "20"), ("tags", "a"), ("tags", "b"), ("active", "true"), ("since", "2024-05-06")]


@both
def test_params_from_a_msgspec_struct(srv, is_async):
    send(is_async, "GET", f"{srv.url}/m", params=MsgQuery("hi there"))
    assert srv.hits("/m")[0].path == "/m?q=hi+there&n=1"


@both
@pytest.mark.parametrize("data, expected", [
    (Form("a b", 3), b"name=a+b&count=3"),
    (AttrsForm(1, "z"), b"x=1&y=z"),
])
def test_form_data_from_dataclass_and_attrs(srv, is_async, data, expected):
    send(is_async, "POST", f"{srv.url}/f", data=data)
    (hit,) = srv.hits("/f")
    assert hit.body == expected and hit.headers["content-type"] == "application/x-www-form-urlencoded"


@both
def test_headers_from_a_struct_and_a_pydantic_model(srv, is_async):
    send(is_async, "GET", f"{srv.url}/h", headers=HeaderStruct("abc", 7))
    send(is_async, "GET", f"{srv.url}/h2", headers=Model(**{"X-Trace-Id": "t1", "retries": 2}))
    h = srv.hits("/h")[0].headers
    assert h["x_request_id"] == "abc" and h["x_count"] == "7" and "x_missing" not in h
    h2 = srv.hits("/h2")[0].headers
    assert h2["x-trace-id"] == "t1" and h2["retries"] == "2"


@both
def test_json_from_typed_objects(srv, is_async):
    send(is_async, "POST", f"{srv.url}/j1", json=Payload(a=1, b=["x"]))
    send(is_async, "POST", f"{srv.url}/j2", json=Form("n", 2))
    send(is_async, "POST", f"{srv.url}/j3", json=Query(5))
    bodies = [srv.hits(p)[0].body for p in ("/j1", "/j2", "/j3")]
    assert bodies == [b'{"a":1,"b":["x"]}', b'{"name":"n","count":2}',
                      b'{"pageSize":5,"tags":[],"active":true,"since":null}']


@both
def test_other_objects_are_type_errors(srv, is_async):
    with pytest.raises(TypeError):
        send(is_async, "GET", f"{srv.url}/x", params=42)
    with pytest.raises((TypeError, ValueError)):
        send(is_async, "GET", f"{srv.url}/x", headers=object())
    assert srv.requests == []


@both
def test_bytes_in_params_and_data_are_percent_encoded_not_their_repr(srv, is_async):
    # urlencode's rule (requests' too): bytes go out percent-encoded as they are; str(b"...") put "b'...'" on the wire.
    send(is_async, "GET", f"{srv.url}/q", params={"sig": b"a b\xff", b"k": ["v", b"w"]})
    send(is_async, "POST", f"{srv.url}/f", data=[("t", bytearray(b"x&y"))])
    assert srv.hits("/q")[0].path == "/q?sig=a+b%FF&k=v&k=w"
    assert srv.hits("/f")[0].body == b"t=x%26y"


@both
def test_a_string_for_params_data_or_headers_is_a_type_error_naming_it(srv, is_async):
    # A str is iterable, so it was read as pairs: "ValueError: not enough values to unpack", naming nothing.
    for option in ("params", "data", "headers"):
        method = "POST" if option == "data" else "GET"
        with pytest.raises(TypeError, match=option):
            send(is_async, method, f"{srv.url}/x", **{option: "a=1"})
    assert srv.requests == []


class Login(Struct, rename="camel"):
    user_name: str
    remember_me: bool = False


class PydForm(pydantic.BaseModel):
    user: str = pydantic.Field(alias="userName")
    n: int


@both
def test_data_from_a_struct_and_a_pydantic_model(srv, is_async):
    # The README's `data=Login(...)`: a Struct as the form, by its encoded names; a pydantic model by alias.
    send(is_async, "POST", f"{srv.url}/s", data=Login("a b"))
    send(is_async, "POST", f"{srv.url}/p", data=PydForm(userName="c", n=2))
    assert srv.hits("/s")[0].body == b"userName=a+b&rememberMe=false"
    assert srv.hits("/p")[0].body == b"userName=c&n=2"
    assert {h.headers["content-type"] for h in srv.requests} == {"application/x-www-form-urlencoded"}


@both
def test_params_from_a_dataclass_and_a_pydantic_model(srv, is_async):
    send(is_async, "GET", f"{srv.url}/d", params=Form("x y", 4))
    send(is_async, "GET", f"{srv.url}/m", params=PydForm(userName="u", n=1))
    assert srv.hits("/d")[0].path == "/d?name=x+y&count=4"
    assert srv.hits("/m")[0].path == "/m?userName=u&n=1"
