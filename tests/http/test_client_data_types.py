"""Every response_data_type: bytes, str, dict, list, Any, msgspec Struct and Decoder, pydantic model and TypeAdapter,
boltwire Struct (through boltwire.json's typed decoder when present); and json= bodies of each kind."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgspec
import pydantic
import pytest

import boltwire
from _local_server import PAYLOAD, LocalServer
from boltwire import HTTPClient, SyncHTTPClient

DOC = json.loads(PAYLOAD)


class Pagination(msgspec.Struct):
    page: int
    limit: int
    total: int
    has_more: bool


class MsgDoc(msgspec.Struct):
    status: str
    pagination: Pagination


class PydPagination(pydantic.BaseModel):
    page: int
    total: int


class PydDoc(pydantic.BaseModel):
    status: str
    pagination: PydPagination


class BwPoint(boltwire.Struct):
    x: int
    y: int


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


@pytest.fixture(scope="module")
def client(server):
    with SyncHTTPClient(base_url=server.url) as c:
        yield c


def test_bytes_default(client):
    assert client.get("/json").data == PAYLOAD
    assert client.get("/json", response_data_type=bytes).data == PAYLOAD


def test_str(client):
    assert client.get("/text", response_data_type=str).data == "héllo"


def test_dict_list_any(client):
    assert client.get("/json", response_data_type=dict).data == DOC
    assert client.get("/multi", response_data_type=list).data == [1, 2, 3]
    assert client.get("/json", response_data_type=Any).data == DOC
    with pytest.raises(boltwire.ValidationError):
        client.get("/multi", response_data_type=dict)
    with pytest.raises(boltwire.DecodeError):
        client.get("/text", response_data_type=dict)


def test_msgspec_struct_and_decoder(client):
    r = client.get("/json", response_data_type=MsgDoc)
    assert r.data == MsgDoc(status="success", pagination=Pagination(1, 2, 42, True))
    dec = msgspec.json.Decoder(MsgDoc)
    assert client.get("/json", response_data_type=dec).data == r.data


def test_pydantic_model_and_type_adapter(client):
    r = client.get("/json", response_data_type=PydDoc)
    assert r.data == PydDoc(status="success", pagination=PydPagination(page=1, total=42))
    ta = pydantic.TypeAdapter(dict[str, Any])
    assert client.get("/json", response_data_type=ta).data == DOC
    with pytest.raises(pydantic.ValidationError):
        client.get("/multi", response_data_type=PydDoc)


def test_decoder_resolved_once_per_type(client):
    client.get("/json", response_data_type=MsgDoc)
    first = client._decoders[MsgDoc]
    client.get("/json", response_data_type=MsgDoc)
    assert client._decoders[MsgDoc] is first


def test_boltwire_struct(client):
    assert client.get("/point", response_data_type=BwPoint).data == BwPoint(x=1, y=2)
    assert client.get("/points", response_data_type=list[BwPoint]).data == [BwPoint(x=1, y=2), BwPoint(x=3, y=4)]


def test_unsupported_type_is_type_error(client):
    with pytest.raises(TypeError, match="not supported"):
        client.get("/json", response_data_type=42)


def test_boltwire_struct_validation_error_names_the_path(client):
    class Wrong(boltwire.Struct):
        x: str

    with pytest.raises(boltwire.ValidationError, match=r"Expected `str`, got `int` - at `\$.x`"):
        client.get("/point", response_data_type=Wrong)


def test_json_bodies_of_each_kind(client):
    def sent(obj):
        return json.loads(client.post("/echo", json=obj, response_data_type=dict).data["body"])

    assert sent({"a": [1, None, True]}) == {"a": [1, None, True]}
    assert sent([1, "x"]) == [1, "x"]
    assert sent(BwPoint(x=1, y=2)) == {"x": 1, "y": 2}
    assert sent(Pagination(1, 2, 3, False)) == {"page": 1, "limit": 2, "total": 3, "has_more": False}
    assert sent(PydPagination(page=3, total=4)) == {"page": 3, "total": 4}


def test_async_data_types(server):
    async def main():
        async with HTTPClient(base_url=server.url) as c:
            a = (await c.get("/json", response_data_type=MsgDoc)).data
            b = (await c.get("/json", response_data_type=PydDoc)).data
            d = (await c.get("/json", response_data_type=dict)).data
            s = (await c.get("/text", response_data_type=str)).data
            return a, b, d, s

    a, b, d, s = asyncio.run(main())
    assert a.pagination.total == 42 and b.pagination.total == 42 and d == DOC and s == "héllo"


def test_boltwire_types_decode_from_the_transport_buffer(client):
    # The client hands Decoder.decode the body in place (a read-only buffer), never a bytes copy.
    r = client.get("/point", response_data_type=BwPoint)
    assert r.data == BwPoint(x=1, y=2)
    decode = client._decoders[BwPoint]
    assert decode(memoryview(b'{"x":3,"y":4}')) == BwPoint(x=3, y=4)
