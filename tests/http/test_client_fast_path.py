"""The verbs' native path (csrc/http/client/fast_path.cpp) against the general path (_call / _send).

A plain request (no params, headers or body; no per-call policy options) is submitted natively from the route and
decoder caches; these tests check that it gives what the general path gives, for both clients, and that the
status-error options keep their meaning on it."""

from __future__ import annotations

import asyncio

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient, Struct, SyncHTTPClient
from boltwire.http import HTTPResponseError


class Doc(Struct):
    status: str


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def same_response(native, general) -> None:
    assert native.status == general.status
    assert native.data == general.data
    assert native.url == general.url
    assert native.http_version == general.http_version
    assert native.request.method == general.request.method
    assert dict(native.request.headers) == dict(general.request.headers)


def test_sync_native_and_general_paths_agree(server):
    with SyncHTTPClient(base_url=server.url) as client:
        for method in ("get", "delete", "post", "put", "patch", "options"):
            native = getattr(client, method)("/echo")
            general = getattr(client, method)("/echo", headers={})  # headers given: the general path
            same_response(native, general)
        assert client.get("/json", response_data_type=Doc).data == client.get("/json", headers={},
                                                                                response_data_type=Doc).data


def test_async_native_and_general_paths_agree(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            for method in ("get", "delete", "post", "put", "patch", "options"):
                native = await getattr(client, method)("/echo")
                general = await getattr(client, method)("/echo", headers={})
                same_response(native, general)
            typed = await client.get("/json", response_data_type=Doc, timeout=5)
            assert typed.data == Doc(status="success")

    asyncio.run(main())


def test_status_errors_on_the_native_path(server):
    with SyncHTTPClient(base_url=server.url) as client:  # default: raise for 4xx/5xx
        with pytest.raises(HTTPResponseError):
            client.get("/status/404")
        assert client.get("/status/404", error_for_status=False).status == 404
    with SyncHTTPClient(base_url=server.url, error_for_status=False) as client:
        assert client.get("/status/500").status == 500
        with pytest.raises(HTTPResponseError):
            client.get("/status/500", error_for_status=True)

    async def main():
        async with HTTPClient(base_url=server.url, error_for_status=False) as client:
            assert (await client.get("/status/503")).status == 503
            with pytest.raises(HTTPResponseError):
                await client.get("/status/503", error_for_status=True)

    asyncio.run(main())


def test_closed_client_is_refused_on_both_paths(server):
    client = SyncHTTPClient(base_url=server.url)
    with pytest.raises(RuntimeError, match="not open"):
        client.get("/json")
    with client:
        assert client.get("/json").status == 200
    with pytest.raises(RuntimeError, match="not open"):
        client.get("/json")
