"""tests/http/nginx_tls_server.py: a private nginx with TLS listeners whose certificates trustme makes at start.

    with NginxTlsServer() as server:
        server.url            # "https://127.0.0.1:PORT": TLS 1.2 + 1.3, certificate for localhost, 127.0.0.1, ::1
        server.ca_pem         # the issuing CA (PEM bytes), for root_certificates=[...]
        server.expired_url    # same names, expired certificate
        server.tls12_url      # TLS 1.2 only
        server.mtls_url       # wants a client certificate from the CA (nginx answers 400 without a good one)
        server.client_pem     # a client identity (key + certificate) issued by the CA
        server.other_ca_pem, server.other_client_pem   # an unrelated CA and an identity it issued

The config is nginx/nginx_tls.conf.template; everything else (temp dir, start, stop) is NginxServer's.
"""

from __future__ import annotations

import datetime
import http.client
import ssl

import trustme
from nginx_server import HERE, NginxServer, free_port


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

    def _more_substitutions(self) -> dict[str, str]:
        self._write_certificates()
        self._write_private("expired.crt", b"".join(blob.bytes() for blob in self._expired.cert_chain_pems))
        self._write_private("expired.key", self._expired.private_key_pem.bytes())
        self.ports = {name: free_port() for name in ("EXPIRED", "TLS12", "MTLS")}
        return {f"@{name}_PORT@": str(port) for name, port in self.ports.items()}

    def _connection(self) -> http.client.HTTPConnection:
        context = ssl.create_default_context(cadata=self.ca_pem.decode("ascii"))
        return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=1, context=context)
