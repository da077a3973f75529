"""tests/http/test_lothc_compat.py: code written for lothc 0.2 runs unchanged with boltwire.http imported under
lothc's name (into=, raises=, HTTPResponseError[E], e.request, r.elapsed, the mocker API), against a real server
and against the mocker."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from _script_server import ScriptServer

import boltwire.http as lothc  # the one line a user changes

JSON = [("Content-Type", "application/json")]


class NotFound(msgspec.Struct):
    detail: str


class User(msgspec.Struct):
    id: int
    name: str


class APIError(lothc.HTTPResponseError[NotFound]):
    pass


@pytest.fixture()
def lothc_mocker(boltwire_mocker):
    return boltwire_mocker


@pytest.fixture(scope="module")
def srv():
    s = ScriptServer()
    yield s
    s.close()


# ---- lothc-style code, as written for lothc 0.2 ----

async def fetch_user(base_url: str, user_id: int) -> tuple[User | None, float, str]:
    async with lothc.HTTPClient(base_url=base_url, raises=APIError, max_retries=2, backoff_base=0.0) as client:
        try:
            r = await client.get(f"/users/{user_id}", into=User)
        except APIError as e:
            assert isinstance(e.error, NotFound)
            return None, 0.0, e.request.path
        return r.data, r.elapsed, r.request.path


def list_users(base_url: str) -> list[User]:
    with lothc.SyncHTTPClient(base_url=base_url, bearer_token="t") as client:
        r = client.get("/users", into=list[User], params={"limit": 10})
        assert r.elapsed < 5
        assert r.headers.copy()["content-type"] == "application/json"
        return r.data


# ---- the tests ----

def test_against_a_server(srv):
    srv.script("/users/1", (200, JSON, b'{"id": 1, "name": "ann"}'))
    srv.script("/users/2", (503, JSON, b"{}"), (404, JSON, b'{"detail": "no user 2"}'))
    srv.script("/users", (200, JSON, b'[{"id": 1, "name": "ann"}, {"id": 3, "name": "cy"}]'))
    user, elapsed, path = asyncio.run(fetch_user(srv.url, 1))
    assert user == User(1, "ann") and 0 <= elapsed < 5 and path == "/users/1"
    assert asyncio.run(fetch_user(srv.url, 2)) == (None, 0.0, "/users/2")
    assert len(srv.hits("/users/2")) == 2  # the 503 was retried, the 404 was not
    assert list_users(srv.url) == [User(1, "ann"), User(3, "cy")]
    assert srv.hits("/users")[0].path == "/users?limit=10"


def test_against_the_mocker(lothc_mocker):
    lothc_mocker.add_get_response(path="/users", params={"limit": 10}, data=[{"id": 5, "name": "eve"}],
                                  headers={"Content-Type": "application/json"})
    mock = lothc_mocker.mock("GET", path="/users/9").with_status(404).with_data({"detail": "gone"})
    assert list_users("http://api.test") == [User(5, "eve")]
    assert asyncio.run(fetch_user("http://api.test", 9)) == (None, 0.0, "/users/9")
    mock.assert_called(count=1)
    assert lothc_mocker.get_requests()[0].headers["authorization"] == "Bearer t"
