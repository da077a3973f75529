"""HTTPClient (asyncio) and SyncHTTPClient (blocking) over the native transport in boltwire._core."""

from __future__ import annotations

import asyncio
import base64
import datetime
import os
from typing import Any, Callable, Iterable, Mapping, Sequence
from urllib.parse import urlencode

from boltwire import _core
from boltwire.http._codecs import encode_json, fields_as_dict, is_typed_object, resolve_decoder
from boltwire.http._cookies import CookieJar
from boltwire.http._proxy import HTTP as _PROXY_HTTP
from boltwire.http._proxy import ProxyRules
from boltwire.http._errors import (
    HTTPConnectionError,
    HTTPTimeoutError,
    HTTPTLSError,
    HTTPTransportError,
)
from boltwire.http._policy import error_spec, status_error
from boltwire.http._redirects import _CREDENTIALS as _REDIRECT_CREDENTIALS
from boltwire.http._redirects import CROSS_ORIGIN as _CROSS_ORIGIN
from boltwire.http._redirects import RedirectSignal as _RedirectSignal
from boltwire.http._response import CaseInsensitiveDict, RequestInfo
from boltwire.http import _streaming
from boltwire.http._session import ClientPolicy, follow_async, follow_sync, run_async, run_sync
from boltwire.http._sse import sse_async, sse_sync

__all__ = ["HTTPClient", "SyncHTTPClient"]

_core._http_set_errors(HTTPTransportError, HTTPConnectionError, HTTPTimeoutError, HTTPTLSError)
_core._http_set_hooks(CaseInsensitiveDict._from_raw, CaseInsensitiveDict, datetime.timedelta, RequestInfo._from_head,
                      status_error)

_Transport = _core._HttpTransport
_Sink = _core._HttpSink
_get_running_loop = asyncio.get_running_loop

_http_head = _core._http_head  # request heads: validated and written by the codec's request writer (csrc/http/codec)
_ACCEPT_ENCODING = "gzip, deflate, br, zstd"
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})  # sent with Content-Length: 0 when they have no body
_http_url = _core._http_url  # URL grammar, joining and encoding: csrc/http/url
# The verbs' native path (csrc/http/client/fast_path.cpp): a request with a cached route and decoder is submitted
# without a Python frame of ours; anything else comes back to _call / _send.
_http_call = _core._http_call
_http_send = _core._http_send
# SyncHTTPClient's verbs are _HttpVerb objects: the keyword options each accepts, in its signature's order.
_HttpVerb = _core._HttpVerb
_READ_OPTIONS = ("params", "headers", "timeout", "error_for_status", "response_data_type", "into",
                 "response_headers_type", "error_type", "raises", "skip_auth")
_BODY_OPTIONS = ("params", "headers", "json", "content", "data", "timeout", "error_for_status", "response_data_type",
                 "into", "response_headers_type", "error_type", "raises", "skip_auth")
_UPLOAD_OPTIONS = _BODY_OPTIONS + ("form", "infer_mime_type_from_file_extension")
_MAX_ROUTES = 4096
_VERSION = "0.1.0"
_TLS_VERSIONS = {"TLSv1.2": 12, "TLSv1.3": 13}

# Connection limits when none are given: 100 per origin (aiohttp's total default), and in all never more than the
# process may open (the soft RLIMIT_NOFILE less a margin for the rest of the program), so that many concurrent
# requests queue for a connection instead of failing with "Too many open files".
DEFAULT_MAX_CONNECTIONS_PER_HOST = 100
DEFAULT_MAX_REDIRECTS = 10  # reqwest's (lothc's max_redirects=None) and httpx's default
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


def _not_text(value: Any, what: str) -> None:
    """A str or bytes is iterable but no pairs: read as pairs it was "not enough values to unpack", naming nothing."""
    if isinstance(value, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"{what}= must be a mapping or a sequence of (name, value) pairs, got {type(value).__name__}"
                        + (" (a body as it is goes in content=)" if what == "data" else ""))


def _header_items(headers: Any) -> list[tuple[str, Any]]:
    """(name, value) pairs from a mapping or a sequence of pairs; names as str. Names and values are validated
    where the head is written (_http_head, the codec's request writer)."""
    _not_text(headers, "headers")
    if isinstance(headers, Mapping):
        items = headers.items()
    elif isinstance(headers, (list, tuple)):
        items = headers
    elif is_typed_object(headers):  # a Struct, dataclass or pydantic model: its fields, None skipped, scalars as text
        items = [(n, _header_text(v)) for n, v in fields_as_dict(headers, "headers").items() if v is not None]
    else:
        items = headers
    out = []
    for name, value in items:
        if isinstance(name, (bytes, bytearray)):
            name = bytes(name).decode("latin-1")
        elif not isinstance(name, str):
            raise TypeError(f"header name must be str or bytes, got {type(name).__name__}")
        out.append((name, value))
    return out


