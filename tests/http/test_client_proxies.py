"""tests/http/test_client_proxies.py: proxies with both clients against real ones: tinyproxy (absolute-form http,
CONNECT to the nginx TLS fixture, 407 without credentials) and microsocks (SOCKS5 with and without auth, socks5h,
a refused target); no_proxy (hosts, CIDRs), trust_env, a dead proxy; proxy URL parsing."""

from __future__ import annotations

import pytest
from _both_clients import both
from _both_clients import get_all as run
from nginx_server import free_port

from boltwire.http import HTTPConnectionError, HTTPResponseError, SyncHTTPClient
from boltwire.http._proxy import ProxyConfig, ProxyRules


@pytest.fixture
def srv(scripted):
    return scripted


def tls_options(server):
    return {"root_certificates": [server.ca_pem], "tls_built_in_root_certs": False}


# ---- HTTP proxy (tinyproxy) -------------------------------------------------------------------------------------


@both
def test_http_proxy_absolute_form(srv, tinyproxy, is_async):
    r1, r2 = run(is_async, [f"{srv.url}/a?x=1", f"{srv.url}/b"], proxy=tinyproxy.url)
    assert r1.status == 200 and r2.status == 200 and r1.url == f"{srv.url}/a?x=1"
    hit = srv.hits("/a")[0]
    assert "tinyproxy" in hit.headers.get("via", "")  # it went through the proxy
    assert hit.path == "/a?x=1"  # the proxy turned the absolute-form target back into origin-form
    assert "proxy-authorization" not in hit.headers  # the proxy consumed it; never forwarded to the origin


@both
def test_http_proxy_without_credentials_answers_407(srv, tinyproxy, is_async):
    # For plain http the proxy's 407 is the response to the request (as httpx returns it).
    with pytest.raises(HTTPResponseError) as info:
        run(is_async, [f"{srv.url}/a"], proxy=tinyproxy.bare_url)
    assert info.value.status == 407 and srv.hits("/a") == []


@both
def test_connect_tunnel_to_tls_origin(nginx_tls, tinyproxy, is_async):
    (r,) = run(is_async, [nginx_tls.url + "/"], proxy=tinyproxy.url, **tls_options(nginx_tls))
    assert r.status == 200 and len(r.data) > 0


@both
def test_connect_refused_with_407_is_a_connection_error(nginx_tls, tinyproxy, is_async):
    with pytest.raises(HTTPConnectionError, match="407") as info:
        run(is_async, [nginx_tls.url + "/"], proxy=tinyproxy.bare_url, **tls_options(nginx_tls))
    assert "refused the CONNECT" in str(info.value)


@both
def test_dead_proxy(srv, is_async):
    with pytest.raises(HTTPConnectionError, match="connect to the proxy failed"):
        run(is_async, [f"{srv.url}/a"], proxy=f"http://127.0.0.1:{free_port()}")


@both
@pytest.mark.parametrize("entry", ["127.0.0.1", "127.0.0.0/8", "*"])
def test_no_proxy_goes_direct(srv, is_async, entry):
    dead = f"http://127.0.0.1:{free_port()}"
    (r,) = run(is_async, [f"{srv.url}/direct"], proxy=dead, no_proxy=[entry])
    assert r.status == 200 and "via" not in srv.hits("/direct")[0].headers


@both
def test_trust_env(srv, tinyproxy, is_async, monkeypatch):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy",
                 "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", tinyproxy.url)
    run(is_async, [f"{srv.url}/env"], trust_env=True)
    assert "tinyproxy" in srv.hits("/env")[0].headers.get("via", "")
    run(is_async, [f"{srv.url}/noenv"])  # trust_env is off by default
    assert "via" not in srv.hits("/noenv")[0].headers
    monkeypatch.setenv("no_proxy", "localhost,127.0.0.1")
    run(is_async, [f"{srv.url}/bypass"], trust_env=True)
    assert "via" not in srv.hits("/bypass")[0].headers


