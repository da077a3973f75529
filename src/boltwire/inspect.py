"""Type introspection with msgspec.inspect's API: ``type_info`` / ``multi_type_info`` turn an annotation into a
tree of ``Type`` objects (``IntType``, ``ListType``, ``StructType`` ...).

The tree is read from ``boltwire._typeinfo.describe()``, the same one-level description the native planner
builds the decoder's TypePlan from, and the types are first checked by building a decoder for them: what this
module reports is what the decoder does.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any

from boltwire import _typeinfo
from boltwire._core import NODEFAULT, Factory, Struct, StructMeta, UnsetType, field, to_builtins
from boltwire._meta import Meta
from boltwire.json import Decoder as _Decoder
from boltwire._schema_nodes import _literal_values as _sorted_literals  # one rule for both views of a Literal
from boltwire._schema_nodes import _merge_json

__all__ = (
    "type_info",
    "multi_type_info",
    "Type",
    "Metadata",
    "AnyType",
    "NoneType",
    "BoolType",
    "IntType",
    "FloatType",
    "StrType",
    "BytesType",
    "ByteArrayType",
    "MemoryViewType",
    "DateTimeType",
    "TimeType",
    "DateType",
    "TimeDeltaType",
    "UUIDType",
    "DecimalType",
    "ExtType",
    "RawType",
    "EnumType",
    "LiteralType",
    "CustomType",
    "UnionType",
    "CollectionType",
    "ListType",
    "SetType",
    "FrozenSetType",
    "VarTupleType",
    "TupleType",
    "DictType",
    "Field",
    "TypedDictType",
    "NamedTupleType",
    "DataclassType",
    "StructType",
    "is_struct",
    "is_struct_type",
    "FrozenDictType",
)


def __dir__() -> tuple[str, ...]:
    return __all__


class Type(Struct):
    """The base class of every type description."""


class Metadata(Type):
    """A type with extra metadata (``Meta(title=..., extra_json_schema=..., extra=...)``) attached."""

    type: Type
    extra_json_schema: dict | None = None
    extra: dict | None = None


class AnyType(Type):
    """``typing.Any``."""


class NoneType(Type):
    """``None``."""


class BoolType(Type):
    """``bool``."""


class IntType(Type):
    """``int``, with its numeric constraints."""

    gt: int | None = None
    ge: int | None = None
    lt: int | None = None
    le: int | None = None
    multiple_of: int | None = None


class FloatType(Type):
    """``float``, with its numeric constraints."""

    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    multiple_of: float | None = None


class StrType(Type):
    """``str``, with its length and pattern constraints."""

    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None


class BytesType(Type):
    """``bytes``, with its length constraints."""

    min_length: int | None = None
    max_length: int | None = None


class ByteArrayType(Type):
    """``bytearray``, with its length constraints."""

    min_length: int | None = None
    max_length: int | None = None


class MemoryViewType(Type):
    """``memoryview``, with its length constraints."""

    min_length: int | None = None
    max_length: int | None = None


class DateTimeType(Type):
    """``datetime.datetime``; ``tz`` True / False requires an aware / naive value."""

    tz: bool | None = None


class TimeType(Type):
    """``datetime.time``; ``tz`` True / False requires an aware / naive value."""

    tz: bool | None = None


class DateType(Type):
    """``datetime.date``."""


class TimeDeltaType(Type):
    """``datetime.timedelta``."""


class UUIDType(Type):
    """``uuid.UUID``."""


class DecimalType(Type):
    """``decimal.Decimal``."""


class ExtType(Type):
    """``msgpack.Ext``."""


class RawType(Type):
    """``Raw``."""


class EnumType(Type):
    """An ``enum.Enum`` subclass."""

    cls: type


class LiteralType(Type):
    """``Literal[...]``; ``values`` sorted by type name, then value."""

    values: tuple


class CustomType(Type):
    """Any other class (decoded through ``dec_hook`` or an isinstance check)."""

    cls: type


class UnionType(Type):
    """A union of two or more types."""

    types: tuple

    @property
    def includes_none(self) -> bool:
        """Whether ``None`` is one of the members."""
        return any(isinstance(t, NoneType) for t in self.types)


class CollectionType(Type):
    """The base of the variable-length collection types."""

    item_type: Type
    min_length: int | None = None
    max_length: int | None = None


class ListType(CollectionType):
    """``list[item_type]`` (and the abstract sequences decoded as lists)."""


class VarTupleType(CollectionType):
    """``tuple[item_type, ...]``."""


class SetType(CollectionType):
    """``set[item_type]``."""


class FrozenSetType(CollectionType):
    """``frozenset[item_type]``."""


class TupleType(Type):
    """A fixed-length ``tuple[a, b, ...]``."""

    item_types: tuple


class DictType(Type):
    """``dict[key_type, value_type]`` (and the abstract mappings decoded as dicts)."""

    key_type: Type
    value_type: Type
    min_length: int | None = None
    max_length: int | None = None


class FrozenDictType(Type):
    """``frozendict[key_type, value_type]`` (Python 3.15+; never produced before it)."""

    key_type: Type
    value_type: Type
    min_length: int | None = None
    max_length: int | None = None


class Field(Struct):
    """One field of an object-like type."""

    name: str
    encode_name: str
    type: Type
    required: bool = True
    default: Any = field(default_factory=lambda: NODEFAULT)
    default_factory: Any = field(default_factory=lambda: NODEFAULT)


class TypedDictType(Type):
    """A ``TypedDict``; fields sorted by name."""

    cls: type
    fields: tuple


class NamedTupleType(Type):
    """A ``NamedTuple`` (or ``collections.namedtuple``)."""

    cls: type
    fields: tuple


class DataclassType(Type):
    """A dataclass or attrs class."""

    cls: type
    fields: tuple


class StructType(Type):
    """A Struct class (or a parametrized generic Struct) and the options that shape its encoding."""

    cls: type
    fields: tuple
    tag_field: str | None = None
    tag: str | int | None = None
    array_like: bool = False
    forbid_unknown_fields: bool = False

    # boltwire's own options (not in msgspec), read from the class so the fields stay msgspec's.
    @property
    def extra_field(self) -> str | None:
        """The name of the field(extra=True) field keeping unknown keys (also one of `fields`), or None."""
        return _struct_config(self.cls).extra_field

    @property
    def tag_fallback(self) -> bool:
        """Whether the class is a tagged union's variant for unknown tags (`tag_fallback=True`)."""
        return _struct_config(self.cls).tag_fallback


