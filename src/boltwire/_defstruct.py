"""defstruct: build a Struct class from a field list at run time (msgspec.defstruct spelling)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from boltwire._core import Struct, StructMeta

_dict = dict  # the `dict` parameter (msgspec's option name) shadows the builtin inside defstruct()
_FIELD_SHAPES = "`str`, `tuple[str, type]`, or `tuple[str, type, Any]`"
# `fields` is required; the sentinel lets a wrong `name` be reported first, as msgspec's argument parser does.
_REQUIRED: Any = object()


def _check(name: str, value: Any, kind: type, label: str) -> None:
    if value is not None and not isinstance(value, kind):
        raise TypeError(f"{name} must be {label} or None")  # msgspec's words


def defstruct(
    name: str,
    fields: Iterable[str | tuple[str, Any] | tuple[str, Any, Any]] = _REQUIRED,
    *,
    bases: tuple[type, ...] | None = None,
    module: str | None = None,
    namespace: dict[str, Any] | None = None,
    tag_field: str | None = None,
    tag: Any = None,
    rename: Any = None,
    omit_defaults: bool | None = None,
    forbid_unknown_fields: bool | None = None,
    frozen: bool | None = None,
    eq: bool | None = None,
    order: bool | None = None,
    kw_only: bool | None = None,
    repr_omit_defaults: bool | None = None,
    array_like: bool | None = None,
    gc: bool | None = None,
    weakref: bool | None = None,
    dict: bool | None = None,  # noqa: A002 (msgspec's option name)
    cache_hash: bool | None = None,
) -> StructMeta:
    """Create a Struct class; each field is `name`, `(name, type)` or `(name, type, default)`.

    `module` defaults to the caller's module; an option left as None is inherited from `bases` (or Struct's
    default), as in a class statement that does not name it.
    """
    if not isinstance(name, str):
        raise TypeError(f"defstruct() argument 1 must be str, not {type(name).__name__}")
    if fields is _REQUIRED:
        raise TypeError("defstruct() missing required argument 'fields' (pos 2)")
    try:
        specs = list(fields)
    except TypeError:
        raise TypeError("`fields` must be an iterable") from None
    _check("bases", bases, tuple, "a tuple")
    _check("module", module, str, "a str")
    _check("namespace", namespace, _dict, "a dict")
    ns = _dict(namespace or {})
    annotations: _dict[str, Any] = {}
    for spec in specs:
        if isinstance(spec, str):
            annotations[spec] = Any
        elif isinstance(spec, tuple) and len(spec) in (2, 3) and isinstance(spec[0], str):
            annotations[spec[0]] = spec[1]
            if len(spec) == 3:
                ns[spec[0]] = spec[2]
        else:
            raise TypeError(f"items in `fields` must be one of {_FIELD_SHAPES}")
    ns["__annotations__"] = annotations
    if module is None:
        module = sys._getframe(1).f_globals.get("__name__", "__main__")
    ns["__module__"] = module
    options = {
        "tag_field": tag_field,
        "tag": tag,
        "rename": rename,
        "omit_defaults": omit_defaults,
        "forbid_unknown_fields": forbid_unknown_fields,
        "frozen": frozen,
        "eq": eq,
        "order": order,
        "kw_only": kw_only,
        "repr_omit_defaults": repr_omit_defaults,
        "array_like": array_like,
        "gc": gc,
        "weakref": weakref,
        "dict": dict,
        "cache_hash": cache_hash,
    }
    given = {k: v for k, v in options.items() if v is not None}
    return StructMeta(name, bases or (Struct,), ns, **given)
