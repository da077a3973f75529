"""defstruct: build a Struct class from a field list at run time (msgspec.defstruct spelling)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from boltwire._core import Struct, StructMeta


def defstruct(
    name: str,
    fields: Iterable[str | tuple[str, Any] | tuple[str, Any, Any]],
    *,
    bases: tuple[type, ...] | None = None,
    module: str | None = None,
    namespace: dict[str, Any] | None = None,
    **options: Any,
) -> StructMeta:
    """Create a Struct class; each field is `name`, `(name, type)` or `(name, type, default)`."""
    ns: dict[str, Any] = dict(namespace or {})
    annotations: dict[str, Any] = {}
    for spec in fields:
        if isinstance(spec, str):
            annotations[spec] = Any
        elif isinstance(spec, tuple) and len(spec) == 2:
            annotations[spec[0]] = spec[1]
        elif isinstance(spec, tuple) and len(spec) == 3:
            annotations[spec[0]] = spec[1]
            ns[spec[0]] = spec[2]
        else:
            raise TypeError(f"defstruct fields must be str, (name, type) or (name, type, default), got {spec!r}")
    ns["__annotations__"] = annotations
    ns.setdefault("__module__", module or "boltwire.defstruct")
    return StructMeta(name, bases or (Struct,), ns, **options)
