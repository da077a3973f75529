"""tests/http/test_client_cookies.py: cookie_store=True end to end with both clients: cookies stored from responses
and sent back by host and path, a cookie for another domain refused, cookies set during a redirect chain sent on its
next hop (to the same host and to another), client.cookies to read / set / clear, no cookie handling without
cookie_store, and the Set-Cookie fields starlette writes (tests/http/stream_app.py under uvicorn)."""

from __future__ import annotations

import asyncio

import pytest
from _both_clients import both, session


@pytest.fixture
def srv(scripted):
    return scripted


@both
def test_cookies_round_trip_by_path(srv, is_async):
    srv.script("/login", (200, [("Set-Cookie", "sid=abc; Path=/"), ("Set-Cookie", "scoped=1; Path=/api"),
                                ("Set-Cookie", "evil=1; Domain=example.com")], b"{}"))

    def steps(client):
        yield "POST", f"{srv.url}/login", {}
        yield "GET", f"{srv.url}/api/items", {}
        yield "GET", f"{srv.url}/home", {}

    client, _ = session(is_async, steps, cookie_store=True)
    api, home = srv.hits("/api/items")[0], srv.hits("/home")[0]
    assert api.headers["cookie"] == "scoped=1; sid=abc"
    assert home.headers["cookie"] == "sid=abc"
    assert sorted(c.name for c in client.cookies) == ["scoped", "sid"]  # the example.com cookie was refused
    assert client.cookies.get("sid") == "abc" and client.cookies.get("evil") is None


@both
def test_host_only_cookie_not_sent_to_another_host(srv, is_async):
    srv.script("/set", (200, [("Set-Cookie", "a=1")], b"{}"))
    other = srv.url.replace("127.0.0.1", "localhost")

    def steps(client):
        yield "GET", f"{srv.url}/set", {}
        yield "GET", f"{other}/check", {}
        yield "GET", f"{srv.url}/check", {}

    session(is_async, steps, cookie_store=True)
    first, second = srv.hits("/check")
    assert "cookie" not in first.headers and second.headers["cookie"] == "a=1"


@both
def test_cookie_set_in_a_redirect_is_sent_on_the_next_hop(srv, is_async):
    srv.script("/auth", (302, [("Location", "/landing"), ("Set-Cookie", "session=s1")], b""))
    srv.script("/landing", (302, [("Location", "/landing"), ("Set-Cookie", "seen=1")], b""),
               (200, [], b'{"ok":true}'))

    def steps(client):
        yield "GET", f"{srv.url}/auth", {}

    _, (r,) = session(is_async, steps, cookie_store=True)
    # The same URL twice is no loop with a cookie store: the second visit carries the cookie the first one set.
    assert r.status == 200 and [h.status for h in r.history] == [302, 302]
    landing = srv.hits("/landing")
    assert landing[0].headers["cookie"] == "session=s1"
    assert landing[1].headers["cookie"] == "session=s1; seen=1"


@both
def test_cookies_api_set_and_clear(srv, is_async):
    def steps(client):
        client.cookies.set("manual", "v", "127.0.0.1")
        yield "GET", f"{srv.url}/one", {}
        client.cookies.clear()
        yield "GET", f"{srv.url}/two", {}

    session(is_async, steps, cookie_store=True)
    assert srv.hits("/one")[0].headers["cookie"] == "manual=v"
    assert "cookie" not in srv.hits("/two")[0].headers


@both
def test_explicit_cookie_header_wins(srv, is_async):
    srv.script("/set", (200, [("Set-Cookie", "a=1")], b"{}"))

    def steps(client):
        yield "GET", f"{srv.url}/set", {}
        yield "GET", f"{srv.url}/mine", {"headers": {"Cookie": "mine=2"}}

    session(is_async, steps, cookie_store=True)
    assert srv.hits("/mine")[0].headers["cookie"] == "mine=2"


@both
def test_without_cookie_store_nothing_is_kept(srv, is_async):
    srv.script("/set", (200, [("Set-Cookie", "a=1")], b"{}"))

    def steps(client):
        yield "GET", f"{srv.url}/set", {}
        yield "GET", f"{srv.url}/after", {}

    client, _ = session(is_async, steps)
    assert "cookie" not in srv.hits("/after")[0].headers
    with pytest.raises(RuntimeError, match="cookie_store=True"):
        client.cookies