def _header_text(value: Any) -> Any:
    if value is True or value is False:
        return "true" if value else "false"
    return str(value) if isinstance(value, (int, float)) else value


def _tls_version(name: str, value: Any) -> int:
    if value is None:
        return 0
    try:
        return _TLS_VERSIONS[value]
    except (KeyError, TypeError):
        raise ValueError(f"{name} must be 'TLSv1.2', 'TLSv1.3' or None, got {value!r}") from None


def _pem_list(value: Any) -> list[bytes] | None:
    if value is None:
        return None
    if isinstance(value, (bytes, str)) or not isinstance(value, (list, tuple)):
        raise TypeError("root_certificates must be a list of PEM bytes")
    out = []
    for pem in value:
        if isinstance(pem, str):
            pem = pem.encode("ascii")
        if not isinstance(pem, (bytes, bytearray, memoryview)):
            raise TypeError(f"each root certificate must be PEM bytes, got {type(pem).__name__}")
        out.append(bytes(pem))
    return out


def _encode_params(params: Any, what: str = "params") -> str:
    _not_text(params, what)
    pairs = []
    if isinstance(params, Mapping):
        items = params.items()
    elif isinstance(params, (list, tuple)):
        items = params
    elif is_typed_object(params):  # a Struct, dataclass or pydantic model: its fields (encoded names, builtins)
        items = fields_as_dict(params, "params / data").items()
    else:
        items = params
    for key, value in items:
        values = value if isinstance(value, (list, tuple)) else (value,)
        for v in values:
            if v is True:
                v = "true"
            elif v is False:
                v = "false"
            elif v is None:
                v = ""
            pairs.append((_form_text(key), _form_text(v)))
    return urlencode(pairs)


def _form_text(value: Any) -> str | bytes:
    """A params= / data= name or value for urlencode: bytes-like as bytes (percent-encoded as they are; str() would
    send their repr, "b'...'"), anything else as str."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    return str(value)


class _Route:
    """What one (method, url) resolves to: the origin's pool, the request head (without a body) and the URL parts."""

    __slots__ = ("origin", "head", "url", "target", "host", "auth", "proxy_auth")

    def __init__(self, origin: int, head: bytes, url: str, target: str, host: str, auth: tuple | None,
                 proxy_auth: tuple | None = None) -> None:
        self.origin = origin
        self.head = head  # written by the codec: default headers, URL credentials, Content-Length: 0 for POST/PUT/PATCH
        self.url = url
        self.target = target  # origin-form, or absolute-form through an HTTP proxy
        self.host = host  # the Host field value
        self.auth = auth  # ("Authorization", "Basic ...") from the URL's userinfo, or None
        self.proxy_auth = proxy_auth  # ("Proxy-Authorization", ...) for http:// through an HTTP proxy, or None


