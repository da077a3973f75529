"""tests/http/test_cookie_parser.py: the RFC 6265 cookie rules of boltwire.http.CookieJar without a network: the
Set-Cookie parser and cookie-date algorithm (tables plus hypothesis fuzzing), domain / host-only / path / expiry /
Secure rules, refusals (another domain, a bare TLD, an IP mismatch) and the public jar API."""

from __future__ import annotations

import calendar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boltwire.http import CookieJar
from boltwire.http._cookies import default_path, parse_cookie_date, parse_set_cookie, path_match


class Clock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def jar_with(url: str, *fields: str, clock: Clock | None = None) -> CookieJar:
    jar = CookieJar(clock or Clock())
    jar.extract(url, list(fields))
    return jar


@pytest.mark.parametrize("text, expected", [
    ("Wed, 21 Oct 2015 07:28:00 GMT", (2015, 10, 21, 7, 28, 0)),
    ("Sunday, 06-Nov-94 08:49:37 GMT", (1994, 11, 6, 8, 49, 37)),  # RFC 850, two-digit year
    ("Sun Nov  6 08:49:37 1994", (1994, 11, 6, 8, 49, 37)),        # asctime
    ("6 nov 2069 1:2:3", (2069, 11, 6, 1, 2, 3)),
    ("01 Jan 70 00:00:00", (1970, 1, 1, 0, 0, 0)),
])
def test_cookie_dates(text, expected):
    assert parse_cookie_date(text) == calendar.timegm((*expected, 0, 0, 0))


@pytest.mark.parametrize("text", ["", "tomorrow", "31 Feb 2020 00:00:00", "21 Oct 2015", "21 Oct 2015 25:00:00",
                                  "32 Oct 2015 01:00:00", "21 Oct 1500 01:00:00", "21 Foo 2015 01:00:00"])
def test_not_cookie_dates(text):
    assert parse_cookie_date(text) is None


def test_set_cookie_attributes():
    c = parse_set_cookie(" sid = a b ; Path=/app; Domain=.Example.COM; Max-Age=60; Secure; HttpOnly; SameSite=Lax")
    assert (c.name, c.value, c.path, c.domain, c.max_age, c.secure, c.http_only) == (
        "sid", "a b", "/app", "example.com", 60, True, True)
    assert parse_set_cookie("novalue") is None and parse_set_cookie("=v") is None
    assert parse_set_cookie("a=1; Path=relative").path is None  # then the default path applies
    assert parse_set_cookie("a=1; Max-Age=soon").max_age is None
    assert parse_set_cookie("a=1; Max-Age=-5").max_age == -5
    assert parse_set_cookie("a=" + "x" * 5000) is None
    assert parse_set_cookie("a=1; Domain=..x").domain == ".x"  # §5.2.3 removes one leading dot, not all
    assert list(jar_with("http://www.example.com/", "a=1; Domain=..example.com")) == []  # then it matches nothing


@given(st.text(max_size=300))
@settings(max_examples=400, deadline=None)
def test_parser_never_fails_on_any_text(field):
    c = parse_set_cookie(field)
    if c is not None:
        assert c.name and "=" not in c.name and ";" not in c.name + c.value
        assert c.path is None or c.path.startswith("/")
        assert c.domain is None or (c.domain and c.domain == c.domain.lower())  # "..x" keeps one dot (§5.2.3)


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=80))
@settings(max_examples=400, deadline=None)
def test_cookie_date_never_fails(text):
    value = parse_cookie_date(text)
    assert value is None or value >= calendar.timegm((1601, 1, 1, 0, 0, 0, 0, 0, 0))


name_chars = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC0123456789_-", min_size=1, max_size=12)
value_chars = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789%!#$&'()*+-./:<>?@[]^_`{|}~", max_size=20)


@given(name_chars, value_chars, st.sampled_from(["", "/", "/a", "/a/b/"]))
@settings(max_examples=200, deadline=None)
def test_round_trip_through_the_jar(name, value, path):
    field = f"{name}={value}" + (f"; Path={path}" if path else "")
    jar = jar_with("http://h.test/a/b/c", field)
    header = jar.header_for("http://h.test" + (path.rstrip("/") or "") + "/a/b/c")
    stored = list(jar)
    assert len(stored) == 1 and stored[0].path == (path or "/a/b")
    assert header is None or header == f"{name}={value}"


def test_host_only_vs_domain_cookies():
    jar = jar_with("http://www.example.com/", "host=1", "dom=2; Domain=example.com")
    assert jar.header_for("http://www.example.com/") == "host=1; dom=2"
    assert jar.header_for("http://api.www.example.com/") == "dom=2"
    assert jar.header_for("http://example.com/") == "dom=2"
    assert jar.header_for("http://badexample.com/") is None


