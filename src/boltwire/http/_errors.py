"""HTTP exceptions: transport failures (connection, timeout, malformed response) and error statuses."""

from __future__ import annotations

from typing import Any

from boltwire._errors import BoltwireError

__all__ = [
    "HTTPConnectionError",
    "HTTPError",
    "HTTPResponseError",
    "HTTPTLSError",
    "HTTPTimeoutError",
    "HTTPTransportError",
]

_BODY_START = 200


class HTTPError(BoltwireError):
    """Base class of every error the HTTP client raises on purpose."""


class HTTPTransportError(HTTPError):
    """The request did not produce a response: connection failure, timeout, or a malformed response."""


class HTTPConnectionError(HTTPTransportError):
    """DNS failure, connection refused or reset, or the server closed the connection before answering."""


class HTTPTLSError(HTTPConnectionError):
    """The TLS handshake or connection failed; the message says why (untrusted or expired certificate, host name
    mismatch, no common TLS version, client certificate required, ...) with OpenSSL's own words."""


class HTTPTimeoutError(HTTPTransportError):
    """A timeout expired; ``kind`` is one of "connect", "read", "write", "pool", "total"."""

    def __init__(self, message: str, kind: str = "total") -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> Any:
        return (type(self), (str(self), self.kind))


class HTTPResponseError(HTTPError):
    """A response with status >= 400 while ``error_for_status`` was on."""

    def __init__(self, status: int, headers: Any, body: bytes, *, method: str = "", url: str = "") -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.method = method
        self.url = url
        self.body_start = body[:_BODY_START].decode("utf-8", "replace")
        where = f" for {method} {url}" if method or url else ""
        super().__init__(f"HTTP status {status}{where}: {self.body_start!r}")

    def __reduce__(self) -> Any:
        return (_rebuild_response_error, (self.status, self.headers, self.body, self.method, self.url))


def _rebuild_response_error(status: int, headers: Any, body: bytes, method: str, url: str) -> HTTPResponseError:
    return HTTPResponseError(status, headers, body, method=method, url=url)
