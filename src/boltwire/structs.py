"""Utilities over Struct classes and instances (msgspec.structs spelling)."""

from __future__ import annotations

import typing
from typing import Any

from boltwire._core import NODEFAULT, Factory, Struct, StructConfig, StructMeta, field
from boltwire._core import asdict, astuple, force_setattr, replace
from boltwire._typeinfo import _class_hints, _generic_mapping

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
    cls = _generic_mapping(type_or_instance)[0]
    if not isinstance(cls, StructMeta):
        cls = type(type_or_instance)
        if not isinstance(cls, StructMeta):
            raise TypeError(f"Must be called with a struct type or instance, got {type_or_instance!r}")
    hints = _class_hints(type_or_instance if typing.get_origin(type_or_instance) is not None else cls)
    defaults = cls.__struct_defaults__
    offset = len(cls.__struct_fields__) - len(defaults)
    out = []
    for i, (name, encode_name) in enumerate(zip(cls.__struct_fields__, cls.__struct_encode_fields__)):
        default: Any = NODEFAULT
        default_factory: Any = NODEFAULT
        if i >= offset:
            entry = defaults[i - offset]
            if isinstance(entry, Factory):
                default_factory = entry.factory
            else:
                default = entry
        out.append(FieldInfo(name, encode_name, hints[name], default, default_factory))
    return tuple(out)
