"""boltwire: typed structs, JSON and HTTP for Python, with a C++20 core."""

from boltwire import structs
from boltwire._core import NODEFAULT, UNSET, Raw, Struct, StructMeta, UnsetType, field, to_builtins
from boltwire._defstruct import defstruct
from boltwire._errors import BoltwireError, DecodeError, EncodeError, ValidationError
from boltwire import json

__all__ = [
    "NODEFAULT",
    "UNSET",
    "Raw",
    "BoltwireError",
    "DecodeError",
    "EncodeError",
    "Struct",
    "StructMeta",
    "UnsetType",
    "ValidationError",
    "defstruct",
    "field",
    "json",
    "structs",
    "to_builtins",
]
__version__ = "0.1.0"
