"""boltwire: typed structs, JSON and HTTP for Python, with a C++20 core."""

from boltwire import structs
from boltwire._core import NODEFAULT, UNSET, Raw, Struct, StructMeta, UnsetType, convert, field, to_builtins
from boltwire._defstruct import defstruct
from boltwire._errors import BoltwireError, DecodeError, EncodeError, ValidationError
from boltwire._meta import Meta
from boltwire import json
from boltwire import msgpack
from boltwire.http import (
    HTTPClient,
    HTTPConnectionError,
    HTTPResponseError,
    HTTPTimeoutError,
    HTTPTLSError,
    HTTPTransportError,
    Response,
    SyncHTTPClient,
)

__all__ = [
    "NODEFAULT",
    "UNSET",
    "Raw",
    "BoltwireError",
    "DecodeError",
    "EncodeError",
    "HTTPClient",
    "HTTPConnectionError",
    "HTTPResponseError",
    "HTTPTLSError",
    "HTTPTimeoutError",
    "HTTPTransportError",
    "Meta",
    "Response",
    "SyncHTTPClient",
    "Struct",
    "StructMeta",
    "UnsetType",
    "ValidationError",
    "convert",
    "defstruct",
    "field",
    "json",
    "msgpack",
    "structs",
    "to_builtins",
]
__version__ = "0.1.0"
