"""boltwire: typed structs, JSON and HTTP for Python, with a C++20 core."""

from boltwire import structs
from boltwire._core import NODEFAULT, UNSET, Raw, Struct, StructMeta, UnsetType, convert, to_builtins
from boltwire._defstruct import defstruct
from boltwire._field import field
from boltwire._errors import BoltwireError, DecodeError, EncodeError, ErrorDetail, MsgspecError, ValidationError
from boltwire._meta import Meta
from boltwire import inspect, json, msgpack, toml, yaml
from boltwire.http import (
    HTTPClient,
    HTTPConnectionError,
    HTTPRedirectError,
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
    "ErrorDetail",
    "HTTPClient",
    "HTTPConnectionError",
    "HTTPRedirectError",
    "HTTPResponseError",
    "HTTPTLSError",
    "HTTPTimeoutError",
    "HTTPTransportError",
    "Meta",
    "MsgspecError",
    "Response",
    "SyncHTTPClient",
    "Struct",
    "StructMeta",
    "UnsetType",
    "ValidationError",
    "convert",
    "defstruct",
    "field",
    "inspect",
    "json",
    "msgpack",
    "structs",
    "to_builtins",
    "toml",
    "yaml",
]
__version__ = "0.1.0"