class _ClientBase:
    _is_async = False
    _stream_class: Any = None
    _sse_function: Any = None
    _download_function: Any = None

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
        bearer_auth: Any = None,
        basic_auth: tuple[str, str | None] | None = None,
        digest_auth: tuple[str, str] | None = None,
        max_response_size: int | None = None,
        max_response_headers: int = 256,
        decompress: bool = True,
        resolve: Mapping[str, str] | None = None,
        error_for_status: bool = True,
        root_certificates: list[bytes] | None = None,
        tls_built_in_root_certs: bool = True,
        identity_pem: bytes | None = None,
        min_tls_version: str | None = None,
        max_tls_version: str | None = None,
        danger_accept_invalid_certs: bool = False,
        danger_accept_invalid_hostnames: bool = False,
        https_only: bool = False,
        http2: bool = False,
        http2_prior_knowledge: bool = False,
        error_type: Any = None,
        raises: Any = None,
        max_retries: int = 0,
        retry_methods: Iterable[str] | None = None,
        retry_statuses: Iterable[int] | None = None,
        backoff_base: float = 0.1,
        backoff_max: float = 30.0,
        max_retry_after: float | None = 60.0,
        middleware: Sequence[Callable[..., Any]] | None = None,
        follow_redirects: bool = True,
        max_redirects: int | None = None,
        cookie_store: bool = False,
        proxy: str | None = None,
        no_proxy: Sequence[str] | None = None,
        trust_env: bool = False,
    ) -> None:
        self._https_only = bool(https_only)
        if max_redirects is None:
            max_redirects = DEFAULT_MAX_REDIRECTS
        if not isinstance(max_redirects, int) or isinstance(max_redirects, bool) or max_redirects < 0:
            raise ValueError("max_redirects must be a non-negative int or None")
        self._max_redirects = max_redirects
        if isinstance(identity_pem, str):
            identity_pem = identity_pem.encode("ascii")
        if identity_pem is not None and not isinstance(identity_pem, (bytes, bytearray, memoryview)):
            raise TypeError(f"identity_pem must be PEM bytes, got {type(identity_pem).__name__}")
        tls_settings = dict(
            tls_roots=_pem_list(root_certificates),
            tls_built_in_roots=bool(tls_built_in_root_certs),
            tls_identity=None if identity_pem is None else bytes(identity_pem),
            tls_min_version=_tls_version("min_tls_version", min_tls_version),
            tls_max_version=_tls_version("max_tls_version", max_tls_version),
            tls_accept_invalid_certs=bool(danger_accept_invalid_certs),
            tls_accept_invalid_hostnames=bool(danger_accept_invalid_hostnames),
        )
        self._base = None
        if base_url is not None:
            self._split_url("", base_url)  # checks base_url once (no query or fragment, http(s), a host)
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
            decompress=bool(decompress),
            http2=bool(http2),  # offer h2 by ALPN on https (csrc/http/h2)
            http2_prior_knowledge=bool(http2_prior_knowledge),  # h2c: HTTP/2 at once on http, no upgrade
            follow_redirects=bool(follow_redirects),
            **tls_settings,
        )
        headers: list[tuple[str, str]] = [("User-Agent", user_agent or f"boltwire/{_VERSION}"), ("Accept", "*/*")]
        if sum(a is not None for a in (bearer_token, bearer_auth, basic_auth, digest_auth)) > 1:
            raise ValueError("pass at most one of bearer_token, bearer_auth, basic_auth, digest_auth")
        if decompress:  # bodies in these codings are decoded natively (csrc/http/encoding)
            headers.append(("Accept-Encoding", _ACCEPT_ENCODING))
        if bearer_token is not None:
            headers.append(("Authorization", f"Bearer {bearer_token}"))
        if basic_auth is not None:
            user, password = basic_auth
            token = base64.b64encode(f"{user}:{'' if password is None else password}".encode()).decode("ascii")
            headers.append(("Authorization", f"Basic {token}"))
        if default_headers:
            extra = _header_items(default_headers)
            names = {n.lower() for n, _ in extra}
            headers = [h for h in headers if h[0].lower() not in names] + extra
        _http_head("GET", "/", "localhost", headers, None)  # validates the default headers once (ValueError)
        self._default_headers = headers
        self._resolve = dict(resolve or {})
        # Proxy rules, or None (then no origin is ever proxied and _route never looks).
        self._proxies = ProxyRules.make(proxy, no_proxy, trust_env)
        self._error_for_status = error_for_status
        # The status-error policy handed to the transport: True (HTTPResponseError) or an ErrorSpec (raises= /
        # error_type=); resolved here, so a bad class is a TypeError now rather than at the first error status.
        self._errors: Any = error_spec(raises, error_type, resolve_decoder) or True
        # Retries, auth providers and middleware: None when none is configured (the verbs' native path).
        # cookie_store: a jar, and every call takes the policy path (a client without one never touches cookies).
        self._cookies = CookieJar() if cookie_store else None
        self._policy = ClientPolicy.make(self._is_async, max_retries, retry_methods, retry_statuses, backoff_base,
                                         backoff_max, max_retry_after, bearer_auth, digest_auth, middleware,
                                         self._cookies)
        self._transport: Any = None
        if self._is_async:
            self._init_async()  # type: ignore[attr-defined]
        self._routes: dict[tuple[str, ...], _Route] = {}
        self._origins: dict[tuple[str, int, bool], int] = {}
        self._decoders: dict[Any, Any] = {}

    # ---- URLs and heads ---------------------------------------------------------------------------------------

    def _split_url(self, url: str, base: str | None, params: str | None = None) -> list:
        """[https, host, port, host_header, target, full url, credentials] of a request URL, from csrc/http/url:
        parsed (RFC 3986), joined to base_url (appended to its path, as httpx does), dot segments removed, params
        added to the query, percent-encoded; the fragment dropped; userinfo only as credentials (percent-decoded
        bytes). With https_only, an http URL is refused."""
        parts = _http_url(url, base, params)
        if not parts[0] and self._https_only:
            raise ValueError(f"https_only is set and the URL is not https: {parts[5]!r}")
        return parts

    def _origin_id(self, tls: bool, host: str, port: int) -> int:
        key = (host, port, tls)
        oid = self._origins.get(key)
        if oid is None:
            connect_host = self._resolve.get(host, host)
            oid = self._origins[key] = self._transport.origin(host, port, connect_host, tls)
        return oid

    def _proxied_origin(self, tls: bool, host: str, port: int) -> tuple[int, bool, tuple | None]:
        """(origin id, absolute-form?, Proxy-Authorization field or None) of an origin under the client's proxy
        rules: the transport keys its pools by the proxy and runs CONNECT / SOCKS5 itself."""
        config = self._proxies.for_origin(tls, host, port)
        if config is None:
            return self._origin_id(tls, host, port), False, None
        key = (host, port, tls)
        oid = self._origins.get(key)
        if oid is None:
            connect_host = self._resolve.get(host, host)
            # socks5:// resolves the target here, on the transport's resolver threads (never the caller's), and
            # gives the proxy the address; socks5h:// gives it the name
            oid = self._origins[key] = self._transport.origin(
                host, port, connect_host, tls, config.kind, config.host, config.port, config.authorization(),
                config.username, config.password, connect_host, config.kind != _PROXY_HTTP and not config.remote_dns)
        if config.kind != _PROXY_HTTP or tls:
            return oid, False, None  # a tunnel: the request inside it is the usual origin-form one
        auth = config.authorization()
        return oid, True, ("Proxy-Authorization", auth) if auth else None

    def _route(self, method: str, url: str, params: str | None = None) -> _Route:
        https, host, port, host_header, target, full, credentials = self._split_url(url, self._base, params)
        headers = self._default_headers
        auth = proxy_auth = None
        if credentials is not None and all(n.lower() != "authorization" for n, _ in headers):
            auth = ("Authorization", "Basic " + base64.b64encode(credentials).decode("ascii"))  # from user:password@
            headers = headers + [auth]
        if self._proxies is None:
            origin = self._origin_id(https, host, port)
        else:
            origin, absolute, proxy_auth = self._proxied_origin(https, host, port)
            if absolute:  # RFC 9112 §3.2.2: a request to an HTTP proxy names the whole URL
                target = full
            if proxy_auth is not None:
                headers = headers + [proxy_auth]
        head = _http_head(method, target, host_header, headers, 0 if method in _BODY_METHODS else None)
        route = _Route(origin, head, full, target, host_header, auth, proxy_auth)
        routes = self._routes
        if len(routes) >= _MAX_ROUTES:
            routes.clear()
        routes[(method, url) if params is None else (method, url, params)] = route
        return route

    def _prepare(
        self, method: str, url: str, params: Any, headers: Any, json: Any, content: Any, data: Any,
        skip_auth: bool = False, upload: tuple[int, str | None] | None = None,
    ) -> tuple[int, bytes, bytes | None, str]:
        """The slow path: (origin, head, body, full url) for a request with params, headers or a body (or without
        the client's Authorization, skip_auth). `upload` is (length or -1 for chunked, Content-Type or None) of a
        body streamed in pieces (_streaming.py); the head then frames it and body is None."""
        if self._transport is None:
            raise RuntimeError("the client is not open; use it as a context manager")
        if params:  # added to the query (before any fragment) by csrc/http/url
            query = _encode_params(params)
            route = self._routes.get((method, url, query)) or self._route(method, url, query)
        else:
            route = self._routes.get((method, url)) or self._route(method, url)
        if upload is None:
            body, content_type = self._encode_body(json, content, data)
        else:
            body, content_type = None, upload[1]
        if not headers and body is None and not skip_auth and upload is None:
            return route.origin, route.head, None, route.url
        items = self._default_headers if route.auth is None else self._default_headers + [route.auth]
        if skip_auth:  # a redirect to another origin drops default_headers' Cookie and Proxy-Authorization too
            drop = _REDIRECT_CREDENTIALS if skip_auth == _CROSS_ORIGIN else ("authorization",)
            items = [h for h in items if h[0].lower() not in drop]
        if route.proxy_auth is not None:  # proxy='s own credentials, for this route's proxy: kept
            items = items + [route.proxy_auth]
        if headers:
            given_items = _header_items(headers)
            names = {n.lower() for n, _ in given_items}
            items = [h for h in items if h[0].lower() not in names] + given_items
            if "content-type" in names:
                content_type = None
        if content_type is not None:
            items = items + [("Content-Type", content_type)]
        length = len(body) if body is not None else (0 if method in _BODY_METHODS else None)
        if upload is not None:
            length = upload[0]
        return route.origin, _http_head(method, route.target, route.host, items, length), body, route.url

    @staticmethod
    def _encode_body(json: Any, content: Any, data: Any) -> tuple[bytes | None, str | None]:
        """(body, its Content-Type or None) from at most one of json=, content=, data=."""
        given = (json is not None) + (content is not None) + (data is not None)
        if given > 1:
            raise TypeError("pass at most one of json=, content=, data=")
        if json is not None:
            return encode_json(json), "application/json"
        if content is not None:
            if isinstance(content, str):
                return content.encode("utf-8"), "text/plain; charset=utf-8"
            if isinstance(content, (bytes, bytearray, memoryview)):
                return bytes(content), None
            raise TypeError(f"content must be bytes or str, got {type(content).__name__}")
        if data is not None:
            return _encode_params(data, "data").encode("ascii"), "application/x-www-form-urlencoded"
        return None, None

    _header_items = staticmethod(_header_items)

    def _full_url(self, url: str, params: Any) -> str:
        """The absolute request URL: joined to base_url, params added to the query (csrc/http/url)."""
        return self._split_url(url, self._base, _encode_params(params) if params else None)[5]

    def _response_spec(self, tp: Any, error_for_status: bool | None) -> tuple[Any, Any]:
        """(body decoder, status-error policy: False, True or an ErrorSpec) of one call."""
        try:
            dec = self._decoders[tp]
        except (KeyError, TypeError):
            dec = self._decoder(tp)
        if error_for_status is None:
            error_for_status = self._error_for_status
        return dec, self._errors if error_for_status else False

    def _decoder(self, tp: Any) -> Any:
        """The body decoder for response_data_type `tp` (None: bytes, made by the transport), cached per type."""
        try:
            return self._decoders[tp]
        except KeyError:
            dec = self._decoders[tp] = None if tp is bytes else resolve_decoder(tp)
            return dec
        except TypeError:  # unhashable type spec
            return resolve_decoder(tp)

    # ---- streaming (_streaming.py, _sse.py): each client names its own stream class, download and sse drivers --

    def stream(
        self, method: str, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
        content: Any = None, data: Any = None, form: Any = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = bytes, into: Any = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False, raises: Any = None,
        error_type: Any = None,
    ) -> Any:
        """The response body as it arrives (an AsyncStream or SyncStream): iterate it for bytes chunks, or with
        response_data_type=T for one T per line (NDJSON). `timeout` bounds the wait for the head; after it only
        read_timeout applies."""
        if into is not None:
            response_data_type = _use_into(response_data_type, into)
        return self._stream_class(self, method.upper(), url, params, headers, json, content, data, form, timeout,
                                  response_data_type, error_for_status, infer_mime_type_from_file_extension,
                                  skip_auth, raises, error_type)

    def stream_get(
        self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = bytes, into: Any = None,
        skip_auth: bool = False, raises: Any = None, error_type: Any = None,
    ) -> Any:
        return self.stream("GET", url, params=params, headers=headers, timeout=timeout,
                           error_for_status=error_for_status, response_data_type=response_data_type, into=into,
                           skip_auth=skip_auth, raises=raises, error_type=error_type)

    def stream_post(
        self, url: str, *, params: Any = None, headers: Any = None, json: Any = None, content: Any = None,
        data: Any = None, form: Any = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = bytes, into: Any = None, infer_mime_type_from_file_extension: bool = True,
        skip_auth: bool = False, raises: Any = None, error_type: Any = None,
    ) -> Any:
        return self.stream("POST", url, params=params, headers=headers, json=json, content=content, data=data,
                           form=form, timeout=timeout, error_for_status=error_for_status,
                           response_data_type=response_data_type, into=into,
                           infer_mime_type_from_file_extension=infer_mime_type_from_file_extension,
                           skip_auth=skip_auth, raises=raises, error_type=error_type)

    def download(
        self, url: str, dest: Any = None, *, params: Any = None, headers: Any = None, timeout: float | None = None,
        error_for_status: bool | None = None, progress: Callable[[int, int | None], Any] | None = None,
        skip_auth: bool = False, raises: Any = None, error_type: Any = None,
    ) -> Any:
        """The body of a GET streamed into a temporary file beside `dest`, fsync'ed and renamed over `dest` (a
        failure leaves no partial file); Response.data is then `dest` as a Path. Without `dest`, the bytes.
        `progress(received, total or None)` is called as the body arrives (at most once per 256 KiB) and at the end.
        Awaitable on HTTPClient."""
        return self._download_function(self, url, dest, params, headers, timeout, error_for_status, progress,
                                       skip_auth, raises, error_type)

    def sse(
        self, url: str, response_data_type: Any = None, *, params: Any = None, headers: Any = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: Any = None, skip_auth: bool = False,
        raises: Any = None, error_type: Any = None,
    ) -> Any:
        """Server-sent events as they arrive (SSEEvent: id, event, data decoded into response_data_type when given,
        retry); an async iterator on HTTPClient. A dropped connection reconnects after the server's retry: (else
        reconnect_delay) seconds with Last-Event-ID; max_reconnects bounds reconnects in a row without an event;
        204 ends the stream."""
        if into is not None:
            response_data_type = into
        return self._sse_function(self, url, response_data_type, params, headers, timeout, error_for_status,
                                  max_reconnects, reconnect_delay, reconnect_on_close, skip_auth, raises, error_type)

    def _new_transport(self) -> Any:
        self._routes.clear()
        self._origins.clear()
        transport = _Transport(**self._settings)
        # Without a policy, plain requests skip _call / _send (not with the mocker's stand-in transport).
        if self._policy is None and type(transport) is _core._HttpTransport:
            transport.enable_fast_path(self._decoders, self._errors, self._errors if self._error_for_status else False)
        return transport

    @property
    def cookies(self) -> CookieJar:
        """The client's cookie jar (cookie_store=True): read, set and clear cookies."""
        if self._cookies is None:
            raise RuntimeError("this client has no cookie store; create it with cookie_store=True")
        return self._cookies

    @property
    def is_open(self) -> bool:
        return self._transport is not None

    def _stats(self) -> tuple[int, int]:
        """(open connections, idle connections); for tests."""
        if self._transport is None:
            raise RuntimeError("the client is not open")
        return self._transport.stats()


