"""boltwire.field: a Python signature over the native field() (inspect.signature works on it)."""

from __future__ import annotations

from typing import Any

from boltwire._core import NODEFAULT
from boltwire._core import field as _native_field


def field(
    *,
    default: Any = NODEFAULT,
    default_factory: Any = NODEFAULT,
    name: str | None = None,
    aliases: Any = None,
) -> Any:
    """Configure a Struct field: a default value or factory, the name it is encoded under, and further names it
    is accepted under when decoding."""
    return _native_field(default=default, default_factory=default_factory, name=name, aliases=aliases)
