"""URLs as they reach the wire (csrc/http/url through HTTPClient and SyncHTTPClient): params with a fragment, dot
segments, base_url joining, userinfo as Basic auth, an empty query kept, IDNA hosts, and the rejections."""

from __future__ import annotations

import asyncio
import base64

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient, SyncHTTPClient

MODES = ["sync", "async"]


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def request(mode: str, url: str, client: dict | None = None, **kwargs):
    """One GET through the chosen client; the /echo document (what arrived) and Response.url."""
    kwargs.setdefault("response_data_type", dict)
    if mode == "sync":
        with SyncHTTPClient(**(client or {})) as c:
            r = c.get(url, **kwargs)
    else:
        async def main():
            async with HTTPClient(**(client or {})) as c:
                return await c.get(url, **kwargs)

        r = asyncio.run(asyncio.wait_for(main(), 20))
    return r.data, r.url


def headers_of(doc: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, value in doc["headers"]:
        out.setdefault(name.lower(), []).append(value)
    return out


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


@pytest.mark.parametrize("mode", MODES)
def test_params_with_a_fragment_go_into_the_query(server, mode):
    doc, url = request(mode, "/echo#frag", {"base_url": server.url}, params={"y": "2"})
    assert doc["target"] == "/echo?y=2"
    assert url == server.url + "/echo?y=2"
    doc, _ = request(mode, server.url + "/echo?x=1#frag", params={"y": "2", "z": "a b/é"})
    assert doc["target"] == "/echo?x=1&y=2&z=a+b%2F%C3%A9"
    doc, _ = request(mode, server.url + "/echo?", params={"y": "2"})
    assert doc["target"] == "/echo?y=2"


@pytest.mark.parametrize("mode", MODES)
def test_dot_segments_are_removed(server, mode):
    doc, url = request(mode, server.url + "/a/b/../../echo")
    assert doc["target"] == "/echo" and url == server.url + "/echo"
    doc, _ = request(mode, server.url + "/./x/./../echo")
    assert doc["target"] == "/echo"
    # base_url: the reference is appended to the base path, then normalised (as httpx does).
    doc, url = request(mode, "../echo", {"base_url": server.url + "/base/v1"})
    assert doc["target"] == "/base/echo" and url == server.url + "/base/echo"
    doc, _ = request(mode, "./x/../../echo?q=1", {"base_url": server.url + "/base/v1/"})
    assert doc["target"] == "/base/echo?q=1"
    doc, _ = request(mode, "/../../../echo", {"base_url": server.url + "/base/v1"})
    assert doc["target"] == "/echo"  # ".." never climbs above the root


@pytest.mark.parametrize("mode", MODES)
def test_empty_query_is_kept(server, mode):
    doc, url = request(mode, server.url + "/echo?")
    assert doc["target"] == "/echo?" and url == server.url + "/echo?"
    doc, _ = request(mode, "/echo?", {"base_url": server.url + "/base"})
    assert doc["target"] == "/base/echo?"
    doc, _ = request(mode, "/echo?#frag", {"base_url": server.url})
    assert doc["target"] == "/echo?"


@pytest.mark.parametrize("mode", MODES)
def test_userinfo_is_sent_as_basic_auth(server, mode):
    url = server.url.replace("http://", "http://us%20er:p%40ss:w@") + "/echo"
    doc, r_url = request(mode, url)
    headers = headers_of(doc)
    assert headers["authorization"] == [basic("us er", "p@ss:w")]  # percent-decoded, as httpx sends it
    assert headers["host"] == [server.url.removeprefix("http://")]  # never userinfo in Host ...
    assert doc["target"] == "/echo"  # ... or in the target ...
    assert r_url == server.url + "/echo"  # ... or in Response.url
    # A user name alone, and userinfo in base_url for relative requests.
    doc, _ = request(mode, server.url.replace("http://", "http://alice@") + "/echo")
    assert headers_of(doc)["authorization"] == [basic("alice", "")]
    doc, _ = request(mode, "/echo", {"base_url": server.url.replace("http://", "http://b:pw@")})
    assert headers_of(doc)["authorization"] == [basic("b", "pw")]
    # Empty userinfo sends nothing.
    doc, _ = request(mode, server.url.replace("http://", "http://:@") + "/echo")
    assert "authorization" not in headers_of(doc)


@pytest.mark.parametrize("mode", MODES)
def test_userinfo_yields_to_an_authorization_the_user_gave(server, mode):
    url = server.url.replace("http://", "http://u:p@") + "/echo"
    doc, _ = request(mode, url, headers={"Authorization": "Bearer t"})
    assert headers_of(doc)["authorization"] == ["Bearer t"]
    doc, _ = request(mode, url, {"basic_auth": ("client", "secret")})
    assert headers_of(doc)["authorization"] == [basic("client", "secret")]
    doc, _ = request(mode, url, {"bearer_token": "tok"})
    assert headers_of(doc)["authorization"] == ["Bearer tok"]
    # Overriding another default header keeps the URL's credentials.
    doc, _ = request(mode, url, headers={"User-Agent": "ua/2"})
    assert headers_of(doc)["authorization"] == [basic("u", "p")]
    assert headers_of(doc)["user-agent"] == ["ua/2"]


@pytest.mark.parametrize("mode", MODES)
def test_percent_encoding_of_path_and_query(server, mode):
    doc, url = request(mode, "/echo?q=a b&x=%41&y=é&z=100%", {"base_url": server.url})
    assert doc["target"] == "/echo?q=a%20b&x=%41&y=%C3%A9&z=100%25"  # existing %XX kept, the rest as UTF-8
    assert url == server.url + "/echo?q=a%20b&x=%41&y=%C3%A9&z=100%25"


@pytest.mark.parametrize("mode", MODES)
def test_idna_host_and_default_port(server, mode):
    resolve = {"xn--bcher-kva.example": "127.0.0.1"}
    doc, url = request(mode, f"http://BÜCHER.example:{server.port}/echo", {"resolve": resolve})
    assert headers_of(doc)["host"] == [f"xn--bcher-kva.example:{server.port}"]
    assert url == f"http://xn--bcher-kva.example:{server.port}/echo"


@pytest.mark.parametrize("mode", MODES)
def test_absolute_url_with_another_origin_than_base_url(server, mode):
    doc, url = request(mode, server.url + "/echo", {"base_url": "http://other.invalid:1/base"})
    assert doc["target"] == "/echo" and url == server.url + "/echo"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://h/echo\r\nX-Injected: 1", "control character"),
        ("http://h/\x00", "control character"),
        ("http://a b/", "invalid host"),
        ("http://h%41/", "invalid host"),
        ("http://[::1/", "invalid IP literal"),
        ("http://[1::2::3]/", "invalid IP literal"),
        ("http://h:65536/", "invalid port"),
        ("http://h:0/", "invalid port"),
        ("http://h:8a/", "invalid port"),
        ("http:///x", "no host"),
        ("ftp://h/", "scheme must be http or https"),
        ("1http://h/", "scheme is malformed"),
        ("/relative", "relative URL needs base_url"),
        ("https://127.0.0.1/", "https is not supported yet"),
        ("http://xn--a.\u0080/", "invalid host"),
    ],
)
@pytest.mark.parametrize("mode", MODES)
def test_bad_urls_rejected_before_sending(mode, url, message):
    with pytest.raises(ValueError, match=message):
        request(mode, url)


