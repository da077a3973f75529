"""tests/http/test_mocker.py: boltwire.testing's boltwire_mocker fixture (lothc_mocker's API), for both clients,
with no socket opened: the tests use http://api.test, which does not resolve, so a request that reached the
network would fail with HTTPConnectionError."""

from __future__ import annotations

import asyncio
import re

import pytest

from boltwire import Struct
from boltwire.http import HTTPClient, HTTPResponseError, SyncHTTPClient
from boltwire.testing import MockResponse


class User(Struct):
    id: int
    name: str


class Problem(Struct):
    code: int


def test_sync_canned_responses_and_typed_decoding(boltwire_mocker):
    users = boltwire_mocker.add_get_response(path="/users/1", data={"id": 1, "name": "ann"},
                                             headers={"X-Req": "r1"})
    boltwire_mocker.add_post_response(path="/users", status=201, data={"id": 2, "name": "bob"})
    with SyncHTTPClient(base_url="http://api.test") as client:
        r = client.get("/users/1", response_data_type=User)
        assert r.data == User(1, "ann") and r.headers["x-req"] == "r1" and r.status == 200
        assert client.post("/users", json={"name": "bob"}, into=User).data == User(2, "bob")
        assert client.get("/users/1").data == b'{"id":1,"name":"ann"}'
    users.assert_called(count=2)
    assert boltwire_mocker.get_call_count() == 3
    assert [r.method for r in boltwire_mocker.get_requests()] == ["GET", "POST", "GET"]
    assert boltwire_mocker.get_requests()[1].json() == {"name": "bob"}


def test_async_matchers_and_status_errors(boltwire_mocker):
    boltwire_mocker.mock("GET", path=re.compile(r"^/items/\d+$")).match_query({"v": "2"}).match_header(
        "Authorization", "Bearer t").with_status(404).with_data({"code": 7})
    m = boltwire_mocker.mock("POST", url="http://api.test/items").match_body_json({"a": 1}).with_status(202)

    async def main():
        async with HTTPClient(base_url="http://api.test", bearer_token="t") as client:
            with pytest.raises(HTTPResponseError) as info:
                await client.get("/items/5", params={"v": 2}, error_type=Problem)
            r = await client.post("/items", json={"a": 1})
            return info.value, r

    e, r = asyncio.run(main())
    assert e.status == 404 and e.error == Problem(7) and e.request.path == "/items/5"
    assert r.status == 202 and r.data == b""
    m.assert_called(count=1, min_count=1, max_count=1)
    with pytest.raises(AssertionError):
        m.assert_called(count=2)


def test_unmatched_request_names_the_closest_mock(boltwire_mocker):
    boltwire_mocker.mock("GET", path="/other").with_data(b"x")
    boltwire_mocker.mock("GET", path="/a").match_header("X-Key", "k1").with_data(b"y")
    with SyncHTTPClient(base_url="http://api.test") as client:
        with pytest.raises(AssertionError, match=r"closest: <BoltwireMock GET path='/a'> \(header X-Key: None"):
            client.get("/a")


def test_custom_matcher_and_handler_sync_and_async(boltwire_mocker):
    boltwire_mocker.mock("GET", path="/h").match_request(lambda r: r.query.get("q") == "1").with_data("one")

    def handler(r):
        return None if r.query.get("q") != "2" else MockResponse({"q": r.query["q"]}, {"X-H": "h"}, 203)

    boltwire_mocker.mock(path="/h").match_request_with_response(handler)
    with SyncHTTPClient(base_url="http://api.test") as client:
        assert client.get("/h", params={"q": 1}, into=str).data == "one"
        r = client.get("/h", params={"q": 2}, response_data_type=dict)
        assert (r.status, r.data, r.headers["x-h"]) == (203, {"q": "2"}, "h")

    async def async_handler(r):
        await asyncio.sleep(0)
        return MockResponse(b"async", status=200)

    boltwire_mocker.clear()
    boltwire_mocker.mock("GET", path="/a").match_request_with_response(async_handler)

    async def main():
        async with HTTPClient(base_url="http://api.test") as client:
            return await client.get("/a")

    assert asyncio.run(main()).data == b"async" and boltwire_mocker.get_call_count() == 1


