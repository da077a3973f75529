"""Annotations -> a small tree of ``_Node`` objects, the first step of JSON Schema generation.

Wrappers (Annotated, NewType, Final, type aliases) are stripped and their ``Meta`` constraints merged, in
msgspec's order (later metadata wins); class types (Struct, dataclass, attrs, NamedTuple, TypedDict) are read
once and cached, so recursive types terminate. ``_json_schema`` turns the nodes into schema dicts.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime
import decimal
import enum
import json as _stdlib_json
import types
import typing
import uuid
from collections.abc import Callable
from typing import Any, Final, Literal, Union

from boltwire._core import NODEFAULT, StructMeta
from boltwire._meta import Meta

_CONCRETE: dict[Any, type] = {
    list: list,
    tuple: tuple,
    set: set,
    frozenset: frozenset,
    dict: dict,
    typing.List: list,
    typing.Tuple: tuple,
    typing.Set: set,
    typing.FrozenSet: frozenset,
    typing.Dict: dict,
    typing.Collection: list,
    typing.MutableSequence: list,
    typing.Sequence: list,
    typing.MutableMapping: dict,
    typing.Mapping: dict,
    typing.MutableSet: set,
    typing.AbstractSet: set,
    collections.abc.Collection: list,
    collections.abc.MutableSequence: list,
    collections.abc.Sequence: list,
    collections.abc.MutableSet: set,
    collections.abc.Set: set,
    collections.abc.MutableMapping: dict,
    collections.abc.Mapping: dict,
}

_SCALARS: dict[Any, str] = {
    bool: "bool",
    int: "int",
    float: "float",
    str: "str",
    bytes: "bytes",
    bytearray: "bytes",
    memoryview: "bytes",
    datetime.datetime: "datetime",
    datetime.time: "time",
    datetime.date: "date",
    datetime.timedelta: "timedelta",
    uuid.UUID: "uuid",
    decimal.Decimal: "decimal",
}

_ANNOTATED_ALIAS: Any = type(typing.Annotated[int, 0])
_TYPE_ALIAS_TYPE = getattr(typing, "TypeAliasType", None)  # `type X = ...`, Python 3.12+

# Which Meta constraints a kind accepts, and how msgspec names the kind in its error message.
_CONSTRAINT_KINDS = {
    "gt": ({"int", "float"}, "numeric"),
    "ge": ({"int", "float"}, "numeric"),
    "lt": ({"int", "float"}, "numeric"),
    "le": ({"int", "float"}, "numeric"),
    "multiple_of": ({"int", "float"}, "numeric"),
    "pattern": ({"str"}, "str"),
    "min_length": ({"str", "bytes", "array", "dict"}, "str, bytes, or collection"),
    "max_length": ({"str", "bytes", "array", "dict"}, "str, bytes, or collection"),
    "tz": ({"datetime", "time"}, "datetime or time"),
}


class _Field:
    __slots__ = ("default", "default_factory", "encode_name", "name", "node", "required")

    def __init__(self, name, encode_name, node, required, default=NODEFAULT, default_factory=NODEFAULT):
        self.name = name
        self.encode_name = encode_name
        self.node = node
        self.required = required
        self.default = default
        self.default_factory = default_factory


class _Node:
    """One type. ``kind`` picks the schema; ``cls`` is set for nameable classes (the key of a component)."""

    __slots__ = ("c", "cls", "config", "extra_json", "fields", "inner", "items", "kind", "unique", "values")

    kind: str
    cls: Any
    c: dict[str, Any]
    items: tuple[_Node, ...]
    fields: tuple[_Field, ...]
    config: Any
    values: tuple[Any, ...]
    unique: bool
    inner: Any  # _Node when kind == "meta"
    extra_json: dict[str, Any] | None

    def __init__(self, kind: str, **kw: Any) -> None:
        self.kind = kind
        self.cls = kw.get("cls")
        self.c = kw.get("c", {})  # constraints: ge, gt, le, lt, multiple_of, pattern, min_length, max_length, tz
        self.items = kw.get("items", ())  # child nodes: item / key, value / union members / tuple items
        self.fields = kw.get("fields", ())
        self.config = kw.get("config")
        self.values = kw.get("values", ())
        self.unique = kw.get("unique", False)
        self.inner = kw.get("inner")  # kind == "meta": the wrapped node
        self.extra_json = kw.get("extra_json")  # kind == "meta": schema keys from Meta


def _unwrap(annotation: Any) -> tuple[Any, Any, list[Meta]]:
    """Strip Annotated / Final / NewType / type aliases: (origin, args or None, Meta objects in apply order)."""
    t: Any = annotation
    origin: Any
    metas: list[Meta] = []
    while True:
        try:
            origin = _CONCRETE.get(t)
        except TypeError:  # unhashable annotation
            origin = None
        if origin is not None:
            args = None
            break
        origin = getattr(t, "__origin__", None)
        if origin is not None:
            if type(t) is _ANNOTATED_ALIAS:
                # Outer layers come off first but later metadata wins, so inner layers go in front.
                metas[:0] = [m for m in t.__metadata__ if type(m) is Meta]
                t = origin
            elif origin is Final:
                t = t.__args__[0]
            elif _TYPE_ALIAS_TYPE is not None and type(origin) is _TYPE_ALIAS_TYPE:
                t = origin.__value__[t.__args__]
            else:
                args = getattr(t, "__args__", None)
                try:
                    origin = _CONCRETE.get(origin, origin)
                except TypeError:
                    pass
                break
        else:
            supertype = getattr(t, "__supertype__", None)
            if supertype is not None:
                t = supertype
            elif _TYPE_ALIAS_TYPE is not None and type(t) is _TYPE_ALIAS_TYPE:
                t = t.__value__
            else:
                origin, args = t, None
                break
    if type(origin) is types.UnionType:
        origin, args = Union, origin.__args__
    return origin, args, metas


def _literal_values(args: tuple[Any, ...]) -> tuple[Any, ...]:
    # Mixed value types (Literal[1, "a", None]) cannot be compared: group by type name, then by value.
    try:
        return tuple(sorted(args, key=lambda v: (type(v).__name__, v)))
    except TypeError:
        return tuple(args)


def _merge_json(a: dict[str, Any], b: dict[str, Any] | None) -> dict[str, Any]:
    """Recursive merge, ``b`` winning: dicts merge, lists concatenate, anything else is replaced."""
    if not b:
        return a
    out = a.copy()
    for key, b_val in b.items():
        if key not in out:
            out[key] = b_val
            continue
        a_val = out[key]
        if isinstance(a_val, dict) and isinstance(b_val, dict):
            out[key] = _merge_json(a_val, b_val)
        elif isinstance(a_val, (list, tuple)) and isinstance(b_val, (list, tuple)):
            out[key] = list(a_val) + list(b_val)
        else:
            out[key] = b_val
    return out


def _to_builtins(value: Any) -> Any:
    """A default or extra_json_schema value as ``to_builtins(value, str_keys=True)`` gives it."""
    import boltwire

    to_builtins = getattr(boltwire, "to_builtins", None)
    if to_builtins is not None:
        return to_builtins(value, str_keys=True)
    return _builtins_fallback(value, boltwire.json.encode)


def _builtins_fallback(value: Any, encode: Callable[[Any], bytes]) -> Any:
    # Used until boltwire.to_builtins is present: containers as to_builtins shapes them (tuples stay tuples,
    # sets become lists, keys become strings), leaves through the JSON encoder (ISO dates, base64 bytes...).
    if value is None or type(value) in (bool, int, float, str):
        return value
    if isinstance(value, enum.Enum):
        return _builtins_fallback(value.value, encode)
    if type(value) is tuple:
        return tuple(_builtins_fallback(v, encode) for v in value)
    if type(value) in (list, set, frozenset):
        return [_builtins_fallback(v, encode) for v in value]
    if type(value) is dict:
        out = {}
        for k, v in value.items():
            key = k if type(k) is str else _stdlib_json.loads(encode({k: None})).popitem()[0]
            out[key] = _builtins_fallback(v, encode)
        return out
    return _stdlib_json.loads(encode(value))


def _unset_type() -> Any:
    import boltwire

    return getattr(boltwire, "UnsetType", None)


def _is_unset_type(t: Any) -> bool:
    unset = _unset_type()
    if unset is not None:
        return t is unset
    return isinstance(t, type) and t.__name__ == "UnsetType" and t.__module__.startswith("boltwire")


def _is_unset_value(v: Any) -> bool:
    unset = _unset_type()
    if unset is not None:
        return type(v) is unset
    return type(v).__name__ == "UnsetType" and type(v).__module__.startswith("boltwire")


def _raw_type() -> Any:
    import boltwire

    return getattr(boltwire, "Raw", None)


def _is_namedtuple(t: Any) -> bool:
    try:
        if not (issubclass(t, tuple) and hasattr(t, "_fields")):
            return False
    except TypeError:
        return False
    return type(t._fields) is tuple and type(getattr(t, "_field_defaults", None)) is dict


def _is_typeddict(t: Any) -> bool:
    try:
        return issubclass(t, dict) and hasattr(t, "__total__") and hasattr(t, "__annotations__")
    except TypeError:
        return False


def _generic_hints(cls: Any) -> dict[str, Any]:
    """Type hints (Annotated kept) of a class or a parametrized generic alias, TypeVars substituted.

    Each class in the MRO contributes its own annotations, substituted with the TypeVar bindings that reach it
    through ``__orig_bases__`` (so ``class IntBox(Box[int])`` sees ``item: int``); subclasses override.
    """
    origin = typing.get_origin(cls) or cls
    scopes: dict[Any, dict[Any, Any]] = {}
    params = getattr(origin, "__parameters__", ())
    scopes[origin] = dict(zip(params, typing.get_args(cls))) if origin is not cls else {}
    pending = [origin]
    while pending:
        current = pending.pop()
        for base in getattr(current, "__orig_bases__", ()):
            base_origin = typing.get_origin(base)
            if base_origin is None or base_origin is typing.Generic or base_origin in scopes:
                continue
            base_params = getattr(base_origin, "__parameters__", ())
            args = tuple(_substitute(a, scopes[current]) for a in typing.get_args(base))
            scopes[base_origin] = dict(zip(base_params, args))
            pending.append(base_origin)
    if _is_typeddict(origin):  # a TypedDict's MRO does not keep its TypedDict bases
        hints = typing.get_type_hints(origin, include_extras=True)
        return {k: _substitute(v, scopes[origin]) for k, v in hints.items()}
    out: dict[str, Any] = {}
    for klass in reversed(origin.__mro__):
        own = klass.__dict__.get("__annotations__")
        if not own or klass is object:
            continue
        hints = typing.get_type_hints(klass, include_extras=True)
        scope = scopes.get(klass, {})
        for name in own:
            if name in hints:
                out[name] = _substitute(hints[name], scope)
    return out


def _substitute(tp: Any, mapping: dict[Any, Any]) -> Any:
    if isinstance(tp, typing.TypeVar):
        return mapping.get(tp, tp)
    try:
        params = tuple(tp.__parameters__)
    except Exception:
        return tp
    if not params:
        return tp
    return tp[tuple(mapping.get(p, p) for p in params)]


class _Translator:
    def __init__(self) -> None:
        self.cache: dict[Any, _Node] = {}

    def translate(self, annotation: Any) -> _Node:
        t, args, metas = _unwrap(annotation)
        constraints: dict[str, Any] = {}
        extra_json: dict[str, Any] = {}
        for meta in metas:
            for name in ("ge", "gt", "le", "lt", "multiple_of", "pattern", "min_length", "max_length", "tz"):
                if (value := getattr(meta, name)) is not None:
                    constraints[name] = value
            for name in ("title", "description", "examples"):
                if (value := getattr(meta, name)) is not None:
                    extra_json[name] = value
            if meta.extra_json_schema is not None:
                extra_json = _merge_json(extra_json, _to_builtins(meta.extra_json_schema))
        node = self.translate_inner(t, args)
        if node.kind == "union":
            _check_union(annotation, node.items)
        self.check_constraints(annotation, node, constraints)
        if constraints:
            node = _Node(node.kind, cls=node.cls, c=constraints, items=node.items, unique=node.unique)
        if extra_json:
            return _Node("meta", inner=node, extra_json=extra_json)
        return node

    @staticmethod
    def check_constraints(annotation: Any, node: _Node, constraints: dict[str, Any]) -> None:
        for name in ("gt", "ge", "lt", "le", "multiple_of", "pattern", "min_length", "max_length", "tz"):
            if name in constraints:
                kinds, label = _CONSTRAINT_KINDS[name]
                if node.kind not in kinds:
                    raise TypeError(f"Can only set `{name}` on a {label} type - type `{annotation!r}` is invalid")

    def translate_inner(self, t: Any, args: Any) -> _Node:
        if t is Any:
            return _Node("any")
        if isinstance(t, typing.TypeVar):
            return self.translate(t.__bound__) if t.__bound__ is not None else _Node("any")
        if t is None or t is type(None):
            return _Node("none")
        try:
            kind = _SCALARS.get(t)
        except TypeError:
            kind = None
        if kind is not None:
            return _Node(kind)
        if t is _raw_type() and t is not None:
            return _Node("raw")
        if t in (list, set, frozenset):
            return _Node("array", items=(self.translate(args[0]) if args else _Node("any"),), unique=t is not list)
        if t is tuple:
            if args == ((),):  # typing.Tuple[()]
                args = ()
            if args is None:
                return _Node("array", items=(_Node("any"),))
            if len(args) == 2 and args[-1] is ...:
                return _Node("array", items=(self.translate(args[0]),))
            return _Node("tuple", items=tuple(self.translate(a) for a in args))
        if t is dict:
            key = self.translate(args[0]) if args else _Node("any")
            value = self.translate(args[1]) if args else _Node("any")
            return _Node("dict", items=(key, value))
        if t is Union:
            members = tuple(self.translate(a) for a in args if not _is_unset_type(a))
            return members[0] if len(members) == 1 else _Node("union", items=members)
        if t is Literal:
            if not all(v is None or type(v) in (bool, int, str) for v in args):
                shown = repr(Literal[args])
                raise TypeError(f"Literal may only contain None/booleans/integers/strings - {shown} is not supported")
            return _Node("literal", values=_literal_values(args))
        if isinstance(t, enum.EnumMeta):
            values = [m.value for m in t.__members__.values()]
            if not values:
                raise TypeError("Enum types must have at least one item, {} is invalid")
            if not (all(type(v) is str for v in values) or all(type(v) is int for v in values)):
                raise TypeError(f"Enums must contain either all str or all int values - type `{t!r}` is not supported")
            return _Node("enum", cls=t)
        if isinstance(t, StructMeta):
            return self.translate_struct(t, args)
        if _is_typeddict(t):
            return self.translate_typeddict(t, args)
        if dataclasses.is_dataclass(t) or hasattr(t, "__attrs_attrs__"):
            return self.translate_dataclass(t, args)
        if _is_namedtuple(t):
            return self.translate_namedtuple(t, args)
        return _Node("custom", cls=t)

    def cached(self, cls: Any, kind: str, **kw: Any) -> tuple[_Node, bool]:
        node = self.cache.get(cls)
        if node is not None:
            return node, True
        node = self.cache[cls] = _Node(kind, cls=cls, **kw)  # stored before the fields: recursion stops here
        return node, False

    def translate_struct(self, t: Any, args: Any) -> _Node:
        from boltwire.structs import fields as struct_fields

        cls = t[args] if args else t
        node, hit = self.cached(cls, "struct", config=t.__struct_config__)
        if hit:
            return node
        hints = _generic_hints(cls)
        out = []
        for f in struct_fields(cls):
            default = f.default
            if _is_unset_value(default):
                default = NODEFAULT
            hint = hints.get(f.name, f.type)
            out.append(_Field(f.name, f.encode_name, self.translate(hint), f.required, default, f.default_factory))
        node.fields = tuple(out)
        return node

    def translate_typeddict(self, t: Any, args: Any) -> _Node:
        cls = t[args] if args else t
        node, hit = self.cached(cls, "object")
        if hit:
            return node
        hints = _generic_hints(cls)
        required = set(getattr(t, "__required_keys__", hints if t.__total__ else ()))
        out = []
        for name, hint in sorted(hints.items()):
            inner: Any = hint.__origin__ if type(hint) is _ANNOTATED_ALIAS else hint
            qualifier = getattr(inner, "__origin__", None)
            if qualifier is typing.Required or qualifier is typing.NotRequired:
                (required.add if qualifier is typing.Required else required.discard)(name)
                unwrapped = inner.__args__[0]
                hint = typing.Annotated[(unwrapped, *hint.__metadata__)] if inner is not hint else unwrapped
            out.append(_Field(name, name, self.translate(hint), name in required))
        node.fields = tuple(out)
        return node

    def translate_dataclass(self, t: Any, args: Any) -> _Node:
        cls = t[args] if args else t
        node, hit = self.cached(cls, "object")
        if hit:
            return node
        hints = _generic_hints(cls)
        required, optional = [], []
        if dataclasses.is_dataclass(t):
            for f in t.__dataclass_fields__.values():
                if f._field_type is dataclasses._FIELD_INITVAR:  # type: ignore[attr-defined]
                    raise TypeError("dataclasses with `InitVar` fields are not supported")
                if f._field_type is not dataclasses._FIELD:  # type: ignore[attr-defined]
                    continue  # ClassVar
                node_f = self.translate(hints[f.name])
                if f.default is not dataclasses.MISSING:
                    default = NODEFAULT if _is_unset_value(f.default) else f.default
                    optional.append(_Field(f.name, f.name, node_f, False, default))
                elif f.default_factory is not dataclasses.MISSING:
                    optional.append(_Field(f.name, f.name, node_f, False, NODEFAULT, f.default_factory))
                else:
                    required.append(_Field(f.name, f.name, node_f, True))
        else:  # attrs
            import attrs

            for a in t.__attrs_attrs__:
                node_f = self.translate(hints.get(a.name, a.type if a.type is not None else Any))
                if a.default is attrs.NOTHING:
                    required.append(_Field(a.name, a.name, node_f, True))
                elif isinstance(a.default, attrs.Factory):  # type: ignore[arg-type]
                    optional.append(_Field(a.name, a.name, node_f, False, NODEFAULT, a.default.factory))
                else:
                    default = NODEFAULT if _is_unset_value(a.default) else a.default
                    optional.append(_Field(a.name, a.name, node_f, False, default))
        node.fields = tuple(required + optional)  # the decoder's order: required fields first
        return node

    def translate_namedtuple(self, t: Any, args: Any) -> _Node:
        cls = t[args] if args else t
        node, hit = self.cached(cls, "namedtuple")
        if hit:
            return node
        hints = _generic_hints(cls)
        defaults = t._field_defaults
        node.fields = tuple(
            _Field(
                name,
                name,
                self.translate(hints.get(name, Any)),
                name not in defaults,
                defaults.get(name, NODEFAULT),
            )
            for name in t._fields
        )
        return node


_STR_LIKE = {"str", "datetime", "date", "time", "timedelta", "uuid", "decimal", "bytes"}
_UNION_MESSAGES = {
    "custom": "Type unions containing a custom type may not contain any additional types other than `None`",
    "untagged": "If a type union contains multiple Struct types, all Struct types must be tagged "
    "(via `tag` or `tag_field` kwarg)",
    "tag_field": "If a type union contains multiple Struct types, all Struct types must have the same `tag_field`",
    "tag_types": "Type unions may not contain Struct types with both `int` and `str` tags",
    "array_like": "Type unions may not contain Struct types with `array_like=True` and `array_like=False`",
    "sequences": "Type unions may not contain more than one array-like (list, set, tuple) type",
    "array": "Type unions may not contain more than one array-like type "
    "(`Struct(array_like=True)`, `list`, `set`, `frozenset`, `tuple`, `NamedTuple`)",
    "dict": "Type unions may not contain more than one dict-like type (`Struct`, `dict`, `TypedDict`, `dataclass`)",
    "int": "Type unions may not contain more than one int-like type (`int`, `Enum`, `Literal[int values]`)",
    "str": "Type unions may not contain more than one str-like type (`str`, `Enum`, `Literal[str values]`, "
    "`datetime`, `date`, `time`, `timedelta`, `uuid`, `decimal`, `bytes`, `bytearray`)",
}


def _check_union(annotation: Any, members: tuple[_Node, ...]) -> None:
    """msgspec's rules for which types a union may combine: a decoder must be able to pick a member from the
    JSON value's own type, so at most one member per JSON shape (tagged Structs share the object shape)."""
    kinds = []
    for m in members:
        while m.kind == "meta":
            m = m.inner
        kinds.append(m)
    if any(m.kind == "any" for m in kinds):
        return  # Any takes every value; nothing to tell apart

    def fail(key: str) -> None:
        raise TypeError(f"{_UNION_MESSAGES[key]} - type `{annotation!r}` is not supported")

    others = [m for m in kinds if m.kind != "none"]
    if any(m.kind == "custom" for m in others) and len(others) > 1:
        fail("custom")

    structs = [m for m in kinds if m.kind == "struct"]
    if len(structs) > 1:
        if any(m.config.tag is None for m in structs):
            fail("untagged")
        if len({m.config.tag_field for m in structs}) > 1:
            fail("tag_field")
        if len({type(m.config.tag) for m in structs}) > 1:
            fail("tag_types")
        if len({bool(m.config.array_like) for m in structs}) > 1:
            fail("array_like")

    sequences = sum(m.kind in ("array", "tuple") for m in kinds)
    array_structs = any(m.kind == "struct" and m.config.array_like for m in kinds)
    namedtuples = sum(m.kind == "namedtuple" for m in kinds)
    if sequences + int(array_structs) + namedtuples > 1:
        fail("array" if array_structs or namedtuples else "sequences")

    object_structs = any(m.kind == "struct" and not m.config.array_like for m in kinds)
    dicts = sum(m.kind in ("dict", "object") for m in kinds)
    if dicts + int(object_structs) > 1:
        fail("dict")

    def enum_values_are(m: _Node, kind: type) -> bool:
        return all(isinstance(v.value, kind) for v in m.cls.__members__.values())

    has_int = any(m.kind == "int" for m in kinds)
    int_literal = any(m.kind == "literal" and any(type(v) is int for v in m.values) for m in kinds)
    int_enums = sum(m.kind == "enum" and enum_values_are(m, int) for m in kinds)
    if int(has_int) + int(int_literal and not has_int) + int_enums > 1:
        fail("int")

    has_str = any(m.kind == "str" for m in kinds)
    str_literal = any(m.kind == "literal" and any(type(v) is str for v in m.values) for m in kinds)
    str_enums = sum(m.kind == "enum" and enum_values_are(m, str) for m in kinds)
    other_str = sum(m.kind in _STR_LIKE and m.kind != "str" for m in kinds)
    if int(has_str) + int(str_literal and not has_str) + str_enums + other_str > 1:
        fail("str")
