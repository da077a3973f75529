"""HTTPClient / SyncHTTPClient: verbs, bodies, params, headers, Response fields, keep-alive reuse."""

from __future__ import annotations

import asyncio
import datetime
import json

import pytest

from _local_server import PAYLOAD, LocalServer
from boltwire import HTTPClient, HTTPResponseError, Response, SyncHTTPClient


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 20))


def test_sync_get_bytes_and_response_fields(server):
    with SyncHTTPClient() as client:
        r = client.get(server.url + "/json")
        assert isinstance(r, Response)
        assert r.status == 200
        assert r.data == PAYLOAD
        assert r.http_version == "HTTP/1.1"
        assert r.url == server.url + "/json"
        assert isinstance(r.elapsed, float) and 0 <= r.elapsed < 5  # seconds, as lothc gives it
        assert r.elapsed_timedelta == datetime.timedelta(seconds=r.elapsed)
        assert r.request.method == "GET" and r.request.url == r.url
        assert r.request.path == "/json" and r.request.host == "127.0.0.1"
        assert r.request.headers["user-agent"].startswith("boltwire/")
        assert r.headers["content-length"] == "523"
        assert r.headers["Content-Type"] == "application/json"
        assert "CONTENT-TYPE" in r.headers


def test_async_get_dict(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            r = await client.get("/json", response_data_type=dict)
            return r

    r = run(main())
    assert r.status == 200
    assert r.data == json.loads(PAYLOAD)


def test_repeated_headers_get_all(server):
    with SyncHTTPClient(base_url=server.url) as client:
        r = client.get("/multi")
    assert r.headers.get_all("set-cookie") == ["a=1", "b=2"]
    assert r.headers["SET-COOKIE"] == "a=1"
    assert r.headers.get_all("missing") == []
    assert r.headers.get("x-one") == "1"


def test_chunked_body(server):
    with SyncHTTPClient(base_url=server.url) as client:
        assert client.get("/chunked").data == b"hello, world"

    async def main():
        async with HTTPClient(base_url=server.url) as client:
            return (await client.get("/chunked")).data

    assert run(main()) == b"hello, world"


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_post_json_params_headers(server, mode):
    kwargs = dict(params={"a": "1", "b": ["x", "y z"]}, headers={"X-Test": "yes"}, json={"k": [1, 2]},
                  response_data_type=dict)
    if mode == "sync":
        with SyncHTTPClient(base_url=server.url) as client:
            doc = client.post("/echo", **kwargs).data
    else:
        async def main():
            async with HTTPClient(base_url=server.url) as client:
                return (await client.post("/echo", **kwargs)).data

        doc = run(main())
    assert doc["method"] == "POST"
    assert doc["target"] == "/echo?a=1&b=x&b=y+z"
    headers = {k.lower(): v for k, v in doc["headers"]}
    assert headers["x-test"] == "yes"
    assert headers["content-type"] == "application/json"
    assert headers["host"] == f"127.0.0.1:{server.port}"
    assert json.loads(doc["body"]) == {"k": [1, 2]}


def test_every_verb_and_body_kind(server):
    with SyncHTTPClient(base_url=server.url) as client:
        for verb in ("get", "post", "put", "patch", "delete", "options"):
            doc = getattr(client, verb)("/echo", response_data_type=dict).data
            assert doc["method"] == verb.upper()
        assert client.put("/echo", content=b"raw\x00bytes", response_data_type=dict).data["body"] == "raw\x00bytes"
        doc = client.patch("/echo", content="text é", response_data_type=dict).data
        assert doc["body"].encode("latin-1").decode("utf-8") == "text é"
        doc = client.post("/echo", data={"x": "1 2", "y": ["a", "b"]}, response_data_type=dict).data
        assert doc["body"] == "x=1+2&y=a&y=b"
        assert dict((k.lower(), v) for k, v in doc["headers"])["content-type"] == "application/x-www-form-urlencoded"
        doc = client.request("DELETE", "/echo", json=[1], response_data_type=dict).data
        assert doc["method"] == "DELETE" and doc["body"] == "[1]"
        r = client.head("/head-only")
        assert r.status == 200 and r.data is None and r.headers["content-length"] == "100"
        with pytest.raises(TypeError):
            client.post("/echo", json={}, content=b"")


def test_default_headers_user_agent_auth(server):
    with SyncHTTPClient(base_url=server.url, user_agent="ua/1", default_headers={"X-Default": "d"},
                        bearer_token="tok") as client:
        doc = client.get("/echo", response_data_type=dict).data
        headers = {k.lower(): v for k, v in doc["headers"]}
        assert headers["user-agent"] == "ua/1"
        assert headers["x-default"] == "d"
        assert headers["authorization"] == "Bearer tok"
        doc = client.get("/echo", headers={"user-agent": "override"}, response_data_type=dict).data
        names = [k.lower() for k, _ in doc["headers"]]
        assert names.count("user-agent") == 1
        assert dict((k.lower(), v) for k, v in doc["headers"])["user-agent"] == "override"
    with SyncHTTPClient(base_url=server.url, basic_auth=("u", "p")) as client:
        doc = client.get("/echo", response_data_type=dict).data
        assert dict((k.lower(), v) for k, v in doc["headers"])["authorization"] == "Basic dTpw"


@pytest.mark.parametrize("bad", ["a\r\nInjected: 1", "a\nb", "a\x00b", "a\rb"])
def test_header_values_with_crlf_nul_rejected(server, bad):
    with SyncHTTPClient(base_url=server.url) as client:
        server.reset_counters()
        with pytest.raises(ValueError):
            client.get("/echo", headers={"X-Bad": bad})
        with pytest.raises(ValueError):
            client.get("/echo", headers={"X-Bad\r\n": "v"})
        assert server.requests == 0
    with pytest.raises(ValueError):
        SyncHTTPClient(default_headers={"X": bad})


def test_keep_alive_reuse_sync_and_async(server):
    server.reset_counters()
    with SyncHTTPClient(base_url=server.url) as client:
        for _ in range(20):
            assert client.get("/json").status == 200
        assert client._stats() == (1, 1)
    assert server.connections == 1

    server.reset_counters()

    async def main():
        async with HTTPClient(base_url=server.url) as client:
            for _ in range(20):
                assert (await client.get("/json")).status == 200
            return client._stats()

    assert run(main()) == (1, 1)
    assert server.connections == 1


def test_client_lifecycle(server):
    client = SyncHTTPClient(base_url=server.url)
    with pytest.raises(RuntimeError):
        client.get("/json")
    with client:
        assert client.get("/json").status == 200
    with pytest.raises(RuntimeError):
        client.get("/json")
    with client:  # a closed client can be entered again
        assert client.get("/json").status == 200

    async def main():
        c = HTTPClient(base_url=server.url)
        with pytest.raises(RuntimeError):
            await c.get("/json")
        async with c:
            assert (await c.get("/json")).status == 200
        async with c:
            assert (await c.get("/json")).status == 200

    run(main())


@pytest.mark.parametrize("url", ["http://h/?q=1", "http://h/#frag", "http://h/?"])
def test_base_url_with_query_or_fragment_rejected(url):
    with pytest.raises(ValueError):
        HTTPClient(base_url=url)


def test_resolve_override(server):
    with SyncHTTPClient(resolve={"my-service.invalid": "127.0.0.1"}) as client:
        doc = client.get(f"http://my-service.invalid:{server.port}/echo", response_data_type=dict).data
    assert dict((k.lower(), v) for k, v in doc["headers"])["host"] == f"my-service.invalid:{server.port}"


def test_localhost_name_resolves(server):
    with SyncHTTPClient() as client:
        assert client.get(f"http://localhost:{server.port}/json").data == PAYLOAD


def test_error_for_status_default_and_off(server):
    with SyncHTTPClient(base_url=server.url) as client:
        with pytest.raises(HTTPResponseError) as info:
            client.get("/status/404")
        assert info.value.status == 404
        r = client.get("/status/503", error_for_status=False)
        assert r.status == 503
    with SyncHTTPClient(base_url=server.url, error_for_status=False) as client:
        assert client.get("/status/500").status == 500
        with pytest.raises(HTTPResponseError):
            client.get("/status/500", error_for_status=True)


def _has_ipv6_loopback() -> bool:
    import socket

    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback on this machine")
def test_ipv6_loopback():
    with LocalServer("::1") as v6:
        with SyncHTTPClient() as client:
            r = client.get(v6.url + "/echo", response_data_type=dict)
            assert r.status == 200
            assert dict((k.lower(), v) for k, v in r.data["headers"])["host"] == f"[::1]:{v6.port}"

        async def main():
            async with HTTPClient(base_url=v6.url) as client:
                return (await client.get("/json")).data

        assert run(main()) == PAYLOAD


def test_relative_urls_join_base_path(server):
    with SyncHTTPClient(base_url=server.url + "/base/") as client:
        assert client.get("echo", response_data_type=dict).data["target"] == "/base/echo"
        assert client.get("/echo?x=http://a/b", response_data_type=dict).data["target"] == "/base/echo?x=http://a/b"
        assert client.get("/echo#frag", response_data_type=dict).data["target"] == "/base/echo"
        assert client.get("/sp ace/é", error_for_status=False).url == server.url + "/base/sp%20ace/%C3%A9"