def _form_only(json: Any, content: Any, data: Any) -> None:
    """form= is the whole body: json=, content= and data= cannot come with it."""
    if json is not None or content is not None or data is not None:
        raise TypeError("pass at most one of json=, content=, data=, form=")
    return None


def _use_into(tp: Any, into: Any) -> Any:
    """lothc 0.2's into= for response_data_type=; both at once is a TypeError."""
    if tp is not bytes:
        raise TypeError("pass response_data_type= or into=, not both (into= is lothc's spelling)")
    return into


async def _retire_sink(loop: Any, sink: Any) -> None:
    """On `loop`: let the tasks of requests failed by close() see their errors (bounded: 1 s), then stop watching."""
    for _ in range(1000):
        if not sink.outstanding():
            break
        await asyncio.sleep(0.001)
    sink.drain()
    loop.remove_reader(sink.fileno())


class HTTPClient(_ClientBase):
    """An asyncio HTTP/1.1 (http and https) client on boltwire's native transport. Use
    ``async with HTTPClient(...) as client``.

    One client may serve several event loops at once (for example one per thread): each loop gets its own
    completion sink, watched by that loop; closing the client closes them all."""

    _is_async = True
    _stream_class = _streaming.AsyncStream
    _sse_function = staticmethod(sse_async)
    _download_function = staticmethod(_streaming.download_async)

    def _init_async(self) -> None:
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
            loop.add_reader(sink.fileno(), sink.on_ready)
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
              timeout: Any, tp: Any, error_for_status: bool | None, into: Any = None, headers_type: Any = None,
              error_type: Any = None, raises: Any = None, skip_auth: bool = False, form: Any = None,
              infer_mime_type_from_file_extension: bool = True) -> Any:
        """Submits the request; the returned call resolves to the Response (decoded and checked natively). With a
        policy (retries, auth, middleware) or per-call options, the call is the policy's coroutine instead."""
        t = self._transport
        if t is None:
            raise RuntimeError("the client is not open; use it as `async with HTTPClient() as client`")
        if into is not None:
            tp = _use_into(tp, into)
        if form is not None:  # multipart: files are streamed from disk
            return _streaming.send_async(self, method, url, params, headers, _form_only(json, content, data), form,
                                         timeout, tp, error_for_status, infer_mime_type_from_file_extension,
                                         skip_auth, raises, error_type)
        if content is not None and _streaming.is_streamed_content(content):  # an iterable body goes out in pieces
            return _streaming.send_async(self, method, url, params, headers, content, None, timeout, tp,
                                         error_for_status, True, skip_auth, raises, error_type)
        if self._policy is not None or headers_type is not None or error_type is not None or raises is not None \
                or skip_auth or type(t) is not _core._HttpTransport:
            # (a stand-in transport, boltwire.testing's: its calls are not native, so the redirect chain cannot be
            # continued inside them; the policy path follows redirects itself)
            return run_async(self, method, url, params, headers, json, content, data, timeout, tp, error_for_status,
                             headers_type, error_type, raises, skip_auth)
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

    def _submit(self, method: str, url: str, headers: Any, body: bytes | None, timeout: Any, dec: Any, raises: Any,
                skip_auth: bool) -> Any:
        """One native exchange of the policy path (url absolute; headers the call's own)."""
        t = self._transport
        if t is None:
            raise RuntimeError("the client is closed")
        loop = _get_running_loop()
        current = self._current
        if current[0] is not loop:
            current = self._bind(loop)
        origin, head, body, full = self._prepare(method, url, None, headers, None, body, None, skip_auth)
        return t.submit(current[1], origin, method, head, body, timeout, dec, raises, full)

    def _redirected(self, signal: Any, method: str, url: str, params: Any, headers: Any, json: Any, content: Any,
                    data: Any, timeout: Any, tp: Any, error_for_status: bool | None, into: Any) -> Any:
        """The rest of a redirect chain whose first response came back as `signal` (the async verbs catch it at their
        await). The policy path follows redirects itself."""
        return follow_async(self, signal, method, url, params, headers, json, content, data, timeout,
                            tp if into is None else into, error_for_status)

    async def request(
        self, method: str, url: str, *, params: Any = None, headers: Any = None, json: Any = None,
        content: Any = None, data: Any = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = bytes, into: Any = None, response_headers_type: Any = None, error_type: Any = None,
        raises: Any = None, skip_auth: bool = False, form: Any = None,
        infer_mime_type_from_file_extension: bool = True,
    ) -> Any:
        try:
            return await _http_call(
                self, method.upper(), url, params, headers, json, content, data, timeout, response_data_type,
                error_for_status, into, response_headers_type, error_type, raises, skip_auth, form,
                infer_mime_type_from_file_extension
            )
        except _RedirectSignal as signal:  # follow_redirects: the rest of the chain
            return await self._redirected(
                signal, method.upper(), url, params, headers, json, content, data, timeout, response_data_type,
                error_for_status, into
            )

    async def get(
        self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = bytes, into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: Any = None, skip_auth: bool = False,
    ) -> Any:
        try:
            return await _http_call(
                self, "GET", url, params, headers, None, None, None, timeout, response_data_type, error_for_status,
                into, response_headers_type, error_type, raises, skip_auth, None, True
            )
        except _RedirectSignal as signal:  # follow_redirects: the rest of the chain
            return await self._redirected(
                signal, "GET", url, params, headers, None, None, None, timeout, response_data_type, error_for_status,
                into
            )

    async def head(
        self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = bytes, into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: Any = None, skip_auth: bool = False,
    ) -> Any:
        try:
            return await _http_call(
                self, "HEAD", url, params, headers, None, None, None, timeout, response_data_type, error_for_status,
                into, response_headers_type, error_type, raises, skip_auth, None, True
            )
        except _RedirectSignal as signal:  # follow_redirects: the rest of the chain
            return await self._redirected(
                signal, "HEAD", url, params, headers, None, None, None, timeout, response_data_type, error_for_status,
                into
            )

    async def options(
        self, url: str, *, params: Any = None, headers: Any = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = bytes, into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: Any = None, skip_auth: bool = False,
    ) -> Any:
        try:
            return await _http_call(
                self, "OPTIONS", url, params, headers, None, None, None, timeout, response_data_type, error_for_status,
                into, response_headers_type, error_type, raises, skip_auth, None, True
            )
        except _RedirectSignal as signal:  # follow_redirects: the rest of the chain
            return await self._redirected(
                signal, "OPTIONS", url, params, headers, None, None, None, timeout, response_data_type,
                error_for_status, into
            )

    async def delete(
        self, url: str, *, params: Any = None, headers: Any = None, json: Any = None, content: Any = None,
        data: Any = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = bytes, into: Any = None, response_headers_type: Any = None, error_type: Any = None,
        raises: Any = None, skip_auth: bool = False,
    ) -> Any:
        try:
            return await _http_call(
                self, "DELETE", url, params, headers, json, content, data, timeout, response_data_type,
                error_for_status, into, response_headers_type, error_type, raises, skip_auth, None, True
            )
        except _RedirectSignal as signal:  # follow_redirects: the rest of the chain
            return await self._redirected(
                signal, "DELETE", url, params, headers, json, content, data, timeout, response_data_type,
                error_for_status, into
            )

    async def post(
        self, url: str, *, params: Any = None, headers: Any = None, json: Any = None, content: Any = None,
        data: Any = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = bytes, into: Any = None, response_headers_type: Any = None, error_type: Any = None,
        raises: Any = None, skip_auth: bool = False, form: Any = None,
        infer_mime_type_from_file_extension: bool = True,
    ) -> Any:
        try:
            return await _http_call(
                self, "POST", url, params, headers, json, content, data, timeout, response_data_type, error_for_status,
                into, response_headers_type, error_type, raises, skip_auth, form, infer_mime_type_from_file_extension
            )
        except _RedirectSignal as signal:  # follow_redirects: the rest of the chain
            return await self._redirected(
                signal, "POST", url, params, headers, json, content, data, timeout, response_data_type,
                error_for_status, into
            )

    async def put(
        self, url: str, *, params: Any = None, headers: Any = None, json: Any = None, content: Any = None,
        data: Any = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = bytes, into: Any = None, response_headers_type: Any = None, error_type: Any = None,
        raises: Any = None, skip_auth: bool = False, form: Any = None,
        infer_mime_type_from_file_extension: bool = True,
    ) -> Any:
        try:
            return await _http_call(
                self, "PUT", url, params, headers, json, content, data, timeout, response_data_type, error_for_status,
                into, response_headers_type, error_type, raises, skip_auth, form, infer_mime_type_from_file_extension
            )
        except _RedirectSignal as signal:  # follow_redirects: the rest of the chain
            return await self._redirected(
                signal, "PUT", url, params, headers, json, content, data, timeout, response_data_type, error_for_status,
                into
            )

    async def patch(
        self, url: str, *, params: Any = None, headers: Any = None, json: Any = None, content: Any = None,
        data: Any = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = bytes, into: Any = None, response_headers_type: Any = None, error_type: Any = None,
        raises: Any = None, skip_auth: bool = False, form: Any = None,
        infer_mime_type_from_file_extension: bool = True,
    ) -> Any:
        try:
            return await _http_call(
                self, "PATCH", url, params, headers, json, content, data, timeout, response_data_type, error_for_status,
                into, response_headers_type, error_type, raises, skip_auth, form, infer_mime_type_from_file_extension
            )
        except _RedirectSignal as signal:  # follow_redirects: the rest of the chain
            return await self._redirected(
                signal, "PATCH", url, params, headers, json, content, data, timeout, response_data_type,
                error_for_status, into
            )

    def _current_sink(self) -> Any:
        """The completion sink of the running loop (made on the loop's first call)."""
        loop = _get_running_loop()
        current = self._current
        if current[0] is not loop:
            current = self._bind(loop)
        return current[1]


