"""Annotation introspection for the native type planner (csrc/schema/plan_builder.cpp).

The planner calls `describe(annotation)` once per annotation while it builds a TypePlan; the result is a flat
tuple `(kind, *details)` whose child annotations are left unresolved, so the planner recurses (and detects
recursive Struct types) itself. Everything here runs once per type, never per decoded value, which is why it
is Python: `typing` already knows how to resolve forward references, generics and aliases.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime
import decimal
import enum
import sys
import types
import typing
import uuid
from typing import Any

from boltwire._core import NODEFAULT, Factory, MsgpackExt, Raw, StructMeta, UnsetType, _struct_ready

_SIMPLE = {
    Any: "any",
    object: "any",
    type(None): "none",
    None: "none",
    bool: "bool",
    int: "int",
    float: "float",
    str: "str",
    bytes: "bytes",
    bytearray: "bytearray",
    memoryview: "memoryview",
    datetime.datetime: "datetime",
    datetime.date: "date",
    datetime.time: "time",
    datetime.timedelta: "timedelta",
    uuid.UUID: "uuid",
    decimal.Decimal: "decimal",
}
_ARRAYS = {
    list: "list",
    set: "set",
    frozenset: "frozenset",
    collections.abc.Sequence: "list",
    collections.abc.MutableSequence: "list",
    collections.abc.Collection: "list",
    collections.abc.Set: "set",
    collections.abc.MutableSet: "set",
    typing.List: "list",
    typing.Set: "set",
    typing.FrozenSet: "frozenset",
    typing.Sequence: "list",
    typing.MutableSequence: "list",
    typing.Collection: "list",
    typing.AbstractSet: "set",
    typing.MutableSet: "set",
}
_MAPPINGS = {dict, collections.abc.Mapping, collections.abc.MutableMapping, typing.Dict, typing.Mapping,
             typing.MutableMapping}
_UNION_TYPES = (typing.Union, types.UnionType)
_TypeAliasType = getattr(typing, "TypeAliasType", None)
_BIG_INT_MESSAGE = (
    "Integer values > (2**63 - 1) are not currently supported for Enum/Literal/integer tags. "
    "If you need this feature, please open an issue on GitHub."
)


def _resolve_hints(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    return typing.get_type_hints(cls, globalns=vars(module) if module else None, include_extras=True)


def _generic_mapping(annotation: Any) -> tuple[Any, dict[Any, Any]]:
    origin = typing.get_origin(annotation)
    if origin is None:
        return annotation, {}
    params = getattr(origin, "__parameters__", ())
    return origin, dict(zip(params, typing.get_args(annotation)))


def _substitute(tp: Any, mapping: dict[Any, Any]) -> Any:
    if not mapping:
        return tp
    if isinstance(tp, typing.TypeVar):
        return mapping.get(tp, tp)
    try:
        params = tuple(tp.__parameters__)
    except Exception:  # noqa: BLE001 (objects whose __parameters__ is missing or not iterable)
        return tp
    if params:
        return tp[tuple(mapping.get(p, p) for p in params)]
    return tp


def _typevar_scopes(annotation: Any) -> dict[Any, dict[Any, Any]]:
    """For each generic class in the MRO of a class or generic alias, the binding of its TypeVars.

    Bindings reach a base through ``__orig_bases__`` (so ``class IntBox(Box[int])`` binds Box's T to int).
    """
    origin = typing.get_origin(annotation) or annotation
    params = getattr(origin, "__parameters__", ())
    scopes: dict[Any, dict[Any, Any]] = {origin: dict(zip(params, typing.get_args(annotation)))}
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
    return scopes


def _class_hints(annotation: Any) -> dict[str, Any]:
    """Type hints (Annotated kept) of a class or a parametrized generic alias, TypeVars substituted.

    Each class in the MRO contributes its own annotations, substituted with the TypeVar bindings that reach it
    (_typevar_scopes); subclasses override.
    """
    origin = typing.get_origin(annotation) or annotation
    scopes = _typevar_scopes(annotation)
    if _is_typeddict(origin):
        # A TypedDict's MRO drops its TypedDict bases and copies their annotations: every binding applies.
        merged: dict[Any, Any] = {}
        for scope in scopes.values():
            merged.update(scope)
        return {k: _substitute(v, merged) for k, v in _resolve_hints(origin).items()}
    out: dict[str, Any] = {}
    for klass in reversed(origin.__mro__):
        own = klass.__dict__.get("__annotations__")
        if not own or klass is object:
            continue
        hints = _resolve_hints(klass)
        scope = scopes.get(klass, {})
        for name in own:
            if name in hints:
                out[name] = _substitute(hints[name], scope)
    return out


def _typevar_bound(tv: typing.TypeVar) -> Any:
    if tv.__bound__ is not None:
        return tv.__bound__
    if tv.__constraints__:
        raise TypeError(
            f"Unbound TypeVar `{tv!r}` has constraints `{tv.__constraints__!r}` - constraints are not supported; "
            "bind the parameter explicitly, or give the TypeVar a `bound` instead"
        )
    return Any


def struct_field_types(annotation: Any) -> tuple[Any, ...]:
    """The resolved type of every field of a Struct class or generic alias (`Box[int]`), in field order."""
    cls = typing.get_origin(annotation) or annotation
    hints = _class_hints(annotation)
    out = []
    for name in cls.__struct_fields__:
        tp = hints.get(name, Any)
        out.append(_typevar_bound(tp) if isinstance(tp, typing.TypeVar) else tp)
    return tuple(out)


def _default_entry(default: Any, factory: Any) -> Any:
    if default is not dataclasses.MISSING and default is not NODEFAULT:
        return default
    if factory is not dataclasses.MISSING and factory is not NODEFAULT:
        return Factory(factory)
    return NODEFAULT


def _dataclass_fields(cls: type, annotation: Any) -> tuple[tuple[str, Any, Any], ...]:
    hints = _class_hints(annotation)
    if any(isinstance(h, dataclasses.InitVar) for h in hints.values()):
        raise TypeError("dataclasses with `InitVar` fields are not supported")
    out = []
    for f in dataclasses.fields(cls):  # init=False fields too: they are set from the input like the others
        out.append((f.name, hints.get(f.name, Any), _default_entry(f.default, f.default_factory)))
    return tuple(out)


def _attrs_fields(cls: type, annotation: Any) -> tuple[tuple[str, Any, Any], ...]:
    import attrs

    hints = _class_hints(annotation)
    owners: dict[str, type] | None = None  # the class defining each field, for fields typed by `type=` only
    out = []
    for a in attrs.fields(cls):
        default = a.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            if default.takes_self:
                raise NotImplementedError("Support for default factories with `takes_self=True` is not implemented")
            entry = Factory(default.factory)
        elif default is attrs.NOTHING:
            entry = NODEFAULT
        else:
            entry = default
        if a.name in hints:
            tp = hints[a.name]
        elif a.type is None:
            tp = Any
        else:  # `attrs.field(type=T)`: T bound by the alias (`G[int]`) in the class that defines the field
            if owners is None:
                owners = {f.name: c for c in reversed(cls.__mro__) for f in getattr(c, "__attrs_attrs__", ())
                          if not f.inherited}
            tp = _substitute(a.type, _typevar_scopes(annotation).get(owners.get(a.name), {}))
        out.append((a.name, tp, entry))
    return tuple(out)


def _is_attrs(cls: Any) -> bool:
    return isinstance(cls, type) and hasattr(cls, "__attrs_attrs__")


def _is_typeddict(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, dict) and hasattr(cls, "__total__")


def _is_namedtuple(cls: Any) -> bool:
    # msgspec's rule: a tuple subclass whose `_fields` is a tuple and `_field_defaults` a dict; anything else
    # with a `_fields` attribute is a custom type.
    return (
        isinstance(cls, type)
        and issubclass(cls, tuple)
        and type(getattr(cls, "_fields", None)) is tuple
        and type(getattr(cls, "_field_defaults", None)) is dict
    )


def _check_alias_arity(cls: type, args: tuple[Any, ...]) -> None:
    """A hand-built alias (`types.GenericAlias(C, (int,))`) must parametrize a generic class, fully."""
    params = getattr(cls, "__parameters__", ())
    if not params:
        raise TypeError(f"{cls!r} is not a generic type")
    if len(args) != len(params):
        raise TypeError(f"Too {'many' if len(args) > len(params) else 'few'} arguments for {cls!r}; "
                        f"actual {len(args)}, expected {len(params)}")


def describe(annotation: Any) -> tuple[Any, ...]:
    """One level of `annotation`, as `(kind, *details)`; see the module docstring."""
    t = annotation
    if isinstance(t, str):
        raise TypeError(f"Type '{t!r}' is not supported (unresolved forward reference)")
    if isinstance(t, typing.ForwardRef):
        raise TypeError(f"Type '{t!r}' is not supported (unresolved forward reference)")
    try:
        simple = _SIMPLE.get(t)
    except TypeError:  # unhashable annotation objects
        simple = None
    if simple is not None:
        return (simple,)
    if isinstance(t, typing.TypeVar):
        return ("alias", _typevar_bound(t))
    if isinstance(t, typing.NewType):
        return ("alias", t.__supertype__)
    if _TypeAliasType is not None and isinstance(t, _TypeAliasType):
        return ("alias", t.__value__)
    origin = typing.get_origin(t)
    args = typing.get_args(t)
    if _TypeAliasType is not None and isinstance(origin, _TypeAliasType):
        params = origin.__type_params__
        return ("alias", _substitute(origin.__value__, dict(zip(params, args))))
    if origin is typing.Annotated:
        return ("annotated", args[0], tuple(args[1:]))
    if origin is typing.Final or t is typing.Final:
        return ("alias", args[0] if args else Any)
    if origin in (typing.Required, typing.NotRequired):
        return ("alias", args[0])
    if origin is typing.ClassVar:
        raise TypeError(f"Type '{t!r}' is not supported")
    if origin in _UNION_TYPES:
        return ("union", tuple(args))
    if origin is typing.Literal:
        values: list[Any] = []
        for a in args:
            if typing.get_origin(a) is typing.Literal:
                values.extend(typing.get_args(a))
            else:
                values.append(a)
        for v in values:
            if v is not None and type(v) not in (int, str, bool) and not isinstance(v, enum.Enum):
                raise TypeError(f"Literal may only contain None/booleans/integers/strings - {t!r} is not supported")
            if type(v) is int and not -(2**63) <= v <= 2**63 - 1:
                raise NotImplementedError(_BIG_INT_MESSAGE)
        return ("literal", tuple(values))
    if t is tuple or t is typing.Tuple:
        return ("vartuple", Any)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return ("vartuple", args[0])
        if args == ((),):
            return ("tuple", ())
        return ("tuple", tuple(args))
    kind = _ARRAYS.get(origin if origin is not None else t)
    if kind is not None:
        return (kind, args[0] if args else Any)
    if (origin if origin is not None else t) in _MAPPINGS:
        return ("dict", args[0] if args else Any, args[1] if len(args) > 1 else Any)
    cls = origin if origin is not None else t
    if args and (isinstance(cls, StructMeta) or _is_typeddict(cls) or _is_namedtuple(cls) or _is_attrs(cls)
                 or (isinstance(cls, type) and dataclasses.is_dataclass(cls))):
        _check_alias_arity(cls, args)
    if isinstance(cls, StructMeta):
        if not _struct_ready(cls):
            raise ValueError(
                f"Type `{cls!r}` isn't fully defined, and can't be used in any `Decoder`/`decode` operations. This "
                "commonly happens when trying to use the struct type within an `__init_subclass__` method."
            )
        return ("struct", cls)
    if isinstance(cls, type) and issubclass(cls, enum.Enum):
        if not cls.__members__:
            raise TypeError(f"Enum types must have at least one item, {dict(cls.__members__)!r} is invalid")
        for member in cls.__members__.values():
            if type(member.value) is int or isinstance(member.value, int) and not isinstance(member.value, bool):
                if not -(2**63) <= member.value <= 2**63 - 1:
                    raise NotImplementedError(_BIG_INT_MESSAGE)
        # A class overriding Enum._missing_ gets it called for values outside its members (msgspec does).
        default_missing = getattr(enum.Enum._missing_, "__func__", None)
        custom_missing = getattr(cls._missing_, "__func__", None) is not default_missing
        return ("enum", cls, custom_missing)
    if _is_typeddict(cls):
        hints = _class_hints(t)
        required = set(getattr(cls, "__required_keys__", hints if cls.__total__ else ()))
        for name, tp in hints.items():  # Required[] / NotRequired[] in the hint win: `__required_keys__` misses
            inner = typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp  # them under
            qualifier = typing.get_origin(inner)  # `from __future__ import annotations`
            if qualifier is typing.Required:
                required.add(name)
            elif qualifier is typing.NotRequired:
                required.discard(name)
        if not required <= hints.keys():  # introspection data that contradicts itself (msgspec: RuntimeError)
            raise RuntimeError(f"{cls!r}.__required_keys__ names keys without annotations: {sorted(required - hints.keys())}")
        fields = tuple((name, tp, name in required) for name, tp in hints.items())
        return ("typeddict", cls, fields)
    if _is_namedtuple(cls):
        hints = _class_hints(t) if getattr(cls, "__annotations__", None) else {}
        defaults = getattr(cls, "_field_defaults", {})
        fields = tuple((name, hints.get(name, Any), defaults.get(name, NODEFAULT)) for name in cls._fields)
        return ("namedtuple", cls, fields)
    if dataclasses.is_dataclass(cls) and isinstance(cls, type):
        return ("dataclass", cls, _dataclass_fields(cls, t))
    if _is_attrs(cls):
        return ("dataclass", cls, _attrs_fields(cls, t))
    if cls is Raw:
        return ("raw",)
    if cls is MsgpackExt:
        return ("ext", cls)
    if cls is UnsetType:
        return ("unset",)
    if isinstance(cls, type):
        return ("custom", cls)
    raise TypeError(f"Type '{t!r}' is not supported")