@pytest.mark.parametrize(
    ("base", "message"),
    [
        ("http://h/?q=1", "must not have a query or fragment"),
        ("http://h/?", "must not have a query or fragment"),
        ("http://h/#f", "must not have a query or fragment"),
        ("/api", "base_url must be an absolute"),
        ("ftp://h/", "scheme must be http or https"),
        ("https://h/", "https is not supported yet"),
        ("http://h:99999/", "invalid port"),
    ],
)
def test_bad_base_urls_rejected(base, message):
    with pytest.raises(ValueError, match=message):
        SyncHTTPClient(base_url=base)
    with pytest.raises(ValueError, match=message):
        HTTPClient(base_url=base)


def test_url_type_checked():
    with SyncHTTPClient() as client:
        with pytest.raises(TypeError, match="url must be str"):
            client.get(b"http://h/")  # type: ignore[arg-type]


def test_http_url_paths_do_not_leak():
    """_core._http_url over its success, IDNA, params and error paths: Python allocations do not grow."""
    import gc
    import tracemalloc

    from boltwire import _core

    calls = [
        ("http://u:p@h:81/a/../b?x#f", None, "y=2"),
        ("../c", "http://h/api/v1", None),
        ("http://bücher.example/x", None, None),
        ("http://h:0/", None, None),
        ("/x", None, None),
        ("http://xn--a.\u0080/", None, None),
        ("x", "http://h/?q", None),
        ("x", "http://bücher.example/", "a=1"),
        (b"http://h/", None, None),
        ("http://h/\ud800", None, None),
    ]

    def run(n):
        for _ in range(n):
            for args in calls:
                try:
                    _core._http_url(*args)
                except (ValueError, TypeError):
                    pass

    run(200)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    run(5000)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 64 * 1024, grown
