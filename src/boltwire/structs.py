"""Utilities over Struct classes and instances (msgspec.structs spelling)."""

from __future__ import annotations

from typing import Any

from boltwire._core import NODEFAULT, Factory, Struct, StructConfig, StructMeta, field
from boltwire._core import asdict, astuple, force_setattr, replace
from boltwire._typeinfo import _generic_mapping, _resolve_hints, _substitute

__all__ = ["FieldInfo", "StructConfig", "asdict", "astuple", "fields", "force_setattr", "replace"]


class FieldInfo(Struct):
    """A Struct field: its name, encoded name, resolved type and default (a Struct, as msgspec's is)."""

    name: str
    encode_name: str
    type: Any
    # NODEFAULT as a plain default would mean "required": a factory gives it as a value.
    default: Any = field(default_factory=lambda: NODEFAULT)
    default_factory: Any = field(default_factory=lambda: NODEFAULT)

    @property
    def required(self) -> bool:
        return self.default is NODEFAULT and self.default_factory is NODEFAULT


def fields(type_or_instance: Any) -> tuple[FieldInfo, ...]:
    """Describe the fields of a Struct class (generic aliases such as `Box[int]` included) or instance."""
    cls, mapping = _generic_mapping(type_or_instance)
    if not isinstance(cls, StructMeta):
        cls = type(type_or_instance)
        if not isinstance(cls, StructMeta):
            raise TypeError(f"fields() expects a Struct type or instance, got {type_or_instance!r}")
    hints = _resolve_hints(cls)
    defaults = cls.__struct_defaults__
    offset = len(cls.__struct_fields__) - len(defaults)
    out = []
    for i, (name, encode_name) in enumerate(zip(cls.__struct_fields__, cls.__struct_encode_fields__)):
        default = default_factory = NODEFAULT
        if i >= offset:
            entry = defaults[i - offset]
            if isinstance(entry, Factory):
                default_factory = entry.factory
            else:
                default = entry
        out.append(FieldInfo(name, encode_name, _substitute(hints[name], mapping), default, default_factory))
    return tuple(out)