def _struct_config(cls: Any) -> Any:
    return (typing.get_origin(cls) or cls).__struct_config__


def is_struct(obj: object) -> bool:
    """True when ``obj`` is an instance of a Struct class (a class whose metaclass is StructMeta)."""
    return isinstance(type(obj), StructMeta)


def is_struct_type(tp: object) -> bool:
    """True when ``tp`` is a Struct class (its metaclass is StructMeta or a subclass)."""
    return isinstance(tp, StructMeta)


def multi_type_info(types: Iterable[Any]) -> tuple[Type, ...]:
    """Describe several types at once; a class met twice is described once (the same object)."""
    types = tuple(types)
    for t in types:  # the decoder's own checks: unsupported types raise here (one by one: a class's plan lives
        _Decoder(t)  # on the class, while a tuple[...] of them would be cached process-wide)
    translator = _Translator()
    return tuple(translator.translate(t) for t in types)


def type_info(type: Any) -> Type:
    """Describe one type; see ``multi_type_info`` for several."""
    return multi_type_info([type])[0]


# ---- implementation ---------------------------------------------------------------------------------------------

_SCALARS: dict[str, type[Type]] = {
    "any": AnyType,
    "none": NoneType,
    "bool": BoolType,
    "date": DateType,
    "timedelta": TimeDeltaType,
    "uuid": UUIDType,
    "decimal": DecimalType,
    "raw": RawType,
    "ext": ExtType,
}
# Kinds that take constraints, and which ones (the decoder rejects any other combination first).
_CONSTRAINED: dict[str, tuple[type[Type], tuple[str, ...]]] = {
    "int": (IntType, ("gt", "ge", "lt", "le", "multiple_of")),
    "float": (FloatType, ("gt", "ge", "lt", "le", "multiple_of")),
    "str": (StrType, ("min_length", "max_length", "pattern")),
    "bytes": (BytesType, ("min_length", "max_length")),
    "bytearray": (ByteArrayType, ("min_length", "max_length")),
    "memoryview": (MemoryViewType, ("min_length", "max_length")),
    "datetime": (DateTimeType, ("tz",)),
    "time": (TimeType, ("tz",)),
}
_COLLECTIONS: dict[str, type[CollectionType]] = {
    "list": ListType,
    "set": SetType,
    "frozenset": FrozenSetType,
    "vartuple": VarTupleType,
}
_CONSTRAINTS = ("ge", "gt", "le", "lt", "multiple_of", "pattern", "min_length", "max_length", "tz")


def _field_default(entry: Any) -> tuple[bool, Any, Any]:
    """(required, default, default_factory) from a defaults-table entry (NODEFAULT / Factory / value)."""
    if entry is NODEFAULT:
        return True, NODEFAULT, NODEFAULT
    if isinstance(entry, Factory):
        return False, NODEFAULT, entry.factory
    if type(entry) is UnsetType:  # UNSET means "left out", not a default value to report
        return False, NODEFAULT, NODEFAULT
    return False, entry, NODEFAULT


