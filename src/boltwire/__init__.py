"""boltwire: typed structs, JSON and HTTP for Python, with a C++20 core."""

import importlib
from typing import TYPE_CHECKING, Any

from boltwire import structs
from boltwire._core import NODEFAULT, UNSET, Raw, Struct, StructMeta, UnsetType, convert, to_builtins
from boltwire._defstruct import defstruct
from boltwire._field import field
from boltwire._errors import BoltwireError, DecodeError, EncodeError, ErrorDetail, MsgspecError, ValidationError
from boltwire._meta import Meta
from boltwire import inspect, json, msgpack, toml, yaml
# The HTTP half is imported on first use (PEP 562): it pulls in asyncio, ssl and the
# email package, about half of `import boltwire`, which a Structs/JSON-only user never needs.
_HTTP_NAMES = frozenset({
    "HTTPClient",
    "HTTPConnectionError",
    "HTTPRedirectError",
    "HTTPResponseError",
    "HTTPTimeoutError",
    "HTTPTLSError",
    "HTTPTransportError",
    "Response",
    "SyncHTTPClient",
})

if TYPE_CHECKING:
    from boltwire import http
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


def __getattr__(name: str) -> Any:
    if name in _HTTP_NAMES or name == "http":
        http_module = importlib.import_module("boltwire.http")
        value = http_module if name == "http" else getattr(http_module, name)
        globals()[name] = value  # later lookups skip this hook
        return value
    raise AttributeError(f"module 'boltwire' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _HTTP_NAMES | {"http"})


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