# ---- SOCKS5 (microsocks) ----------------------------------------------------------------------------------------


@both
@pytest.mark.parametrize("scheme", ["socks5", "socks5h"])
def test_socks5_http(srv, microsocks, is_async, scheme):
    url = srv.url.replace("127.0.0.1", "localhost")
    (r,) = run(is_async, [f"{url}/s"], proxy=microsocks.url.replace("socks5", scheme))
    assert r.status == 200 and srv.hits("/s")[0].headers["host"] == url.split("//")[1]


@both
def test_socks5_tls(nginx_tls, microsocks, is_async):
    (r,) = run(is_async, [nginx_tls.url.replace("127.0.0.1", "localhost") + "/"],
               proxy=microsocks.url.replace("socks5", "socks5h"), **tls_options(nginx_tls))
    assert r.status == 200


@both
def test_socks5_auth(srv, microsocks_auth, is_async):
    (r,) = run(is_async, [f"{srv.url}/auth"], proxy=microsocks_auth.url)
    assert r.status == 200
    with pytest.raises(HTTPConnectionError, match="requires authentication"):
        run(is_async, [f"{srv.url}/auth"], proxy=microsocks_auth.bare_url)
    with pytest.raises(HTTPConnectionError, match="rejected the username and password"):
        run(is_async, [f"{srv.url}/auth"], proxy=microsocks_auth.bare_url.replace("//", "//sockuser:wrong@"))


@both
def test_socks5_refuses_unreachable_target(microsocks, is_async):
    with pytest.raises(HTTPConnectionError, match="SOCKS5 proxy could not connect"):
        run(is_async, [f"http://127.0.0.1:{free_port()}/"], proxy=microsocks.url)


# ---- configuration ----------------------------------------------------------------------------------------------


def test_proxy_config_parsing():
    c = ProxyConfig("http://us%40er:p%3Ass@proxy.test:3128")
    assert (c.host, c.port, c.username, c.password) == ("proxy.test", 3128, "us@er", "p:ss")
    assert c.authorization() == "Basic dXNAZXI6cDpzcw=="
    assert "p:ss" not in repr(c)
    assert ProxyConfig("socks5h://h").port == 1080 and ProxyConfig("socks5h://h").remote_dns
    assert ProxyConfig("proxy.test:8000").host == "proxy.test"
    for bad in ("ftp://h", "http://", "http://h:99999", "http://h/path"):
        with pytest.raises(ValueError):
            ProxyConfig(bad)
    with pytest.raises(ValueError, match="needs a 'proxy'"):
        SyncHTTPClient(no_proxy=["x"])
    with pytest.raises(TypeError):
        SyncHTTPClient(proxy="http://h", no_proxy="x")


def test_rules_select_per_scheme_and_bypass():
    env = {"https_proxy": "http://tls-proxy:1", "HTTP_PROXY": "http://plain:2", "NO_PROXY": ".internal,10.0.0.0/8,[::1]"}
    rules = ProxyRules.make(None, ["exact.test:8443"], True, env)
    assert rules.for_origin(True, "a.test", 443).host == "tls-proxy"
    assert rules.for_origin(False, "a.test", 80).host == "plain"
    assert rules.for_origin(False, "x.internal", 80) is None and rules.for_origin(False, "internal", 80) is None
    assert rules.for_origin(False, "10.1.2.3", 80) is None and rules.for_origin(False, "11.1.2.3", 80) is not None
    assert rules.for_origin(False, "::1", 80) is None
    assert rules.for_origin(True, "exact.test", 8443) is None and rules.for_origin(True, "exact.test", 443)
    assert ProxyRules.make(None, None, True, {}) is None
    # httpoxy: in a CGI script HTTP_PROXY comes from the request's "Proxy:" header and is not trusted.
    assert ProxyRules.make(None, None, True, {"REQUEST_METHOD": "GET", "HTTP_PROXY": "http://evil:1"}) is None
    cgi = ProxyRules.make(None, None, True, {"REQUEST_METHOD": "GET", "http_proxy": "http://ok:1"})
    assert cgi.for_origin(False, "a.test", 80).host == "ok"


