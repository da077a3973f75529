"""boltwire: typed structs, JSON and HTTP for Python, with a C++20 core."""

from boltwire import structs
from boltwire._core import NODEFAULT, Struct, StructMeta, field
from boltwire._defstruct import defstruct
from boltwire._errors import BoltwireError, DecodeError, EncodeError, ValidationError
from boltwire import json
from boltwire.http import (
    HTTPClient,
    HTTPConnectionError,
    HTTPResponseError,
    HTTPTimeoutError,
    HTTPTransportError,
    Response,
    SyncHTTPClient,
)

__all__ = [
    "NODEFAULT",
    "BoltwireError",
    "DecodeError",
    "EncodeError",
    "HTTPClient",
    "HTTPConnectionError",
    "HTTPResponseError",
    "HTTPTimeoutError",
    "HTTPTransportError",
    "Response",
    "SyncHTTPClient",
    "Struct",
    "StructMeta",
    "ValidationError",
    "defstruct",
    "field",
    "json",
    "structs",
]
__version__ = "0.1.0"
