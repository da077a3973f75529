# Type stubs for boltwire.http: the typed HTTP/1.1 clients.
import datetime
import os
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import IO, Any, Generic, Literal, Protocol, TypeVar, overload

from boltwire._errors import BoltwireError

_T = TypeVar("_T")
_E = TypeVar("_E")
_T_co = TypeVar("_T_co", covariant=True)
_Scalar = str | int | float | bool | None
Params = Mapping[str, _Scalar | Sequence[_Scalar]] | Sequence[tuple[str, _Scalar]]
Data = Params
JSONPayload = Any
TypedHeaders = Any
File = (
    os.PathLike[str] | IO[bytes] | tuple[str, bytes | os.PathLike[str] | IO[bytes]]
    | tuple[str, bytes | os.PathLike[str] | IO[bytes], str] | tuple[os.PathLike[str], str]
)
Form = Mapping[str, Any]
# content=: one body, or pieces from an iterable / async iterable (sent chunked).
_Content = bytes | str | Iterable[bytes | str] | AsyncIterable[bytes | str]
_SyncContent = bytes | str | Iterable[bytes | str]
TlsVersion = Literal["1.2", "1.3"]
_Params = Params
_Headers = Mapping[str, str] | Sequence[tuple[str, str]]

class _Decoder(Protocol[_T_co]):
    """A msgspec Decoder (``.decode``)."""
    def decode(self, buf: bytes, /) -> _T_co: ...

class CaseInsensitiveDict(MutableMapping[str, str]):
    def __init__(self, data: Mapping[str, str] | Iterable[tuple[str, str]] | None = None) -> None: ...
    def __getitem__(self, name: str) -> str: ...
    def __setitem__(self, name: str, value: str) -> None: ...
    def __delitem__(self, name: str) -> None: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    def get_all(self, name: str) -> list[str]: ...
    def add(self, name: str, value: str) -> None: ...
    def items(self) -> list[tuple[str, str]]: ...  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]
    def copy(self) -> CaseInsensitiveDict: ...

Headers = CaseInsensitiveDict

class RequestInfo:
    method: str
    url: str
    path: str
    host: str | None
    headers: CaseInsensitiveDict
    def __init__(self, method: str, url: str, path: str | None = None, host: str | None = None, headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None) -> None: ...

Request = RequestInfo

class Response(Generic[_T]):
    data: _T
    status: int
    http_version: str
    tls_version: str | None
    url: str
    typed_headers: Any
    def __init__(self, status: int, data: _T = ..., *, headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None, url: str = "", method: str = "GET", http_version: str = "HTTP/1.1", elapsed: float = 0.0, request: RequestInfo | None = None, typed_headers: Any = None, tls_version: str | None = None) -> None: ...
    @property
    def headers(self) -> CaseInsensitiveDict: ...
    @property
    def elapsed(self) -> float: ...
    @property
    def elapsed_timedelta(self) -> datetime.timedelta: ...
    @property
    def request(self) -> RequestInfo: ...

class HTTPError(BoltwireError): ...

class HTTPTransportError(HTTPError):
    attempts: int

class HTTPConnectionError(HTTPTransportError): ...
class HTTPTLSError(HTTPConnectionError): ...

class HTTPTimeoutError(HTTPTransportError):
    kind: Literal["connect", "read", "write", "pool", "total"]
    def __init__(self, message: str, kind: str = "total") -> None: ...

