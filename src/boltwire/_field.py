"""boltwire.field: a Python signature over the native field() (inspect.signature works on it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar, overload

from boltwire._core import NODEFAULT
from boltwire._core import field as _native_field

_T = TypeVar("_T")


@overload
def field(*, default: _T, name: str | None = None, aliases: Iterable[str] | None = None) -> _T: ...
@overload
def field(
    *, default_factory: Callable[[], _T], name: str | None = None, aliases: Iterable[str] | None = None
) -> _T: ...
@overload
def field(*, name: str | None = None, aliases: Iterable[str] | None = None) -> Any: ...
@overload
def field(*, extra: bool, default_factory: Callable[[], _T] = ...) -> Any: ...


def field(
    *,
    default: Any = NODEFAULT,
    default_factory: Any = NODEFAULT,
    name: str | None = None,
    aliases: Iterable[str] | None = None,
    extra: bool = False,
) -> Any:
    """Configure a Struct field: a default value or factory, the name it is encoded under, and further names it
    is accepted under when decoding.

    `extra=True` makes the field (annotated `dict[str, V]`) keep the object keys that match no other field:
    decoding stores them there (each value decoded as V; `Raw` keeps the input bytes) and encoding writes them
    back after the known fields, in their order. It defaults to an empty dict."""
    native: Any = _native_field
    if extra:
        return native(default=default, default_factory=default_factory, name=name, aliases=aliases, extra=True)
    return native(default=default, default_factory=default_factory, name=name, aliases=aliases)
