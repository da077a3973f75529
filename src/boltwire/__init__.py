"""boltwire: typed structs, JSON and HTTP for Python, with a C++20 core."""

from boltwire import structs
from boltwire._core import NODEFAULT, Struct, StructMeta, field
from boltwire._defstruct import defstruct

__all__ = ["NODEFAULT", "Struct", "StructMeta", "defstruct", "field", "structs"]
__version__ = "0.1.0"