class SyncHTTPClient(_ClientBase):
    """A blocking HTTP/1.1 client; each calling thread does its own I/O with the GIL released. Thread-safe."""

    _is_async = False
    _stream_class = _streaming.SyncStream
    _sse_function = staticmethod(sse_sync)
    _download_function = staticmethod(_streaming.download_sync)

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
              timeout: Any, tp: Any, error_for_status: bool | None, into: Any = None, headers_type: Any = None,
              error_type: Any = None, raises: Any = None, skip_auth: bool = False, form: Any = None,
              infer_mime_type_from_file_extension: bool = True) -> Any:
        """Runs the request on this thread; returns the Response (decoded and checked natively), through the
        policy (retries, auth, middleware) when there is one or per-call options ask for it."""
        t = self._transport
        if t is None:
            raise RuntimeError("the client is not open; use it as `with SyncHTTPClient() as client`")
        if into is not None:
            tp = _use_into(tp, into)
        if form is not None:  # multipart: files are streamed from disk
            return _streaming.send_sync(self, method, url, params, headers, _form_only(json, content, data), form,
                                        timeout, tp, error_for_status, infer_mime_type_from_file_extension,
                                        skip_auth, raises, error_type)
        if content is not None and _streaming.is_streamed_content(content):  # an iterable body goes out in pieces
            return _streaming.send_sync(self, method, url, params, headers, content, None, timeout, tp,
                                        error_for_status, True, skip_auth, raises, error_type)
        if self._policy is not None or headers_type is not None or error_type is not None or raises is not None \
                or skip_auth:
            return run_sync(self, method, url, params, headers, json, content, data, timeout, tp, error_for_status,
                            headers_type, error_type, raises, skip_auth)
        dec, raises = self._response_spec(tp, error_for_status)
        if params is None and headers is None and json is None and content is None and data is None:
            route = self._routes.get((method, url)) or self._route(method, url)
            return t.send(route.origin, method, route.head, None, timeout, dec, raises, route.url)
        origin, head, body, full = self._prepare(method, url, params, headers, json, content, data)
        return t.send(origin, method, head, body, timeout, dec, raises, full)

    def _redirected_sync(self, signal: Any, method: str, url: str, params: Any, headers: Any, json: Any,
                         content: Any, data: Any, timeout: Any, tp: Any, error_for_status: bool | None,
                         into: Any) -> Any:
        """The rest of a redirect chain whose first response came back as `signal` (_http_send, in C++, calls it
        for the native path and _send alike). The policy path follows redirects itself."""
        return follow_sync(self, signal, method, url, params, headers, json, content, data, timeout,
                           tp if into is None else into, error_for_status)

    def _send_one(self, method: str, url: str, headers: Any, body: bytes | None, timeout: Any, dec: Any, raises: Any,
                  skip_auth: bool) -> Any:
        """One native exchange of the policy path (url absolute; headers the call's own)."""
        t = self._transport
        if t is None:
            raise RuntimeError("the client is closed")
        origin, head, body, full = self._prepare(method, url, None, headers, None, body, None, skip_auth)
        return t.send(origin, method, head, body, timeout, dec, raises, full)

    # The verbs are native methods (csrc/http/client/verb_object.cpp): a call reaches _http_send with its options
    # in place, without a Python frame; their full signatures are in __init__.pyi.
    request = _HttpVerb(None, _UPLOAD_OPTIONS)
    get = _HttpVerb("GET", _READ_OPTIONS)
    head = _HttpVerb("HEAD", _READ_OPTIONS)
    options = _HttpVerb("OPTIONS", _READ_OPTIONS)
    delete = _HttpVerb("DELETE", _BODY_OPTIONS)
    post = _HttpVerb("POST", _UPLOAD_OPTIONS)
    put = _HttpVerb("PUT", _UPLOAD_OPTIONS)
    patch = _HttpVerb("PATCH", _UPLOAD_OPTIONS)