class _Translator:
    """Walks describe() levels into Type objects; classes are cached before their fields, so recursion stops."""

    def __init__(self) -> None:
        self.cache: dict[Any, Type] = {}

    def translate(self, annotation: Any) -> Type:
        if annotation is object:  # decoded as Any, but described as the class it is (msgspec.inspect's view)
            return CustomType(object)
        metas: list[Meta] = []
        t = annotation
        while True:  # wrappers: Annotated adds metadata (inner layers first, later wins); aliases just unwrap
            desc = _typeinfo.describe(t)
            if desc[0] == "annotated":
                metas[:0] = [m for m in desc[2] if type(m) is Meta]
                t = desc[1]
            elif desc[0] == "alias":
                t = desc[1]
            else:
                break
        constraints: dict[str, Any] = {}
        extra_json: dict = {}
        extra: dict = {}
        for meta in metas:
            for name in _CONSTRAINTS:
                if (value := getattr(meta, name)) is not None:
                    constraints[name] = value
            for name in ("title", "description", "examples"):
                if (value := getattr(meta, name)) is not None:
                    extra_json[name] = value
            if meta.extra_json_schema is not None:
                extra_json = _merge_json(extra_json, to_builtins(meta.extra_json_schema, str_keys=True))
            if meta.extra is not None:
                extra.update(meta.extra)
        out = self.translate_desc(t, desc, constraints)
        if extra_json or extra:
            return Metadata(out, extra_json_schema=extra_json or None, extra=extra or None)
        return out

    def translate_desc(self, t: Any, desc: tuple, constraints: dict[str, Any]) -> Type:
        kind = desc[0]
        if kind in _SCALARS:
            return _SCALARS[kind]()
        if kind in _CONSTRAINED:
            cls, allowed = _CONSTRAINED[kind]
            return cls(**{k: v for k, v in constraints.items() if k in allowed})
        lengths = {k: v for k, v in constraints.items() if k in ("min_length", "max_length")}
        if kind in _COLLECTIONS:
            return _COLLECTIONS[kind](self.translate(desc[1]), **lengths)
        if kind == "tuple":
            return TupleType(tuple(self.translate(a) for a in desc[1]))
        if kind == "dict":
            return DictType(self.translate(desc[1]), self.translate(desc[2]), **lengths)
        if kind == "union":
            members = tuple(self.translate(a) for a in desc[1] if a is not UnsetType)
            return members[0] if len(members) == 1 else UnionType(members)
        if kind == "literal":
            return LiteralType(_sorted_literals(desc[1]))
        if kind == "enum":
            return EnumType(desc[1])
        if kind == "custom":
            return CustomType(desc[1])
        if kind == "unset":  # only meaningful inside a union, where it is dropped above
            return AnyType()
        return self.translate_object(t, desc)

    def translate_object(self, t: Any, desc: tuple) -> Type:
        kind, cls = desc[0], desc[1]
        key = t if typing.get_origin(t) is not None else cls  # a parametrized generic is its own type
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        if kind == "struct":
            config = cls.__struct_config__
            out: Any = StructType(
                key,
                (),
                tag_field=config.tag_field,
                tag=config.tag,
                array_like=config.array_like,
                forbid_unknown_fields=config.forbid_unknown_fields,
            )
        elif kind == "typeddict":
            out = TypedDictType(key, ())
        elif kind == "namedtuple":
            out = NamedTupleType(key, ())
        elif kind == "dataclass":
            out = DataclassType(key, ())
        else:
            raise TypeError(f"Type '{t!r}' is not supported")
        self.cache[key] = out  # before the fields: a recursive reference finds it
        out.fields = tuple(getattr(self, "fields_" + kind)(t, desc))
        return out

    def fields_struct(self, t: Any, desc: tuple) -> Iterable[Field]:
        cls = desc[1]
        names, encode_names = cls.__struct_fields__, cls.__struct_encode_fields__
        defaults = (NODEFAULT,) * (len(names) - len(cls.__struct_defaults__)) + cls.__struct_defaults__
        for name, encode_name, tp, entry in zip(names, encode_names, _typeinfo.struct_field_types(t), defaults):
            required, default, factory = _field_default(entry)
            yield Field(name, encode_name, self.translate(tp), required, default, factory)

    def fields_typeddict(self, t: Any, desc: tuple) -> Iterable[Field]:
        for name, tp, required in sorted(desc[2], key=lambda f: f[0]):
            yield Field(name, name, self.translate(tp), required)

    def fields_namedtuple(self, t: Any, desc: tuple) -> Iterable[Field]:
        for name, tp, default in desc[2]:
            required = default is NODEFAULT
            yield Field(name, name, self.translate(tp), required, default)

    def fields_dataclass(self, t: Any, desc: tuple) -> Iterable[Field]:
        fields = [(name, tp, _field_default(entry)) for name, tp, entry in desc[2]]
        fields.sort(key=lambda f: not f[2][0])  # the decoder's order: required fields first (stable)
        for name, tp, (required, default, factory) in fields:
            yield Field(name, name, self.translate(tp), required, default, factory)
