"""boltwire.http: typed HTTP/1.1 clients (asyncio and blocking, http and https) over boltwire's native transport."""

from boltwire.http._auth import AuthProvider, SyncAuthProvider
from boltwire.http._client import HTTPClient, SyncHTTPClient
from boltwire.http._errors import (
    HTTPConnectionError,
    HTTPError,
    HTTPResponseError,
    HTTPTimeoutError,
    HTTPTLSError,
    HTTPTransportError,
)
from boltwire.http._oauth import OAuthProvider, OAuthTokenError, SyncOAuthProvider
from boltwire.http._response import CaseInsensitiveDict, Headers, Request, RequestInfo, Response
from boltwire.http._session import OutgoingRequest
from boltwire.http._streaming import AsyncStream, SyncStream
from boltwire.http._types import Data, File, Form, JSONPayload, Params, SSEEvent, TlsVersion, TypedHeaders

__all__ = [
    "AsyncStream",
    "AuthProvider",
    "CaseInsensitiveDict",
    "Data",
    "File",
    "Form",
    "HTTPClient",
    "HTTPConnectionError",
    "HTTPError",
    "HTTPResponseError",
    "HTTPTLSError",
    "HTTPTimeoutError",
    "HTTPTransportError",
    "Headers",
    "JSONPayload",
    "OAuthProvider",
    "OAuthTokenError",
    "OutgoingRequest",
    "Params",
    "Request",
    "RequestInfo",
    "Response",
    "SSEEvent",
    "SyncAuthProvider",
    "SyncHTTPClient",
    "SyncOAuthProvider",
    "SyncStream",
    "TlsVersion",
    "TypedHeaders",
]