@both
def test_redirect_hops_to_another_host_follow_the_jar_rules(srv, is_async):
    # 127.0.0.1 -> localhost -> 127.0.0.1 (one server, two hosts): each hop gets the cookies of its own host only,
    # and a cookie set by the middle hop is kept for localhost, not sent back to 127.0.0.1.
    other = srv.url.replace("127.0.0.1", "localhost")
    srv.script("/set", (200, [("Set-Cookie", "home=1")], b"{}"))
    srv.script("/go", (302, [("Location", f"{other}/middle")], b""))
    srv.script("/middle", (302, [("Location", f"{srv.url}/back"), ("Set-Cookie", "away=2")], b""))

    def steps(client):
        yield "GET", f"{srv.url}/set", {}
        yield "GET", f"{srv.url}/go", {}
        yield "GET", f"{other}/later", {}

    client, (_, r, _) = session(is_async, steps, cookie_store=True)
    assert r.status == 200 and [h.status for h in r.history] == [302, 302]
    assert srv.hits("/go")[0].headers["cookie"] == "home=1"
    assert "cookie" not in srv.hits("/middle")[0].headers
    assert srv.hits("/back")[0].headers["cookie"] == "home=1"
    assert srv.hits("/later")[0].headers["cookie"] == "away=2"
    assert sorted((c.name, c.domain) for c in client.cookies) == [("away", "localhost"), ("home", "127.0.0.1")]


@both
def test_streams_downloads_and_uploads_use_the_jar(srv, is_async, tmp_path):
    # stream(), download() and a form= upload (with the redirect after it) send the jar's cookies and store what their
    # responses set, as the verbs do; they went out without the session cookie and their Set-Cookie was lost.
    srv.script("/login", (200, [("Set-Cookie", "sid=abc")], b"{}"))
    srv.script("/feed", (200, [("Set-Cookie", "fed=1")], b"line\n"))
    srv.script("/file", (200, [("Set-Cookie", "got=1")], b"data"))
    srv.script("/upload", (303, [("Location", "/result"), ("Set-Cookie", "up=1")], b""))
    url = srv.url

    async def run_async():
        from boltwire.http import HTTPClient

        async with HTTPClient(cookie_store=True) as client:
            await client.get(f"{url}/login")
            async with client.stream("GET", f"{url}/feed") as stream:
                await stream.read()
            await client.download(f"{url}/file", tmp_path / "f")
            await client.post(f"{url}/upload", form={"f": b"x"})

    def run_sync():
        from boltwire.http import SyncHTTPClient

        with SyncHTTPClient(cookie_store=True) as client:
            client.get(f"{url}/login")
            with client.stream("GET", f"{url}/feed") as stream:
                stream.read()
            client.download(f"{url}/file", tmp_path / "f")
            client.post(f"{url}/upload", form={"f": b"x"})

    asyncio.run(run_async()) if is_async else run_sync()
    assert srv.hits("/feed")[0].headers.get("cookie") == "sid=abc"
    assert srv.hits("/file")[0].headers.get("cookie") == "sid=abc; fed=1"
    assert srv.hits("/upload")[0].headers.get("cookie") == "sid=abc; fed=1; got=1"
    assert srv.hits("/result")[0].headers.get("cookie") == "sid=abc; fed=1; got=1; up=1"


@both
def test_starlette_login_and_logout(stream_server, is_async):
    # starlette writes the Set-Cookie fields (HttpOnly, SameSite=lax, Path; delete_cookie's Max-Age=0 and a past
    # Expires) on a 303 and a 302: the jar follows them across each redirect.
    url, seen = stream_server.url, []

    def steps(client):
        yield "POST", f"{url}/login", {"json": {"user": "a"}, "response_data_type": dict}
        seen.append(sorted((c.name, c.value, c.path, c.http_only) for c in client.cookies))
        yield "GET", f"{url}/logout", {"response_data_type": dict}

    client, (login, logout) = session(is_async, steps, cookie_store=True)
    assert [h.status for h in login.history] == [303] and login.url == f"{url}/account"
    assert login.data == {"cookies": {"session": "s1"}, "method": "GET"}  # "narrow" is for /elsewhere only
    assert seen == [[("narrow", "n1", "/elsewhere", False), ("session", "s1", "/", True)]]
    assert [h.status for h in logout.history] == [302]
    assert logout.data == {"cookies": {}, "method": "GET"}  # deleted by the redirect before its next hop
    assert [c.name for c in client.cookies] == ["narrow"]