def test_query_params_head_and_policy_paths(boltwire_mocker):
    boltwire_mocker.add_get_response(path="/q", params={"tag": ["a", "b"], "on": True}, data=b"ok")
    boltwire_mocker.add_head_response(path="/q", headers={"Content-Length": "5"})
    flaky = boltwire_mocker.mock("GET", path="/flaky").with_status(503)
    with SyncHTTPClient(base_url="http://api.test", max_retries=2) as client:
        client._policy.retry.sleep = lambda d: None
        assert client.get("/q", params={"tag": ["a", "b"], "on": True}).data == b"ok"
        assert client.head("/q").data is None
        with pytest.raises(HTTPResponseError) as info:
            client.get("/flaky")
    assert info.value.attempts == 3
    flaky.assert_called(count=3)


@pytest.mark.boltwire_mocker(strict=False)
def test_not_strict_passes_through_to_the_network(boltwire_mocker):
    import http.server
    import threading

    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", "4")
            self.end_headers()
            self.wfile.write(b"real")

        def log_message(self, *a):
            pass

    srv = http.server.HTTPServer(("127.0.0.1", 0), H)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        boltwire_mocker.add_get_response(path="/mocked", data=b"mock")
        url = f"http://127.0.0.1:{srv.server_address[1]}"
        with SyncHTTPClient(base_url=url) as client:
            assert client.get("/mocked").data == b"mock"
            assert client.get("/real").data == b"real"
    finally:
        srv.shutdown()
        srv.server_close()


def test_clients_after_the_fixture_are_real(boltwire_mocker):
    from boltwire.http import _client

    assert type(_client._Transport).__name__ == "function"  # installed for this test
    boltwire_mocker.uninstall()
    assert _client._Transport is __import__("boltwire")._core._HttpTransport


# ---- redirects: the mocks answer every hop, as a server would ---------------------------------------------------


def test_mocked_redirects_are_followed_like_real_ones(boltwire_mocker):
    boltwire_mocker.add_get_response(path="/old", status=302, headers={"Location": "/middle"}, data=b"moved")
    boltwire_mocker.add_get_response(path="/middle", status=301, headers={"Location": "http://api.test/users/1"})
    boltwire_mocker.add_get_response(path="/users/1", data={"id": 1, "name": "ann"})
    boltwire_mocker.add_post_response(path="/form", status=303, headers={"Location": "/done"})
    boltwire_mocker.add_get_response(path="/done", data={"id": 2, "name": "bob"})

    def check(r, url):
        assert r.status == 200 and r.data == User(1, "ann") and r.url == url
        assert [(h.status, h.url) for h in r.history] == [(302, "http://api.test/old"),
                                                         (301, "http://api.test/middle")]

    with SyncHTTPClient(base_url="http://api.test") as client:
        check(client.get("/old", response_data_type=User), "http://api.test/users/1")
        r = client.post("/form", json={"x": 1}, response_data_type=User)
        assert r.data == User(2, "bob") and [h.status for h in r.history] == [303]

    async def main():
        async with HTTPClient(base_url="http://api.test") as client:
            check(await client.get("/old", response_data_type=User), "http://api.test/users/1")

    asyncio.run(main())
    methods = [(r.method, r.url) for r in boltwire_mocker.get_requests()]
    assert methods[:5] == [("GET", "http://api.test/old"), ("GET", "http://api.test/middle"),
                           ("GET", "http://api.test/users/1"), ("POST", "http://api.test/form"),
                           ("GET", "http://api.test/done")]


def test_mocked_redirects_come_back_when_not_following(boltwire_mocker):
    boltwire_mocker.add_get_response(path="/old", status=302, headers={"Location": "/new"})
    with SyncHTTPClient(base_url="http://api.test", follow_redirects=False) as client:
        r = client.get("/old")
    assert r.status == 302 and r.headers["location"] == "/new" and r.history == []


def test_a_mocked_redirect_loop_raises(boltwire_mocker):
    from boltwire.http import HTTPRedirectError

    boltwire_mocker.add_get_response(path="/ping", status=302, headers={"Location": "/pong"})
    boltwire_mocker.add_get_response(path="/pong", status=302, headers={"Location": "/ping"})

    async def main():
        async with HTTPClient(base_url="http://api.test") as client:
            await client.get("/ping")

    with pytest.raises(HTTPRedirectError, match="loop"):
        asyncio.run(main())
