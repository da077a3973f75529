"""boltwire.http: typed HTTP/1.1 clients (asyncio and blocking, http and https) over boltwire's native transport."""

from boltwire.http._client import HTTPClient, SyncHTTPClient
from boltwire.http._errors import (
    HTTPConnectionError,
    HTTPError,
    HTTPResponseError,
    HTTPTimeoutError,
    HTTPTLSError,
    HTTPTransportError,
)
from boltwire.http._response import Headers, Request, Response

__all__ = [
    "HTTPClient",
    "HTTPConnectionError",
    "HTTPError",
    "HTTPResponseError",
    "HTTPTLSError",
    "HTTPTimeoutError",
    "HTTPTransportError",
    "Headers",
    "Request",
    "Response",
    "SyncHTTPClient",
]
