"""boltwire.http: typed HTTP/1.1 clients (asyncio and blocking) over boltwire's native transport."""

from boltwire.http._client import HTTPClient, SyncHTTPClient
from boltwire.http._errors import (
    HTTPConnectionError,
    HTTPError,
    HTTPResponseError,
    HTTPTimeoutError,
    HTTPTransportError,
)
from boltwire.http._response import Headers, Request, Response

__all__ = [
    "HTTPClient",
    "HTTPConnectionError",
    "HTTPError",
    "HTTPResponseError",
    "HTTPTimeoutError",
    "HTTPTransportError",
    "Headers",
    "Request",
    "Response",
    "SyncHTTPClient",
]