def test_cookie_for_another_domain_is_refused():
    jar = jar_with("http://www.example.com/", "a=1; Domain=other.com", "b=2; Domain=ample.com",
                   "c=3; Domain=api.www.example.com")
    assert list(jar) == []


def test_bare_tld_refused_unless_it_is_the_host():
    assert list(jar_with("http://www.example.com/", "a=1; Domain=com")) == []
    jar = jar_with("http://localhost/", "a=1; Domain=localhost")
    (c,) = list(jar)
    assert c.host_only and jar.header_for("http://localhost/") == "a=1"


def test_ip_hosts():
    assert list(jar_with("http://127.0.0.1/", "a=1; Domain=0.0.1")) == []
    assert list(jar_with("http://127.0.0.1/", "a=1; Domain=127.0.0.2")) == []
    jar = jar_with("http://127.0.0.1/", "a=1; Domain=127.0.0.1", "b=2")
    assert jar.header_for("http://127.0.0.1:8080/x") == "a=1; b=2"  # cookies ignore the port (§8.5)
    assert jar.header_for("http://127.0.0.2/") is None


def test_path_rules():
    assert default_path("/a/b/c") == "/a/b" and default_path("/a") == "/" and default_path("") == "/"
    assert path_match("/a/b", "/a") and path_match("/a/", "/a/") and not path_match("/ab", "/a")
    jar = jar_with("http://h.test/docs/page", "d=1", "r=2; Path=/", "x=3; Path=/other")
    assert jar.header_for("http://h.test/docs/page2") == "d=1; r=2"  # longer path first
    assert jar.header_for("http://h.test/docsx") == "r=2"
    assert jar.header_for("http://h.test/other/y?q=1") == "x=3; r=2"


def test_expiry_max_age_wins_and_past_dates_delete():
    clock = Clock()
    jar = jar_with("http://h.test/", "a=1; Max-Age=10; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
                   "b=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "gone=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
                   clock=clock)
    assert jar.header_for("http://h.test/") == "a=1; b=2"
    clock.now += 11
    assert jar.header_for("http://h.test/") == "b=2"
    jar.extract("http://h.test/", ["b=x; Max-Age=0"])
    assert jar.header_for("http://h.test/") is None and len(jar) == 0


def test_secure_cookies():
    assert list(jar_with("http://h.test/", "s=1; Secure")) == []  # Secure set over plain http is refused
    jar = jar_with("https://h.test/", "s=1; Secure", "p=2")
    assert jar.header_for("https://h.test/") == "s=1; p=2"
    assert jar.header_for("http://h.test/") == "p=2"


def test_replacing_keeps_creation_order():
    jar = jar_with("http://h.test/", "a=1", "b=2")
    jar.extract("http://h.test/", ["a=3"])
    assert jar.header_for("http://h.test/") == "a=3; b=2"


def test_public_api():
    jar = CookieJar()
    jar.set("token", "abc", "example.com")
    jar.set("only", "x", "example.com", "/api", host_only=True)
    assert jar.get("token") == "abc" and jar["only"] == "x" and "token" in jar and len(jar) == 2
    assert jar.header_for("http://sub.example.com/api/v1") == "token=abc"
    assert jar.header_for("http://example.com/api/v1") == "only=x; token=abc"
    assert jar.delete("only") == 1 and jar.get("only") is None
    with pytest.raises(KeyError):
        jar["only"]
    for bad in [("", "v", "d.com"), ("a;b", "v", "d.com"), ("a", "v\r\n", "d.com"), ("a", "v", "")]:
        with pytest.raises(ValueError):
            jar.set(*bad)
    jar.clear("other.com")
    assert len(jar) == 1
    jar.clear()
    assert list(jar) == []


def test_per_domain_limit_evicts_oldest():
    jar = jar_with("http://h.test/", *[f"c{i}=1" for i in range(60)])
    names = [c.name for c in jar]
    assert len(names) == 50 and names[0] == "c10" and names[-1] == "c59"


def test_samesite_is_ignored_and_httponly_kept_but_sent():
    # A client has no "site" to compare with: SameSite (any value, or a bad one) changes nothing, and HttpOnly
    # cookies (hidden from page scripts in a browser) are sent like any other; the flag is kept on the Cookie.
    jar = jar_with("http://h.test/", "s=1; SameSite=Strict", "l=2; SameSite=Lax", "n=3; SameSite=None",
                   "b=4; SameSite=bogus", "h=5; HttpOnly")
    assert jar.header_for("http://h.test/") == "s=1; l=2; n=3; b=4; h=5"
    assert {c.name: c.http_only for c in jar} == {"s": False, "l": False, "n": False, "b": False, "h": True}
