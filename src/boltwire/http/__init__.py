"""boltwire.http: typed HTTP/1.1 clients (asyncio and blocking) over boltwire's native transport."""

from boltwire.http._client import HTTPClient, SyncHTTPClient
from boltwire.http._errors import (
    HTTPConnectionError,
    HTTPError,
    HTTPResponseError,
    HTTPTimeoutError,
    HTTPTransportError,
)
from boltwire.http._response import CaseInsensitiveDict, Headers, Request, RequestInfo, Response

__all__ = [
    "CaseInsensitiveDict",
    "HTTPClient",
    "HTTPConnectionError",
    "HTTPError",
    "HTTPResponseError",
    "HTTPTimeoutError",
    "HTTPTransportError",
    "Headers",
    "Request",
    "RequestInfo",
    "Response",
    "SyncHTTPClient",
]
