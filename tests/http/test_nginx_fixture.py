"""tests/http/test_nginx_fixture.py: the session nginx (conftest.py) serves what the HTTP tests and the bench rely on:
the seed's 523-byte JSON on GET / with keep-alive, and the extra locations its config promises."""

from __future__ import annotations

import http.client
import json
import socket
import ssl
import time

import pytest

from nginx_server import CHUNKED_SIZE, NginxServer, big_body, chunked_body, payload

SEED_PAYLOAD = (
    b'{"status":"success","timestamp":"2026-08-19T12:34:56Z","user":{"id":42,"name":"Alice Johnson",'
    b'"email":"alice@example.com","roles":["admin","editor"],"metadata":{"last_login":"2026-08-19T10:00:00Z",'
    b'"login_count":127,"active":true}},"data":[{"id":1,"title":"First Item","tags":["rust","async"],"score":95.5,'
    b'"nested":{"depth":2,"values":[10,20,30]}},{"id":2,"title":"Second Item","tags":["web","performance"],'
    b'"score":88.3,"nested":{"depth":2,"values":[40,50,60]}}],"pagination":{"page":1,"limit":2,"total":42,'
    b'"has_more":true}}'
)


def connection(server: NginxServer) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)


def test_payload_is_the_seed_document_byte_for_byte():
    assert payload() == SEED_PAYLOAD
    assert len(SEED_PAYLOAD) == 523
    assert json.loads(SEED_PAYLOAD)["user"]["name"] == "Alice Johnson"


def test_get_root_serves_the_payload_as_json(nginx):
    conn = connection(nginx)
    conn.request("GET", "/")
    r = conn.getresponse()
    assert r.status == 200
    assert r.getheader("Content-Type") == "application/json"
    assert r.getheader("Content-Length") == "523"
    assert r.read() == SEED_PAYLOAD
    conn.close()


def test_one_connection_carries_many_requests(nginx):
    # keepalive_requests is high: a whole bench run may use one connection; a raw socket shows no reconnect.
    sock = socket.create_connection(("127.0.0.1", nginx.port), timeout=10)
    n = 2000
    sock.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n\r\n" * n)
    got = bytearray()
    while got.count(SEED_PAYLOAD) < n:
        data = sock.recv(1 << 20)
        assert data, f"closed after {got.count(SEED_PAYLOAD)} responses"
        got += data
    assert got.count(b"Connection: keep-alive") == n
    sock.close()


def test_extra_locations(nginx):
    conn = connection(nginx)
    conn.request("GET", "/big")
    r = conn.getresponse()
    assert (r.status, r.getheader("Content-Length")) == (200, str(1 << 20))
    assert r.read() == big_body()

    conn.request("GET", "/chunked")
    r = conn.getresponse()
    assert r.getheader("Transfer-Encoding") == "chunked" and r.getheader("Content-Length") is None
    assert r.read() == chunked_body() and len(chunked_body()) == CHUNKED_SIZE

    for code in (400, 404, 500, 503):
        conn.request("GET", f"/status/{code}")
        r = conn.getresponse()
        assert r.status == code and r.read()
    conn.request("GET", "/status/204")
    r = conn.getresponse()
    assert r.status == 204 and r.read() == b""

    conn.request("GET", "/headers")
    r = conn.getresponse()
    assert [v for k, v in r.getheaders() if k == "X-Multi"] == ["one", "two"] and r.read() == b"headers\n"

    conn.request("GET", "/redirect")
    r = conn.getresponse()
    assert r.status == 302 and r.getheader("Location").endswith("/")
    r.read()

    conn.request("POST", "/sink", body=b"x" * 1_000_000)
    r = conn.getresponse()
    assert r.status == 200 and r.read() == b'{"ok":true}'

    conn.request("HEAD", "/")
    r = conn.getresponse()
    assert r.status == 200 and r.getheader("Content-Length") == "523" and r.read() == b""
    conn.close()


