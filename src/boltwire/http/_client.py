"""HTTPClient (asyncio) and SyncHTTPClient (blocking) over the native transport in boltwire._core."""

from __future__ import annotations

import asyncio
import base64
import datetime
import os
from typing import Any, Mapping
from urllib.parse import urlencode

from boltwire import _core
from boltwire.http._codecs import encode_json, resolve_decoder
from boltwire.http._errors import (
    HTTPConnectionError,
    HTTPResponseError,
    HTTPTimeoutError,
    HTTPTransportError,
)
from boltwire.http._response import Headers, Request

__all__ = ["HTTPClient", "SyncHTTPClient"]

_core._http_set_errors(HTTPTransportError, HTTPConnectionError, HTTPTimeoutError)


def _status_error(status: int, raw: Any, body: bytes, method: str, url: str) -> HTTPResponseError:
    return HTTPResponseError(status, Headers._from_raw(raw), body, method=method, url=url)


_core._http_set_hooks(Headers._from_raw, Headers, datetime.timedelta, Request, _status_error)

_Transport = _core._HttpTransport
_Sink = _core._HttpSink
_get_running_loop = asyncio.get_running_loop
_CancelledError = asyncio.CancelledError

_http_head = _core._http_head  # request heads: validated and written by the codec's request writer (csrc/http/codec)
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})  # sent with Content-Length: 0 when they have no body
_http_url = _core._http_url  # URL grammar, joining and encoding: csrc/http/url
_MAX_ROUTES = 4096
_VERSION = "0.1.0"

# Connection limits when none are given: 100 per origin (aiohttp's total default), and in all never more than the
# process may open (the soft RLIMIT_NOFILE less a margin for the rest of the program), so that many concurrent
# requests queue for a connection instead of failing with "Too many open files".
DEFAULT_MAX_CONNECTIONS_PER_HOST = 100
_FD_MARGIN = 64


def _default_max_connections() -> int:
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return 1024 - _FD_MARGIN
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return 65536
    return max(8, soft - _FD_MARGIN)


def _header_items(headers: Any) -> list[tuple[str, Any]]:
    """(name, value) pairs from a mapping or a sequence of pairs; names as str. Names and values are validated
    where the head is written (_http_head, the codec's request writer)."""
    items = headers.items() if isinstance(headers, Mapping) else headers
    out = []
    for name, value in items:
        if isinstance(name, (bytes, bytearray)):
            name = bytes(name).decode("latin-1")
        elif not isinstance(name, str):
            raise TypeError(f"header name must be str or bytes, got {type(name).__name__}")
        out.append((name, value))
    return out


def _encode_params(params: Any) -> str:
    pairs = []
    items = params.items() if isinstance(params, Mapping) else params
    for key, value in items:
        values = value if isinstance(value, (list, tuple)) else (value,)
        for v in values:
            if v is True:
                v = "true"
            elif v is False:
                v = "false"
            elif v is None:
                v = ""
            pairs.append((str(key), str(v)))
    return urlencode(pairs)


class _Route:
    """What one (method, url) resolves to: the origin's pool, the request head (without a body) and the URL parts."""

    __slots__ = ("origin", "head", "url", "target", "host", "auth")

    def __init__(self, origin: int, head: bytes, url: str, target: str, host: str, auth: tuple | None) -> None:
        self.origin = origin
        self.head = head  # written by the codec: default headers, URL credentials, Content-Length: 0 for POST/PUT/PATCH
        self.url = url
        self.target = target
        self.host = host  # the Host field value
        self.auth = auth  # ("Authorization", "Basic ...") from the URL's userinfo, or None