# ---- SOCKS5 on the wire (tests/http/socks_recorder.py) -----------------------------------------------------------


@pytest.fixture
def recorder():
    from socks_recorder import SocksRecorder

    r = SocksRecorder()
    try:
        yield r
    finally:
        r.close()


@both
def test_socks5_resolves_here_socks5h_at_the_proxy(srv, recorder, is_async):
    url = srv.url.replace("127.0.0.1", "localhost")
    port = int(srv.url.rsplit(":", 1)[1])
    (r,) = run(is_async, [f"{url}/local"], proxy=recorder.url)
    (r2,) = run(is_async, [f"{url}/remote"], proxy=recorder.url.replace("socks5", "socks5h"))
    assert r.status == 200 and r2.status == 200  # every reply came one byte at a time
    assert recorder.requests[0][0] in (1, 4) and recorder.requests[0][2] == port  # an address: resolved here
    assert recorder.requests[1] == (3, "localhost", port)  # the name: resolved by the proxy


@both
def test_socks5_failure_code_and_junk(srv, recorder, is_async):
    recorder.fail_code = 2
    with pytest.raises(HTTPConnectionError, match=r"connection not allowed by ruleset \(2\)"):
        run(is_async, [f"{srv.url}/x"], proxy=recorder.url)
    recorder.fail_code = 0
    recorder.junk = b"HTTP/1.1 200 OK\r\n"
    with pytest.raises(HTTPConnectionError, match="sent bytes after its reply"):
        run(is_async, [f"{srv.url}/x"], proxy=recorder.url)
    assert srv.hits("/x") == []


@both
def test_tunnel_connection_is_kept_alive(srv, recorder, is_async):
    run(is_async, [f"{srv.url}/one", f"{srv.url}/two", f"{srv.url}/three"], proxy=recorder.url)
    assert len(recorder.requests) == 1  # one SOCKS handshake: the later requests reused the tunnelled connection
    assert [h.path for h in srv.requests] == ["/one", "/two", "/three"]


# ---- HTTP/2 through proxies ----------------------------------------------------------------------------------------


@both
def test_h2_over_alpn_through_connect_and_socks(nginx_tls, tinyproxy, microsocks, is_async):
    options = {"http2": True, **tls_options(nginx_tls)}
    (r1,) = run(is_async, [nginx_tls.h2_url + "/"], proxy=tinyproxy.url, **options)
    (r2,) = run(is_async, [nginx_tls.h2_url + "/"], proxy=microsocks.url, **options)
    assert (r1.status, r1.http_version) == (200, "HTTP/2") and (r2.status, r2.http_version) == (200, "HTTP/2")


@both
def test_h2c_through_socks_but_http11_to_an_http_proxy(nginx_tls, srv, tinyproxy, microsocks, is_async):
    (r,) = run(is_async, [nginx_tls.h2c_url + "/"], proxy=microsocks.url, http2_prior_knowledge=True)
    assert (r.status, r.http_version) == (200, "HTTP/2")  # the SOCKS tunnel carries h2c to the origin
    # An HTTP proxy is spoken to in HTTP/1.1 (absolute-form) even with http2_prior_knowledge: tinyproxy would drop
    # an HTTP/2 preface.
    (r,) = run(is_async, [f"{srv.url}/via"], proxy=tinyproxy.url, http2_prior_knowledge=True)
    assert (r.status, r.http_version) == (200, "HTTP/1.1") and "tinyproxy" in srv.hits("/via")[0].headers["via"]