class HTTPResponseError(HTTPError, Generic[_E]):
    status: int
    headers: CaseInsensitiveDict
    body: bytes
    body_start: bytes
    request: RequestInfo
    error: _E | dict[str, Any] | None
    parse_error: ValueError | None
    attempts: int
    def __init__(self, status: int, body: bytes, request: RequestInfo | None = None, error: _E | dict[str, Any] | None = None, *, headers: Mapping[str, str] | None = None, parse_error: ValueError | None = None, method: str | None = None, url: str | None = None) -> None: ...
    @property
    def parsed_body(self) -> _E | dict[str, Any] | None: ...
    @property
    def method(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def body_text(self) -> str: ...

class OAuthTokenError(HTTPError):
    token_url: str
    def __init__(self, token_url: str, error: BaseException | str) -> None: ...

class AuthProvider(Protocol):
    def __call__(self) -> Awaitable[str]: ...

class SyncAuthProvider(Protocol):
    def __call__(self) -> str: ...

class _OAuthBase:
    token_url: str
    fetches: int
    def invalidate(self, stale_access_token: str | None = None) -> None: ...

class OAuthProvider(_OAuthBase):
    def __init__(self, *, token_url: str, client_id: str, client_secret: str, scope: str | None = None, client_auth: Literal["basic", "body"] = "basic", refresh_leeway: float = 300.0, default_expires_in: float | None = None, client_factory: Callable[[], Any] | None = None) -> None: ...
    async def __call__(self) -> str: ...

class SyncOAuthProvider(_OAuthBase):
    def __init__(self, *, token_url: str, client_id: str, client_secret: str, scope: str | None = None, client_auth: Literal["basic", "body"] = "basic", refresh_leeway: float = 300.0, default_expires_in: float | None = None, client_factory: Callable[[], Any] | None = None) -> None: ...
    def __call__(self) -> str: ...

class OutgoingRequest:
    method: str
    url: str
    headers: CaseInsensitiveDict
    body: bytes | None
    extensions: dict[str, Any]
    def __init__(self, method: str, url: str, headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None, body: bytes | None = None) -> None: ...

class AsyncStream(Generic[_T]):
    """A response body as it arrives (HTTPClient.stream / stream_get / stream_post)."""
    @property
    def status(self) -> int: ...
    @property
    def headers(self) -> CaseInsensitiveDict: ...
    @property
    def http_version(self) -> str: ...
    @property
    def url(self) -> str: ...
    async def __aenter__(self) -> AsyncStream[_T]: ...
    async def __aexit__(self, *exc: object) -> None: ...
    def __aiter__(self) -> AsyncIterator[_T]: ...
    async def __anext__(self) -> _T: ...
    async def read(self) -> bytes: ...
    async def aclose(self) -> None: ...
    def close(self) -> None: ...

class SyncStream(Generic[_T]):
    """A response body as it arrives (SyncHTTPClient.stream / stream_get / stream_post)."""
    @property
    def status(self) -> int: ...
    @property
    def headers(self) -> CaseInsensitiveDict: ...
    @property
    def http_version(self) -> str: ...
    @property
    def url(self) -> str: ...
    def __enter__(self) -> SyncStream[_T]: ...
    def __exit__(self, *exc: object) -> None: ...
    def __iter__(self) -> Iterator[_T]: ...
    def __next__(self) -> _T: ...
    def read(self) -> bytes: ...
    def close(self) -> None: ...

class SSEEvent(Generic[_T]):
    data: _T
    event: str
    id: str
    retry: int | None
    def __init__(self, data: _T, event: str = "message", id: str = "", retry: int | None = None) -> None: ...

_AsyncMiddleware = Callable[[OutgoingRequest, Callable[[OutgoingRequest], Awaitable[Response[Any]]]], Awaitable[Response[Any]] | Response[Any]]
_SyncMiddleware = Callable[[OutgoingRequest, Callable[[OutgoingRequest], Response[Any]]], Response[Any]]

class _ClientBase:
    """The options HTTPClient and SyncHTTPClient share (runtime: boltwire.http._client._ClientBase)."""
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
        bearer_auth: Callable[[], Awaitable[str] | str] | None = None,
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
        min_tls_version: Literal["TLSv1.2", "TLSv1.3"] | None = None,
        max_tls_version: Literal["TLSv1.2", "TLSv1.3"] | None = None,
        danger_accept_invalid_certs: bool = False,
        danger_accept_invalid_hostnames: bool = False,
        https_only: bool = False,
        http2: bool = False,
        http2_prior_knowledge: bool = False,
        error_type: Any = None,
        raises: type[HTTPResponseError[Any]] | None = None,
        max_retries: int = 0,
        retry_methods: Iterable[str] | None = None,
        retry_statuses: Iterable[int] | None = None,
        backoff_base: float = 0.1,
        backoff_max: float = 30.0,
        max_retry_after: float | None = 60.0,
        middleware: Sequence[_AsyncMiddleware] | None = None,
    ) -> None: ...

