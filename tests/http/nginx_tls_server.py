"""tests/http/nginx_tls_server.py: a private nginx with TLS listeners whose certificates trustme makes at start.

    with NginxTlsServer() as server:
        server.url            # "https://127.0.0.1:PORT": TLS 1.2 + 1.3, certificate for localhost, 127.0.0.1, ::1
        server.ca_pem         # the issuing CA (PEM bytes), for root_certificates=[...]
        server.expired_url    # same names, expired certificate
        server.tls12_url      # TLS 1.2 only
        server.mtls_url       # wants a client certificate from the CA (nginx answers 400 without a good one)
        server.client_pem     # a client identity (key + certificate) issued by the CA
        server.other_ca_pem, server.other_client_pem   # an unrelated CA and an identity it issued
        server.h2_url         # HTTP/2 by ALPN (and http/1.1), also /huge (HUGE_SIZE bytes)
        server.h2c_url        # "http://127.0.0.1:PORT": cleartext HTTP/2, prior knowledge only
        server.h2_connections(port)   # connections that requests to that HTTP/2 listener came on so far

The config is nginx/nginx_tls.conf.template; everything else (temp dir, start, stop) is NginxServer's.
"""

from __future__ import annotations

import array
import datetime
import http.client
import os
import ssl
import sys
import time

import trustme
from nginx_server import HERE, NginxServer, free_port

HUGE_SIZE = 20 << 20  # /huge on the HTTP/2 listeners: past the client's 16 MiB connection window


def huge_body() -> bytes:
    """The bytes of /huge: each 4-byte big-endian word is its own index (as big_body())."""
    words = array.array("I", range(HUGE_SIZE // 4))
    if sys.byteorder == "little":
        words.byteswap()
    return words.tobytes()


class NginxTlsServer(NginxServer):
    template = HERE / "nginx" / "nginx_tls.conf.template"

    def __init__(self, nginx: str | None = None) -> None:
        super().__init__(workers=1, nginx=nginx)
        now = datetime.datetime.now(datetime.timezone.utc)
        self._issue_certificates()
        self._other_ca = trustme.CA()
        self._expired = self._ca.issue_cert(
            "localhost", "127.0.0.1", not_before=now - datetime.timedelta(days=30), not_after=now - datetime.timedelta(days=1)
        )
        self.other_ca_pem = self._other_ca.cert_pem.bytes()
        self.client_pem = self._ca.issue_cert("client.example").private_key_and_cert_chain_pem.bytes()
        self.other_client_pem = self._other_ca.issue_cert("client.example").private_key_and_cert_chain_pem.bytes()
        self.ports: dict[str, int] = {}

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def _url(self, name: str) -> str:
        return f"https://127.0.0.1:{self.ports[name]}"

    @property
    def expired_url(self) -> str:
        return self._url("EXPIRED")

    @property
    def tls12_url(self) -> str:
        return self._url("TLS12")

    @property
    def mtls_url(self) -> str:
        return self._url("MTLS")

    @property
    def h2_url(self) -> str:
        return self._url("H2")

    @property
    def h2c_url(self) -> str:
        return f"http://127.0.0.1:{self.ports['H2C']}"

    def h2_connections(self, port: int) -> set[str]:
        """The connection serials nginx logged for requests to the HTTP/2 listener on `port` (the log is written
        when a request ends: polled briefly so that the last lines are in)."""
        log = self.prefix / "h2_access.log"
        seen: set[str] = set()
        for _ in range(20):
            lines = log.read_text().split("\n") if log.exists() else []
            seen = {parts[1] for parts in (line.split() for line in lines) if len(parts) == 3 and parts[0] == str(port)}
            if seen:
                return seen
            time.sleep(0.05)
        return seen

    def _more_substitutions(self) -> dict[str, str]:
        self._write_certificates()
        self._write_private("expired.crt", b"".join(blob.bytes() for blob in self._expired.cert_chain_pems))
        self._write_private("expired.key", self._expired.private_key_pem.bytes())
        (self.prefix / "www" / "huge.bin").write_bytes(huge_body())
        os.chmod(self.prefix / "www" / "huge.bin", 0o644)
        self.ports = {name: free_port() for name in ("EXPIRED", "TLS12", "MTLS", "H2", "H2C")}
        return {f"@{name}_PORT@": str(port) for name, port in self.ports.items()}

    def _connection(self) -> http.client.HTTPConnection:
        context = ssl.create_default_context(cadata=self.ca_pem.decode("ascii"))
        return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=1, context=context)
