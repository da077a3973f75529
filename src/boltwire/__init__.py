"""boltwire: typed structs, JSON and HTTP for Python, with a C++20 core."""

from boltwire import structs
from boltwire._core import NODEFAULT, Struct, StructMeta, convert, field
from boltwire._defstruct import defstruct
from boltwire._errors import BoltwireError, DecodeError, EncodeError, ValidationError
from boltwire._meta import Meta
from boltwire import json

__all__ = [
    "NODEFAULT",
    "BoltwireError",
    "DecodeError",
    "EncodeError",
    "Meta",
    "Struct",
    "StructMeta",
    "ValidationError",
    "convert",
    "defstruct",
    "field",
    "json",
    "structs",
]
__version__ = "0.1.0"