class HTTPClient(_ClientBase):
    async def __aenter__(self) -> "HTTPClient": ...
    async def __aexit__(self, *exc: object) -> None: ...
    async def aclose(self) -> None: ...
    def open(self) -> None: ...
    @property
    def is_open(self) -> bool: ...
    @overload
    async def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[bytes]: ...
    @overload
    async def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[Any]: ...
    @overload
    async def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[bytes]: ...
    @overload
    async def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[Any]: ...
    @overload
    async def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[bytes]: ...
    @overload
    async def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[Any]: ...
    @overload
    async def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[bytes]: ...
    @overload
    async def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[Any]: ...
    @overload
    async def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[bytes]: ...
    @overload
    async def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[Any]: ...
    @overload
    async def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[bytes]: ...
    @overload
    async def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[Any]: ...
    @overload
    async def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[bytes]: ...
    @overload
    async def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    async def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[Any]: ...
    @overload
    async def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[bytes]: ...
    @overload
    async def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    async def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _Content | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[Any]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[bytes]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[_T], into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[_T]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: type[_T],
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[_T]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: _Decoder[_T], into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[_T]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = ..., into: Any = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[Any]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[bytes]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[_T], into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[_T]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: type[_T], skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[_T]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: _Decoder[_T], into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[_T]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = ..., into: Any = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[Any]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[bytes]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[_T], into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[_T]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: type[_T],
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[_T]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: _Decoder[_T], into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[_T]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _Content | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = ..., into: Any = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncStream[Any]: ...
    @overload
    async def download(
        self, url: str, dest: None = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None,
        progress: Callable[[int, int | None], object] | None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Response[bytes]: ...
    @overload
    async def download(
        self, url: str, dest: str | os.PathLike[str], *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None,
        progress: Callable[[int, int | None], object] | None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Response[Path]: ...
    @overload
    async def download(
        self, url: str, dest: str | os.PathLike[str] | None = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None,
        progress: Callable[[int, int | None], object] | None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Response[Any]: ...
    @overload
    def sse(
        self, url: str, response_data_type: None = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncIterator[SSEEvent[str]]: ...
    @overload
    def sse(
        self, url: str, response_data_type: type[_T], *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncIterator[SSEEvent[_T]]: ...
    @overload
    def sse(
        self, url: str, response_data_type: None = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: type[_T], skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncIterator[SSEEvent[_T]]: ...
    @overload
    def sse(
        self, url: str, response_data_type: _Decoder[_T], *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncIterator[SSEEvent[_T]]: ...
    @overload
    def sse(
        self, url: str, response_data_type: Any = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: Any = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> AsyncIterator[SSEEvent[Any]]: ...

class SyncHTTPClient(_ClientBase):
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
        bearer_auth: Callable[[], str] | None = None,
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
        min_tls_version: Literal["TLSv1.2", "TLSv1.3"] | None = None,
        max_tls_version: Literal["TLSv1.2", "TLSv1.3"] | None = None,
        danger_accept_invalid_certs: bool = False,
        danger_accept_invalid_hostnames: bool = False,
        https_only: bool = False,
        http2: bool = False,
        http2_prior_knowledge: bool = False,
        error_type: Any = None,
        raises: type[HTTPResponseError[Any]] | None = None,
        max_retries: int = 0,
        retry_methods: Iterable[str] | None = None,
        retry_statuses: Iterable[int] | None = None,
        backoff_base: float = 0.1,
        backoff_max: float = 30.0,
        max_retry_after: float | None = 60.0,
        middleware: Sequence[_SyncMiddleware] | None = None,
    ) -> None: ...
    def __enter__(self) -> "SyncHTTPClient": ...
    def __exit__(self, *exc: object) -> None: ...
    def close(self) -> None: ...
    def open(self) -> None: ...
    @property
    def is_open(self) -> bool: ...
    @overload
    def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[bytes]: ...
    @overload
    def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def request(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[Any]: ...
    @overload
    def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[bytes]: ...
    @overload
    def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[Any]: ...
    @overload
    def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[bytes]: ...
    @overload
    def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def head(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[Any]: ...
    @overload
    def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[bytes]: ...
    @overload
    def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def options(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[Any]: ...
    @overload
    def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[bytes]: ...
    @overload
    def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[Any]: ...
    @overload
    def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[bytes]: ...
    @overload
    def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def put(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[Any]: ...
    @overload
    def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[bytes]: ...
    @overload
    def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[_T]: ...
    @overload
    def patch(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
        form: Form | None = None, infer_mime_type_from_file_extension: bool = True,
    ) -> Response[Any]: ...
    @overload
    def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[bytes]: ...
    @overload
    def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: type[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: _Decoder[_T], into: None = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: type[bytes] = ..., into: _Decoder[_T],
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[_T]: ...
    @overload
    def delete(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None, content: _SyncContent | None = None, data: _Params | None = None, timeout: float | None = None, error_for_status: bool | None = None,
        response_data_type: Any = ..., into: Any = None,
        response_headers_type: Any = None, error_type: Any = None, raises: type[HTTPResponseError[Any]] | None = None, skip_auth: bool = False,
    ) -> Response[Any]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[bytes]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[_T], into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[_T]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: type[_T],
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[_T]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: _Decoder[_T], into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[_T]: ...
    @overload
    def stream(
        self, method: str, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = ..., into: Any = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[Any]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[bytes]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[_T], into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[_T]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: type[_T], skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[_T]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: _Decoder[_T], into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[_T]: ...
    @overload
    def stream_get(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = ..., into: Any = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[Any]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[bytes]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[_T], into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[_T]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: type[bytes] = ..., into: type[_T],
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[_T]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: _Decoder[_T], into: None = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[_T]: ...
    @overload
    def stream_post(
        self, url: str, *, params: _Params | None = None, headers: _Headers | None = None, json: Any = None,
        content: _SyncContent | None = None, data: _Params | None = None, form: Form | None = None, timeout: float | None = None,
        error_for_status: bool | None = None, response_data_type: Any = ..., into: Any = None,
        infer_mime_type_from_file_extension: bool = True, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> SyncStream[Any]: ...
    @overload
    def download(
        self, url: str, dest: None = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None,
        progress: Callable[[int, int | None], object] | None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Response[bytes]: ...
    @overload
    def download(
        self, url: str, dest: str | os.PathLike[str], *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None,
        progress: Callable[[int, int | None], object] | None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Response[Path]: ...
    @overload
    def download(
        self, url: str, dest: str | os.PathLike[str] | None = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None,
        progress: Callable[[int, int | None], object] | None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Response[Any]: ...
    @overload
    def sse(
        self, url: str, response_data_type: None = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Iterator[SSEEvent[str]]: ...
    @overload
    def sse(
        self, url: str, response_data_type: type[_T], *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Iterator[SSEEvent[_T]]: ...
    @overload
    def sse(
        self, url: str, response_data_type: None = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: type[_T], skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Iterator[SSEEvent[_T]]: ...
    @overload
    def sse(
        self, url: str, response_data_type: _Decoder[_T], *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: None = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Iterator[SSEEvent[_T]]: ...
    @overload
    def sse(
        self, url: str, response_data_type: Any = None, *, params: _Params | None = None, headers: _Headers | None = None,
        timeout: float | None = None, error_for_status: bool | None = None, max_reconnects: int | None = 5,
        reconnect_delay: float = 3.0, reconnect_on_close: bool = False, into: Any = None, skip_auth: bool = False,
        raises: type[HTTPResponseError[Any]] | None = None, error_type: Any = None,
    ) -> Iterator[SSEEvent[Any]]: ...