class _ClientBase:
    _is_async = False

    def __init__(
        self,
        *,
        base_url: str | None = None,
        default_headers: Mapping[str, str] | None = None,
        user_agent: str | None = None,
        timeout: float | None = 30.0,
        connect_timeout: float | None = None,
        read_timeout: float | None = None,
        write_timeout: float | None = None,
        max_connections: int | None = None,
        max_connections_per_host: int | None = None,
        pool_idle_timeout: float | None = 90.0,
        pool_max_idle_per_host: int | None = None,
        pool_timeout: float | None = None,
        bearer_token: str | None = None,
        basic_auth: tuple[str, str] | None = None,
        max_response_size: int | None = None,
        max_response_headers: int = 256,
        resolve: Mapping[str, str] | None = None,
        error_for_status: bool = True,
    ) -> None:
        self._base = None
        if base_url is not None:
            self._split_url("", base_url)  # checks base_url once (no query or fragment, http, a host)
            self._base = base_url
        for name, value in (
            ("timeout", timeout),
            ("connect_timeout", connect_timeout),
            ("read_timeout", read_timeout),
            ("write_timeout", write_timeout),
            ("pool_timeout", pool_timeout),
            ("pool_idle_timeout", pool_idle_timeout),
        ):
            if value is not None and (not isinstance(value, (int, float)) or value < 0):
                raise ValueError(f"{name} must be a non-negative number or None")
        for name, value in (
            ("max_connections", max_connections),
            ("max_connections_per_host", max_connections_per_host),
            ("pool_max_idle_per_host", pool_max_idle_per_host),
            ("max_response_size", max_response_size),
        ):
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(f"{name} must be a non-negative int or None")
        if max_connections == 0 or max_connections_per_host == 0:
            raise ValueError("max_connections and max_connections_per_host must be at least 1")
        if not isinstance(max_response_headers, int) or max_response_headers < 1:
            raise ValueError("max_response_headers must be a positive int")
        if max_connections_per_host is None:
            max_connections_per_host = DEFAULT_MAX_CONNECTIONS_PER_HOST
        if max_connections is None:
            max_connections = _default_max_connections()
        self._settings = dict(
            is_async=self._is_async,
            max_connections=max_connections or 0,
            max_connections_per_host=max_connections_per_host or 0,
            pool_max_idle_per_host=-1 if pool_max_idle_per_host is None else pool_max_idle_per_host,
            pool_idle_timeout=float(pool_idle_timeout or 0.0),
            timeout=float(timeout or 0.0),
            connect_timeout=float(connect_timeout or 0.0),
            read_timeout=float(read_timeout or 0.0),
            write_timeout=float(write_timeout or 0.0),
            pool_timeout=float(pool_timeout or 0.0),
            max_response_size=-1 if max_response_size is None else max_response_size,
            max_response_headers=max_response_headers,
        )
        headers: list[tuple[str, str]] = [("User-Agent", user_agent or f"boltwire/{_VERSION}"), ("Accept", "*/*")]
        if bearer_token is not None:
            headers.append(("Authorization", f"Bearer {bearer_token}"))
        if basic_auth is not None:
            user, password = basic_auth
            token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            headers.append(("Authorization", f"Basic {token}"))
        if default_headers:
            extra = _header_items(default_headers)
            names = {n.lower() for n, _ in extra}
            headers = [h for h in headers if h[0].lower() not in names] + extra
        _http_head("GET", "/", "localhost", headers, None)  # validates the default headers once (ValueError)
        self._default_headers = headers
        self._resolve = dict(resolve or {})
        self._error_for_status = error_for_status
        self._transport: Any = None
        self._routes: dict[tuple[str, ...], _Route] = {}
        self._origins: dict[tuple[str, int], int] = {}
        self._decoders: dict[Any, Any] = {}

    # ---- URLs and heads ---------------------------------------------------------------------------------------

    @staticmethod
    def _split_url(url: str, base: str | None, params: str | None = None) -> list:
        """[host, port, host_header, target, full url, credentials] of a request URL, from csrc/http/url: parsed
        (RFC 3986), joined to base_url (appended to its path, as httpx does), dot segments removed, params added to
        the query, percent-encoded; the fragment dropped; userinfo only as credentials (percent-decoded bytes)."""
        https, *parts = _http_url(url, base, params)
        if https:
            raise ValueError(f"https is not supported yet: {parts[4]!r}")
        return parts

    def _origin_id(self, host: str, port: int) -> int:
        key = (host, port)
        oid = self._origins.get(key)
        if oid is None:
            connect_host = self._resolve.get(host, host)
            oid = self._origins[key] = self._transport.origin(host, port, connect_host)
        return oid

    def _route(self, method: str, url: str, params: str | None = None) -> _Route:
        host, port, host_header, target, full, credentials = self._split_url(url, self._base, params)
        headers = self._default_headers
        auth = None
        if credentials is not None and all(n.lower() != "authorization" for n, _ in headers):
            auth = ("Authorization", "Basic " + base64.b64encode(credentials).decode("ascii"))  # from user:password@
            headers = headers + [auth]
        head = _http_head(method, target, host_header, headers, 0 if method in _BODY_METHODS else None)
        route = _Route(self._origin_id(host, port), head, full, target, host_header, auth)
        routes = self._routes
        if len(routes) >= _MAX_ROUTES:
            routes.clear()
        routes[(method, url) if params is None else (method, url, params)] = route
        return route

    def _prepare(
        self, method: str, url: str, params: Any, headers: Any, json: Any, content: Any, data: Any
    ) -> tuple[int, bytes, bytes | None, str]:
        """The slow path: (origin, head, body, full url) for a request with params, headers or a body."""
        if self._transport is None:
            raise RuntimeError("the client is not open; use it as a context manager")
        if params:  # added to the query (before any fragment) by csrc/http/url
            query = _encode_params(params)
            route = self._routes.get((method, url, query)) or self._route(method, url, query)
        else:
            route = self._routes.get((method, url)) or self._route(method, url)
        body: bytes | None = None
        content_type = None
        given = (json is not None) + (content is not None) + (data is not None)
        if given > 1:
            raise TypeError("pass at most one of json=, content=, data=")
        if json is not None:
            body = encode_json(json)
            content_type = "application/json"
        elif content is not None:
            if isinstance(content, str):
                body = content.encode("utf-8")
                content_type = "text/plain; charset=utf-8"
            elif isinstance(content, (bytes, bytearray, memoryview)):
                body = bytes(content)
            else:
                raise TypeError(f"content must be bytes or str, got {type(content).__name__}")
        elif data is not None:
            body = _encode_params(data).encode("ascii")
            content_type = "application/x-www-form-urlencoded"
        if not headers and body is None:
            return route.origin, route.head, None, route.url
        items = self._default_headers if route.auth is None else self._default_headers + [route.auth]
        if headers:
            given_items = _header_items(headers)
            names = {n.lower() for n, _ in given_items}
            items = [h for h in items if h[0].lower() not in names] + given_items
            if "content-type" in names:
                content_type = None
        if content_type is not None:
            items = items + [("Content-Type", content_type)]
        length = len(body) if body is not None else (0 if method in _BODY_METHODS else None)
        return route.origin, _http_head(method, route.target, route.host, items, length), body, route.url

    def _response_spec(self, tp: Any, error_for_status: bool | None) -> tuple[Any, bool]:
        """(body decoder, raise for status >= 400) of one call."""
        try:
            dec = self._decoders[tp]
        except (KeyError, TypeError):
            dec = self._decoder(tp)
        return dec, self._error_for_status if error_for_status is None else error_for_status

    def _decoder(self, tp: Any) -> Any:
        """The body decoder for response_data_type `tp` (None: bytes, made by the transport), cached per type."""
        try:
            return self._decoders[tp]
        except KeyError:
            dec = self._decoders[tp] = None if tp is bytes else resolve_decoder(tp)
            return dec
        except TypeError:  # unhashable type spec
            return resolve_decoder(tp)

    def _new_transport(self) -> Any:
        self._routes.clear()
        self._origins.clear()
        return _Transport(**self._settings)

    @property
    def is_open(self) -> bool:
        return self._transport is not None

    def _stats(self) -> tuple[int, int]:
        """(open connections, idle connections); for tests."""
        if self._transport is None:
            raise RuntimeError("the client is not open")
        return self._transport.stats()