def test_gzipped_is_gzip_and_refused_to_a_request_that_does_not_accept_it(nginx):
    # The bench's gzip race relies on both: a row that finishes received (and decoded) gzip on every request.
    import gzip

    conn = connection(nginx)
    conn.request("GET", "/gzipped", headers={"Accept-Encoding": "gzip, deflate"})
    r = conn.getresponse()
    body = r.read()
    assert (r.status, r.getheader("Content-Encoding")) == (200, "gzip")
    assert gzip.decompress(body) == SEED_PAYLOAD and len(body) < len(SEED_PAYLOAD)
    for refused in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "br, zstd"}):
        conn.request("GET", "/gzipped", headers=refused)
        r = conn.getresponse()
        r.read()
        assert r.status == 406, refused


def test_slow_is_throttled(nginx):
    sock = socket.create_connection(("127.0.0.1", nginx.port), timeout=10)
    sock.sendall(b"GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
    sock.settimeout(0.5)
    got = 0
    try:
        while got < (1 << 20):
            data = sock.recv(1 << 20)
            if not data:
                break
            got += len(data)
    except socket.timeout:
        pass
    assert 0 < got < (1 << 20) // 2  # 64 KiB/s: far from done after the first half second
    sock.close()


def test_two_servers_get_different_ports_and_stop_cleanly():
    with NginxServer() as a, NginxServer() as b:
        assert a.port != b.port
        prefix = a.prefix
    assert a.process is None and b.process is None and not prefix.exists()


def test_worker_pids_are_the_masters_children_while_it_runs():
    # The bench samples which CPU these processes run on (bench/http_race.py Placement).
    server = NginxServer(workers=2).start()
    try:
        deadline = time.monotonic() + 10  # the master forks its workers one after the other
        while len(pids := server.worker_pids()) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(pids) == 2
        for pid in pids:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            assert "(nginx)" in stat
            assert int(stat[stat.rfind(")") + 2:].split()[1]) == server.process.pid  # its parent is the master
    finally:
        server.stop()
    assert server.worker_pids() == []


def test_tls_listener_serves_the_same_locations_over_tls13():
    # The https bench race: the same server block, also on a TLS 1.3 port, certificate issued by the server's CA.
    with NginxServer(tls=True) as server:
        assert server.tls_port not in (0, server.port)
        assert server.ca_file.read_bytes() == server.ca_pem
        context = ssl.create_default_context(cafile=str(server.ca_file))
        for host in ("127.0.0.1", "localhost"):
            conn = http.client.HTTPSConnection(host, server.tls_port, timeout=10, context=context)
            conn.request("GET", "/")
            r = conn.getresponse()
            assert r.status == 200 and r.read() == SEED_PAYLOAD
            assert conn.sock.version() == "TLSv1.3"
            conn.request("GET", "/text")  # keep-alive, and the other locations are there too
            assert conn.getresponse().read() == b"hello\n"
            conn.close()
        tls12 = ssl.create_default_context(cafile=str(server.ca_file))
        tls12.maximum_version = ssl.TLSVersion.TLSv1_2
        with pytest.raises(ssl.SSLError):
            conn = http.client.HTTPSConnection("127.0.0.1", server.tls_port, timeout=10, context=tls12)
            conn.request("GET", "/")
        plain = connection(server)  # the plain listener is unchanged
        plain.request("GET", "/")
        assert plain.getresponse().read() == SEED_PAYLOAD


def alpn(port: int, ca_file) -> str | None:
    """The protocol the server picks by ALPN when offered h2 and http/1.1."""
    context = ssl.create_default_context(cafile=str(ca_file))
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            return tls.selected_alpn_protocol()


def test_h2_listener_picks_h2_and_the_https_listener_stays_on_http11():
    # The h2 bench race gets a third port; the https race's rows stay HTTP/1.1 even when a client offers h2.
    with NginxServer(tls=True, http2=True) as server:
        assert server.h2_port not in (0, server.port, server.tls_port)
        assert alpn(server.h2_port, server.ca_file) == "h2"
        assert alpn(server.tls_port, server.ca_file) == "http/1.1"
    with NginxServer(tls=True) as server:
        assert server.h2_port == 0 and alpn(server.tls_port, server.ca_file) == "http/1.1"
    with pytest.raises(ValueError, match="needs tls=True"):
        NginxServer(http2=True)
