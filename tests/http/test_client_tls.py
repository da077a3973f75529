"""tests/http/test_client_tls.py: https against nginx TLS listeners (certificates from trustme), sync and async.

Success (IP and name, keep-alive, big bodies both ways, concurrency), every client TLS option, and each failure as
HTTPTLSError (an HTTPConnectionError) with its message: unknown CA, expired, wrong host, no common TLS version,
client certificate required (a stdlib ssl server that refuses the handshake), plain HTTP on the port; the connect
timeout covering a stalled handshake.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import subprocess
import sys
import threading

import pytest
import trustme
from nginx_server import big_body, payload

from boltwire import HTTPClient, HTTPConnectionError, HTTPResponseError, HTTPTimeoutError, SyncHTTPClient
from boltwire.http import HTTPTLSError


def trusting(server, **options) -> SyncHTTPClient:
    return SyncHTTPClient(root_certificates=[server.ca_pem], tls_built_in_root_certs=False, **options)


def fetch(url: str, **options):
    with SyncHTTPClient(**options) as client:
        return client.get(url)


def tls_error(url: str, **options) -> str:
    with pytest.raises(HTTPTLSError) as info:
        fetch(url, **options)
    assert isinstance(info.value, HTTPConnectionError)
    return str(info.value)


# ---- success ---------------------------------------------------------------------------------------------------


def test_https_get_sync(nginx_tls):
    with trusting(nginx_tls) as client:
        for _ in range(5):
            r = client.get(nginx_tls.url + "/")
            assert r.status == 200
            assert r.data == payload()
            assert r.http_version == "HTTP/1.1"
            assert r.url == nginx_tls.url + "/"
        assert client._stats()[0] == 1  # keep-alive: one TLS connection carried them all
        assert client.get(nginx_tls.url + "/", response_data_type=dict).data["user"]["name"] == "Alice Johnson"


def test_https_by_name_and_ipv4(nginx_tls):
    port = nginx_tls.port
    with trusting(nginx_tls) as client:
        assert client.get(f"https://localhost:{port}/text").data == b"hello\n"  # SNI + DNS name check
        assert client.get(f"https://127.0.0.1:{port}/text").data == b"hello\n"  # IP address check, no SNI


def test_https_big_bodies_both_ways(nginx_tls):
    upload = bytes(range(256)) * 4096  # 1 MiB
    with trusting(nginx_tls) as client:
        r = client.get(nginx_tls.url + "/big")
        assert len(r.data) == len(big_body()) and r.data == big_body()
        assert client.post(nginx_tls.url + "/sink", content=upload).data == b'{"ok":true}'
        assert client.get(nginx_tls.url + "/").data == payload()  # the connection is still in step


def test_https_async_concurrent(nginx_tls):
    async def main():
        async with HTTPClient(root_certificates=[nginx_tls.ca_pem], tls_built_in_root_certs=False) as client:
            results = await asyncio.gather(*(client.get(nginx_tls.url + "/") for _ in range(60)))
            big = await client.get(nginx_tls.url + "/big")
            return results, big

    results, big = asyncio.run(main())
    assert all(r.status == 200 and r.data == payload() for r in results)
    assert big.data == big_body()


def test_extra_roots_add_to_the_system_store(nginx_tls):
    assert fetch(nginx_tls.url + "/", root_certificates=[nginx_tls.ca_pem]).data == payload()


def test_ssl_cert_file_is_honoured(nginx_tls, tmp_path, monkeypatch):
    bundle = tmp_path / "bundle.pem"
    bundle.write_bytes(nginx_tls.ca_pem)
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    assert fetch(nginx_tls.url + "/").data == payload()


def test_https_only(nginx, nginx_tls):
    with pytest.raises(ValueError, match="https_only"):
        fetch(nginx.url + "/", https_only=True)
    assert fetch(nginx_tls.url + "/", https_only=True, root_certificates=[nginx_tls.ca_pem]).data == payload()


def test_version_bounds_that_fit(nginx_tls):
    ca = [nginx_tls.ca_pem]
    assert fetch(nginx_tls.url + "/", root_certificates=ca, max_tls_version="TLSv1.2").status == 200
    assert fetch(nginx_tls.url + "/", root_certificates=ca, min_tls_version="TLSv1.3").status == 200
    assert fetch(nginx_tls.tls12_url + "/", root_certificates=ca).status == 200


def test_tls_version_says_what_answered(nginx, nginx_tls):
    ca = [nginx_tls.ca_pem]
    assert fetch(nginx_tls.url + "/", root_certificates=ca).tls_version == "TLSv1.3"
    assert fetch(nginx_tls.url + "/", root_certificates=ca, max_tls_version="TLSv1.2").tls_version == "TLSv1.2"
    assert fetch(nginx_tls.tls12_url + "/", root_certificates=ca).tls_version == "TLSv1.2"
    assert fetch(nginx.url + "/").tls_version is None  # plain http

    async def main():
        async with HTTPClient(root_certificates=ca) as client:
            first = await client.get(nginx_tls.url + "/")
            again = await client.get(nginx_tls.url + "/")  # a reused connection says it too
            plain = await client.get(nginx.url + "/")
            return first, again, plain

    first, again, plain = asyncio.run(main())
    assert (first.tls_version, again.tls_version, plain.tls_version) == ("TLSv1.3", "TLSv1.3", None)


def test_tls_version_of_a_hand_made_response():
    from boltwire.http import Response

    assert Response(200).tls_version is None
    assert Response(200, tls_version="TLSv1.3").tls_version == "TLSv1.3"
    with pytest.raises(TypeError, match="tls_version"):
        Response(200, tls_version=13)


# ---- failures --------------------------------------------------------------------------------------------------


def test_unknown_ca(nginx_tls):
    text = tls_error(nginx_tls.url + "/", root_certificates=[nginx_tls.other_ca_pem], tls_built_in_root_certs=False)
    assert "certificate is not trusted (unknown issuer or self-signed)" in text
    assert "unable to get local issuer certificate" in text  # OpenSSL's verify result
    # The system store alone does not know the test CA either.
    assert "certificate is not trusted" in tls_error(nginx_tls.url + "/")


def test_expired_certificate(nginx_tls):
    text = tls_error(nginx_tls.expired_url + "/", root_certificates=[nginx_tls.ca_pem])
    assert text.startswith("certificate has expired")
    # danger_accept_invalid_certs turns the whole check off.
    assert fetch(nginx_tls.expired_url + "/", danger_accept_invalid_certs=True).data == payload()


def test_wrong_host(nginx_tls):
    url = f"https://wrong.example:{nginx_tls.port}/"
    options = dict(root_certificates=[nginx_tls.ca_pem], resolve={"wrong.example": "127.0.0.1"})
    assert "certificate does not match the host name: hostname mismatch" in tls_error(url, **options)
    assert fetch(url, danger_accept_invalid_hostnames=True, **options).data == payload()
    # ... which checks the chain still.
    text = tls_error(url, danger_accept_invalid_hostnames=True, resolve={"wrong.example": "127.0.0.1"},
                     root_certificates=[nginx_tls.other_ca_pem], tls_built_in_root_certs=False)
    assert "certificate is not trusted" in text


def test_no_common_version(nginx_tls):
    text = tls_error(nginx_tls.tls12_url + "/", root_certificates=[nginx_tls.ca_pem], min_tls_version="TLSv1.3")
    assert text.startswith("no TLS version in common with the server")


def test_mtls_with_nginx(nginx_tls):
    # nginx completes the handshake either way and judges the certificate itself: 400 without a good one.
    ca = [nginx_tls.ca_pem]
    assert fetch(nginx_tls.mtls_url + "/", root_certificates=ca, identity_pem=nginx_tls.client_pem).data == payload()
    with pytest.raises(HTTPResponseError) as missing:
        fetch(nginx_tls.mtls_url + "/", root_certificates=ca)
    assert missing.value.status == 400 and b"No required SSL certificate was sent" in missing.value.body
    with pytest.raises(HTTPResponseError) as untrusted:
        fetch(nginx_tls.mtls_url + "/", root_certificates=ca, identity_pem=nginx_tls.other_client_pem)
    assert untrusted.value.status == 400 and b"SSL certificate error" in untrusted.value.body


class StdlibTlsServer:
    """A stdlib ssl server in one thread (each accept waits at most 10 s) that answers every request with
    `respond(tls_socket)`; with `require_client_certificate` the handshake fails without one."""

    def __init__(self, ca: trustme.CA, respond, require_client_certificate: bool = False) -> None:
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ca.issue_cert("127.0.0.1").configure_cert(self.context)
        if require_client_certificate:
            ca.configure_trust(self.context)
            self.context.verify_mode = ssl.CERT_REQUIRED
        self.respond = respond
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(10)
        self.url = f"https://127.0.0.1:{self.listener.getsockname()[1]}/"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            conn.settimeout(10)
            try:
                tls = self.context.wrap_socket(conn, server_side=True)
                tls.recv(65536)
                self.respond(tls)
            except (ssl.SSLError, OSError):
                pass
            finally:
                conn.close()

    def close(self) -> None:
        self.listener.close()
        self.thread.join(timeout=10)


def answer_ok(tls: ssl.SSLSocket) -> None:
    tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
    tls.unwrap()


def test_client_certificate_required_by_the_handshake():
    ca = trustme.CA()
    server = StdlibTlsServer(ca, answer_ok, require_client_certificate=True)
    roots = [ca.cert_pem.bytes()]
    try:
        text = tls_error(server.url, root_certificates=roots)
        assert text == "the server requires a client certificate: tlsv13 alert certificate required"
        text = tls_error(server.url, root_certificates=roots, max_tls_version="TLSv1.2")
        assert text.startswith("the server refused the TLS handshake")  # TLS 1.2: handshake_failure
        identity = ca.issue_cert("client.example").private_key_and_cert_chain_pem.bytes()
        assert fetch(server.url, root_certificates=roots, identity_pem=identity).data == b"ok"
    finally:
        server.close()


@pytest.mark.parametrize("close_notify", [True, False])
def test_body_delimited_by_close_needs_close_notify(close_notify):
    # HTTP/1.0 without Content-Length: only the end of the TLS stream ends the body. Without close_notify an
    # attacker could have cut it short, so the client refuses it (as rustls-based clients do).
    def respond(tls: ssl.SSLSocket) -> None:
        tls.sendall(b"HTTP/1.0 200 OK\r\n\r\nthe whole body")
        if close_notify:
            tls.unwrap()

    ca = trustme.CA()
    server = StdlibTlsServer(ca, respond)
    try:
        if close_notify:
            assert fetch(server.url, root_certificates=[ca.cert_pem.bytes()]).data == b"the whole body"
        else:
            text = tls_error(server.url, root_certificates=[ca.cert_pem.bytes()])
            assert text.startswith("connection closed without TLS close_notify (response may be truncated)")
    finally:
        server.close()


def test_plain_http_on_an_https_url(nginx):
    text = tls_error(f"https://127.0.0.1:{nginx.port}/")
    assert text.startswith("the server did not answer with TLS: wrong version number")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_connect_timeout_covers_a_stalled_handshake(mode):
    # The kernel completes the TCP handshake from the backlog; nobody ever answers the ClientHello.
    with socket.create_server(("127.0.0.1", 0), backlog=8) as silent:
        url = f"https://127.0.0.1:{silent.getsockname()[1]}/"
        with pytest.raises(HTTPTimeoutError) as info:
            if mode == "sync":
                fetch(url, connect_timeout=0.3, timeout=10)
            else:
                async def main():
                    async with HTTPClient(connect_timeout=0.3, timeout=10) as client:
                        await client.get(url)

                asyncio.run(main())
    assert info.value.kind == "connect"
    assert "TLS handshake" in str(info.value)


# ---- configuration ---------------------------------------------------------------------------------------------


def test_bad_tls_options():
    with pytest.raises(ValueError, match="min_tls_version"):
        SyncHTTPClient(min_tls_version="TLSv1.0")
    with pytest.raises(TypeError, match="root_certificates"):
        SyncHTTPClient(root_certificates=b"not a list")
    with pytest.raises(TypeError, match="identity_pem"):
        SyncHTTPClient(identity_pem=42)
    # PEM problems surface when the client opens (before any request).
    with pytest.raises(ValueError, match="invalid TLS configuration: root certificate is not a PEM certificate"):
        SyncHTTPClient(root_certificates=[b"garbage"]).open()
    ca = trustme.CA()
    cert_only = ca.issue_cert("client.example").cert_chain_pems[0].bytes()
    with pytest.raises(ValueError, match="identity PEM has no private key"):
        SyncHTTPClient(identity_pem=cert_only).open()
    with pytest.raises(ValueError, match="min TLS version is above max TLS version"):
        with SyncHTTPClient(min_tls_version="TLSv1.3", max_tls_version="TLSv1.2") as client:
            client.get("https://127.0.0.1:1/")


FORK_SCRIPT = """
import os, sys
from boltwire import SyncHTTPClient

url, ca = sys.argv[1], open(sys.argv[2], "rb").read()
with SyncHTTPClient(root_certificates=[ca], tls_built_in_root_certs=False) as client:
    first = client.get(url).data  # the parent's TLS connection (and session cache) exist before the fork
    pid = os.fork()
    bodies = [client.get(url).data for _ in range(50)]
    ok = first == bodies[0] and len(set(bodies)) == 1
    if pid == 0:
        os._exit(0 if ok else 3)
    _, status = os.waitpid(pid, 0)
    print("parent", ok, "child", status)
"""


def test_fork_child_opens_its_own_tls_connections(nginx_tls, tmp_path):
    # A child reusing the parent's TLS connection would corrupt both record streams (sequence numbers, keys).
    ca = tmp_path / "ca.pem"
    ca.write_bytes(nginx_tls.ca_pem)
    done = subprocess.run([sys.executable, "-c", FORK_SCRIPT, nginx_tls.url + "/", str(ca)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["parent", "True", "child", "0"]