_VERB_DOC = "Send a {method} request; returns Response[T] (T = response_data_type, bytes by default)."


async def _retire_sink(loop: Any, sink: Any) -> None:
    """On `loop`: let the tasks of requests failed by close() see their errors (bounded: 1 s), then stop watching."""
    for _ in range(1000):
        if not sink.outstanding():
            break
        await asyncio.sleep(0.001)
    sink.drain()
    loop.remove_reader(sink.fileno())


class HTTPClient(_ClientBase):
    """An asyncio HTTP/1.1 client on boltwire's native transport. Use ``async with HTTPClient(...) as client``.

    One client may serve several event loops at once (for example one per thread): each loop gets its own
    completion sink, watched by that loop; closing the client closes them all."""

    _is_async = True

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._sinks: dict[Any, Any] = {}  # loop -> its _HttpSink
        self._current: tuple[Any, Any] = (None, None)  # (loop, sink) of the last call: one attribute, read atomically
        self._pid = os.getpid()

    async def __aenter__(self) -> "HTTPClient":
        self.open()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    def open(self) -> None:
        if self._transport is None:
            self._transport = self._new_transport()
            self._bind(_get_running_loop())

    def _bind(self, loop: Any) -> tuple[Any, Any]:
        """The (loop, sink) pair for `loop`, making the loop's sink on its first call."""
        if self._pid != os.getpid():
            # A forked child: the parent's loops and sinks are not ours (their epoll sets are shared with the
            # parent), so forget them without touching them.
            self._sinks = {}
            self._pid = os.getpid()
        sink = self._sinks.get(loop)
        if sink is None:
            for old in [lp for lp in self._sinks if lp.is_closed()]:
                del self._sinks[old]  # a closed loop's reader went away with the loop
            sink = _Sink(loop)
            loop.add_reader(sink.fileno(), sink.drain)
            self._sinks[loop] = sink
        current = self._current = (loop, sink)
        return current

    async def aclose(self) -> None:
        if self._transport is None:
            return
        self._transport.close()  # the engine fails requests still in flight with HTTPTransportError
        self._transport = None
        sinks, self._sinks = self._sinks, {}
        self._current = (None, None)
        if self._pid != os.getpid():
            return
        here = _get_running_loop()
        for loop, sink in sinks.items():
            if loop.is_closed():
                continue
            if loop is here:
                await _retire_sink(loop, sink)
            else:
                try:
                    asyncio.run_coroutine_threadsafe(_retire_sink(loop, sink), loop)
                except RuntimeError:  # that loop is shutting down
                    pass

    def _call(self, method: str, url: str, params: Any, headers: Any, json: Any, content: Any, data: Any,
              timeout: Any, tp: Any, error_for_status: bool | None) -> Any:
        """Submits the request; the returned call resolves to the Response (decoded and checked natively)."""
        t = self._transport
        if t is None:
            raise RuntimeError("the client is not open; use it as `async with HTTPClient() as client`")
        loop = _get_running_loop()
        current = self._current
        if current[0] is not loop:
            current = self._bind(loop)
        dec, raises = self._response_spec(tp, error_for_status)
        if params is None and headers is None and json is None and content is None and data is None:
            route = self._routes.get((method, url)) or self._route(method, url)
            return t.submit(current[1], route.origin, method, route.head, None, timeout, dec, raises, route.url)
        origin, head, body, full = self._prepare(method, url, params, headers, json, content, data)
        return t.submit(current[1], origin, method, head, body, timeout, dec, raises, full)

    async def request(self, method: str, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
                      content: Any = None, data: Any = None, timeout: float | None = None,
                      error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        call = self._call(method.upper(), url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)
        try:
            return await call
        except _CancelledError:
            call.cancel()
            raise

    async def get(self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
                  error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        call = self._call("GET", url, params, headers, None, None, None, timeout, response_data_type,
                          error_for_status)
        try:
            return await call
        except _CancelledError:
            call.cancel()
            raise

    async def head(self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
                   error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        call = self._call("HEAD", url, params, headers, None, None, None, timeout, response_data_type,
                          error_for_status)
        try:
            return await call
        except _CancelledError:
            call.cancel()
            raise

    async def options(self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
                      error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        call = self._call("OPTIONS", url, params, headers, None, None, None, timeout, response_data_type,
                          error_for_status)
        try:
            return await call
        except _CancelledError:
            call.cancel()
            raise

    async def delete(self, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
                     content: Any = None, data: Any = None, timeout: float | None = None,
                     error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        call = self._call("DELETE", url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)
        try:
            return await call
        except _CancelledError:
            call.cancel()
            raise

    async def post(self, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
                   content: Any = None, data: Any = None, timeout: float | None = None,
                   error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        call = self._call("POST", url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)
        try:
            return await call
        except _CancelledError:
            call.cancel()
            raise

    async def put(self, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
                  content: Any = None, data: Any = None, timeout: float | None = None,
                  error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        call = self._call("PUT", url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)
        try:
            return await call
        except _CancelledError:
            call.cancel()
            raise

    async def patch(self, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
                    content: Any = None, data: Any = None, timeout: float | None = None,
                    error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        call = self._call("PATCH", url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)
        try:
            return await call
        except _CancelledError:
            call.cancel()
            raise


class SyncHTTPClient(_ClientBase):
    """A blocking HTTP/1.1 client; each calling thread does its own I/O with the GIL released. Thread-safe."""

    _is_async = False

    def __enter__(self) -> "SyncHTTPClient":
        self.open()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def open(self) -> None:
        if self._transport is None:
            self._transport = self._new_transport()

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()
            self._transport = None

    def _send(self, method: str, url: str, params: Any, headers: Any, json: Any, content: Any, data: Any,
              timeout: Any, tp: Any, error_for_status: bool | None) -> Any:
        """Runs the request on this thread; returns the Response (decoded and checked natively)."""
        t = self._transport
        if t is None:
            raise RuntimeError("the client is not open; use it as `with SyncHTTPClient() as client`")
        dec, raises = self._response_spec(tp, error_for_status)
        if params is None and headers is None and json is None and content is None and data is None:
            route = self._routes.get((method, url)) or self._route(method, url)
            return t.send(route.origin, method, route.head, None, timeout, dec, raises, route.url)
        origin, head, body, full = self._prepare(method, url, params, headers, json, content, data)
        return t.send(origin, method, head, body, timeout, dec, raises, full)

    def request(self, method: str, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
                content: Any = None, data: Any = None, timeout: float | None = None,
                error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        return self._send(method.upper(), url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)

    def get(self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
            error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        return self._send("GET", url, params, headers, None, None, None, timeout, response_data_type,
                          error_for_status)

    def head(self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
             error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        return self._send("HEAD", url, params, headers, None, None, None, timeout, response_data_type,
                          error_for_status)

    def options(self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
                error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        return self._send("OPTIONS", url, params, headers, None, None, None, timeout, response_data_type,
                          error_for_status)

    def delete(self, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
               content: Any = None, data: Any = None, timeout: float | None = None,
               error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        return self._send("DELETE", url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)

    def post(self, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
             content: Any = None, data: Any = None, timeout: float | None = None,
             error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        return self._send("POST", url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)

    def put(self, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
            content: Any = None, data: Any = None, timeout: float | None = None,
            error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        return self._send("PUT", url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)

    def patch(self, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
              content: Any = None, data: Any = None, timeout: float | None = None,
              error_for_status: bool | None = None, response_data_type: Any = bytes) -> Any:
        return self._send("PATCH", url, params, headers, json, content, data, timeout, response_data_type,
                          error_for_status)