@both
def test_socks5_resolves_on_the_transport_not_the_calling_thread(srv, recorder, is_async, monkeypatch):
    # Python's resolver is broken for this test: a socks5:// request to a name still works, so the name was
    # resolved by the transport's resolver threads, never by getaddrinfo on the caller's (event loop's) thread.
    import socket
    import threading

    caller = threading.current_thread()
    real = socket.getaddrinfo

    def refuse(*args, **kwargs):  # the recorder's own threads still resolve
        if threading.current_thread() is caller:
            raise AssertionError("getaddrinfo on the calling thread")
        return real(*args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    url = srv.url.replace("127.0.0.1", "localhost")
    (r,) = run(is_async, [f"{url}/on-the-transport"], proxy=recorder.url)
    assert r.status == 200
    atype, host, _ = recorder.requests[-1]
    assert atype in (1, 4) and host in ("127.0.0.1", "::1")  # the proxy was given an address


@both
def test_socks5_target_that_does_not_resolve_is_a_connection_error(recorder, is_async):
    with pytest.raises(HTTPConnectionError, match="for the socks5 proxy") as info:
        run(is_async, ["http://no-such-host.invalid/"], proxy=recorder.url)
    assert "no-such-host.invalid" in str(info.value)
    assert not any(host == "no-such-host.invalid" for _, host, _ in recorder.requests)  # never asked of the proxy


# ---- trust_env: ALL_PROXY, both spellings, NO_PROXY domains ---------------------------------------------------------

_ENV_NAMES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "REQUEST_METHOD")


def test_env_all_proxy_and_which_spelling_wins():
    make = ProxyRules.make
    for name in ("ALL_PROXY", "all_proxy"):  # ALL_PROXY serves both schemes, in either spelling
        rules = make(None, None, True, {name: "socks5h://s.test:1080"})
        assert rules.for_origin(False, "a.test", 80).host == rules.for_origin(True, "a.test", 443).host == "s.test"
    # A scheme's own variable wins over ALL_PROXY; the lower-case name wins over the upper-case one (as curl).
    rules = make(None, None, True, {"ALL_PROXY": "http://every:1", "HTTPS_PROXY": "http://tls:2"})
    assert rules.for_origin(True, "a.test", 443).host == "tls" and rules.for_origin(False, "a.test", 80).host == "every"
    for name, https in (("HTTP_PROXY", False), ("HTTPS_PROXY", True), ("ALL_PROXY", True), ("ALL_PROXY", False)):
        rules = make(None, None, True, {name: "http://upper:1", name.lower(): "http://lower:2"})
        assert rules.for_origin(https, "a.test", 1).host == "lower", name
    # NO_PROXY in either spelling; "example.com" covers the domain and its subdomains, not a longer name.
    for name in ("NO_PROXY", "no_proxy"):
        rules = make(None, None, True, {"ALL_PROXY": "http://p:1", name: "example.com, 192.168.0.0/16"})
        assert rules.for_origin(False, "example.com", 80) is None
        assert rules.for_origin(False, "a.b.example.com", 80) is None
        assert rules.for_origin(False, "notexample.com", 80).host == "p"
        assert rules.for_origin(False, "192.168.3.4", 80) is None and rules.for_origin(False, "192.169.0.1", 80)
    # trust_env=False never reads the environment.
    assert make(None, None, False, {"ALL_PROXY": "http://p:1"}) is None


@both
def test_trust_env_all_proxy_through_socks(srv, recorder, is_async, monkeypatch):
    for name in _ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.setenv("ALL_PROXY", recorder.url)
    (r,) = run(is_async, [f"{srv.url}/via-env"], trust_env=True)
    assert r.status == 200 and len(recorder.requests) == 1  # one SOCKS5 handshake: it went through the proxy
    monkeypatch.setenv("NO_PROXY", "127.0.0.0/8")  # a CIDR from the environment
    (r,) = run(is_async, [f"{srv.url}/direct"], trust_env=True)
    assert r.status == 200 and len(recorder.requests) == 1
    assert [h.path for h in srv.requests] == ["/via-env", "/direct"]
