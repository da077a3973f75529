"""HTTP exceptions: transport failures (connection, timeout, malformed response) and error statuses."""

from __future__ import annotations

from typing import Any, Generic, TypeVar, get_args, get_origin

from boltwire._errors import BoltwireError

__all__ = [
    "HTTPConnectionError",
    "HTTPError",
    "HTTPRedirectError",
    "HTTPResponseError",
    "HTTPTLSError",
    "HTTPTimeoutError",
    "HTTPTransportError",
]

_BODY_START = 100  # bytes of the body kept in body_start and shown in the message (lothc's figure)

E = TypeVar("E")


class HTTPError(BoltwireError):
    """Base class of every error the HTTP client raises on purpose."""


class HTTPTransportError(HTTPError):
    """The request did not produce a response: connection failure, timeout, or a malformed response.
    ``attempts`` is how many times it was sent (more than 1 after retries)."""

    attempts = 1


class HTTPConnectionError(HTTPTransportError):
    """DNS failure, connection refused or reset, or the server closed the connection before answering."""


class HTTPTLSError(HTTPConnectionError):
    """The TLS handshake or connection failed; the message says why (untrusted or expired certificate, host name
    mismatch, no common TLS version, client certificate required, ...) with OpenSSL's own words."""


class HTTPRedirectError(HTTPTransportError):
    """Redirects did not end: more than ``max_redirects``, a loop (the same request again, when no cookie store can
    change the answer), or a Location that cannot be followed. ``history`` holds the redirect responses received
    (status, headers, url), oldest first."""

    def __init__(self, message: str, history: Any = ()) -> None:
        super().__init__(message)
        self.history = list(history)

    def __reduce__(self) -> Any:  # Responses do not pickle: each hop travels as its parts
        hops = [(r.status, r.headers.items(), r.url, r.request.method, r.data) for r in self.history]
        return (_rebuild_redirect_error, (type(self), str(self), hops))


def _rebuild_redirect_error(cls: type, message: str, hops: list) -> HTTPRedirectError:
    from boltwire.http._response import Response

    return cls(message, [Response(s, data, headers=h, url=url, method=m) for s, h, url, m, data in hops])


class HTTPTimeoutError(HTTPTransportError):
    """A timeout expired; ``kind`` is one of "connect", "read", "write", "pool", "total"."""

    def __init__(self, message: str, kind: str = "total") -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> Any:
        return (type(self), (str(self), self.kind))


class HTTPResponseError(HTTPError, Generic[E]):
    """A response with status >= 400 while ``error_for_status`` was on.

    ``request`` is the RequestInfo sent; ``headers`` the response's; ``body`` all of it, ``body_start`` its first 100
    bytes (``body_text`` as str). ``error`` (also ``parsed_body``) is the body decoded: as ``E`` when the class pins
    it (``class APIError(HTTPResponseError[Problem]): ...`` passed as ``raises=``) or as ``error_type=``, otherwise
    a JSON object (dict) or None. When decoding as ``E`` failed, ``parse_error`` holds why (a ValueError) and
    ``error`` falls back to the JSON object or None. ``attempts`` counts sends (more than 1 after retries).

    Constructor: lothc's ``(status, body, request, error=None, *, headers=None, parse_error=None)``; the earlier
    ``(status, headers, body, *, method=, url=)`` is still accepted."""

    attempts = 1
    history: Any = ()  # the redirect responses before the one that failed (a list, set when there were any)

    def __init__(self, status: int, body: Any, request: Any = None, error: Any = None, *, headers: Any = None,
                 parse_error: ValueError | None = None, method: str | None = None, url: str | None = None) -> None:
        from boltwire.http._response import CaseInsensitiveDict, RequestInfo

        if not isinstance(body, (bytes, bytearray)) and isinstance(request, (bytes, bytearray)):
            body, headers, request = request, body, None  # the earlier (status, headers, body) shape
        body = bytes(body)
        if request is None:
            request = RequestInfo(method or "", url or "", "", None)
        self.status = status
        self.body = body
        self.body_start = body[:_BODY_START]
        self.request = request
        self.error = error
        self.parse_error = parse_error
        self.headers = headers if isinstance(headers, CaseInsensitiveDict) else CaseInsensitiveDict(headers)
        snippet = self.body_start.decode("utf-8", "replace") + ("…" if len(body) > _BODY_START else "")
        where = f" for {request.method} {request.url}" if request.method or request.url else ""
        super().__init__(f"HTTP status {status}{where}: {snippet}")

    @property
    def parsed_body(self) -> Any:
        """The decoded body (the same as ``error``)."""
        return self.error

    @property
    def method(self) -> str:
        return self.request.method

    @property
    def url(self) -> str:
        return self.request.url

    @property
    def body_text(self) -> str:
        """The whole body as text (UTF-8, invalid bytes replaced)."""
        return self.body.decode("utf-8", "replace")

    def __reduce__(self) -> Any:
        return (_rebuild_response_error,
                (type(self), self.status, self.body, self.request, self.error, self.headers, self.attempts))


def _rebuild_response_error(cls: type, status: int, body: bytes, request: Any, error: Any, headers: Any,
                            attempts: int = 1) -> HTTPResponseError:
    e = cls(status, body, request, error, headers=headers)
    if attempts != 1:
        e.attempts = attempts
    return e


def pinned_error_type(cls: type, bindings: dict | None = None) -> tuple[Any, ...]:
    """(E,) for the E that `cls` (an HTTPResponseError subclass) pins, walking its bases as written (type parameters
    bound along the way carried down: class Final(Base[Problem]) with class Base(HTTPResponseError[T])); ()."""
    bindings = bindings or {}
    for base in cls.__dict__.get("__orig_bases__", cls.__bases__):
        origin = get_origin(base)
        args = tuple(bindings.get(a, a) if isinstance(a, TypeVar) else a for a in get_args(base))
        if origin is HTTPResponseError:
            (form,) = args
            if isinstance(form, TypeVar):
                raise TypeError(f"{cls.__qualname__} leaves HTTPResponseError's error type unbound ({form!r}); pin "
                                f"it: class {cls.__name__}(HTTPResponseError[YourErrorType]): ...")
            return (form,)
        parent = origin if origin is not None else base
        if isinstance(parent, type) and issubclass(parent, HTTPResponseError) and parent is not HTTPResponseError:
            params = getattr(parent, "__parameters__", ())
            found = pinned_error_type(parent, dict(zip(params, args)))
            if found:
                return found
    return ()
