"""JSON Schema 2020-12 / OpenAPI 3.1 generation: ``boltwire.json.schema`` and ``schema_components``.

Overview: two steps. ``_Translator`` turns annotations into a small tree of ``_Node`` objects (wrappers such as
Annotated / NewType / Final / type aliases stripped, ``Meta`` constraints merged, class types read once and
cached so recursive types terminate). ``_Generator`` walks that tree into schema dicts; nameable classes
(Struct, dataclass, attrs, NamedTuple, TypedDict, Enum) become shared components referenced with ``$ref``.
The output matches msgspec.json.schema for the same types, key order included.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime
import decimal
import enum
import inspect
import json as _stdlib_json
import re
import textwrap
import types
import typing
import uuid
from collections.abc import Callable, Iterable
from typing import Any, Final, Literal, Union

from boltwire._core import NODEFAULT, StructMeta
from boltwire._meta import Meta

__all__ = ["schema", "schema_components"]

_REF_TEMPLATE: Final = "#/$defs/{name}"

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

_ANNOTATED_ALIAS = type(typing.Annotated[int, 0])
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


def schema(
    type: Any,
    *,
    schema_hook: Callable[[type], dict[str, Any]] | None = None,
    ref_template: str = _REF_TEMPLATE,
) -> dict[str, Any]:
    """Generate a JSON Schema (2020-12, also valid OpenAPI 3.1) for ``type``.

    Shared components (Structs, dataclasses, NamedTuples, TypedDicts, Enums) go in a top-level ``"$defs"``.
    ``schema_hook(cls)`` returns the schema of a type boltwire does not know; ``ref_template`` is formatted
    with ``name=`` to build each ``"$ref"``.
    """
    (out,), components = schema_components((type,), schema_hook=schema_hook, ref_template=ref_template)
    if components:
        out["$defs"] = components
    return out


def schema_components(
    types: Iterable[Any],
    *,
    schema_hook: Callable[[type], dict[str, Any]] | None = None,
    ref_template: str = _REF_TEMPLATE,
) -> tuple[tuple[dict[str, Any], ...], dict[str, Any]]:
    """Generate JSON Schemas for several types at once.

    Returns ``(schemas, components)``: one schema per type, and the mapping of component name to schema that
    their ``"$ref"`` fields point into (with ``ref_template="#/components/schemas/{name}"`` for OpenAPI).
    """
    translator = _Translator()
    nodes = tuple(translator.translate(t) for t in types)
    found = _collect_components(nodes)
    names = _name_components(found)
    gen = _Generator(names, schema_hook, ref_template)
    schemas = tuple(gen.to_schema(n) for n in nodes)
    components = {names[cls]: gen.to_schema(node, check_ref=False) for cls, node in found.items()}
    return schemas, components


# ----------------------------------------------------------------------------------------------------------------
# Step 1: annotations -> nodes


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


def _unwrap(t: Any) -> tuple[Any, Any, list[Meta]]:
    """Strip Annotated / Final / NewType / type aliases: (origin, args or None, Meta objects in apply order)."""
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
            return _Node("any")
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
            return _Node("literal", values=_literal_values(args))
        if isinstance(t, enum.EnumMeta):
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
            inner = hint.__origin__ if type(hint) is _ANNOTATED_ALIAS else hint
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


# ----------------------------------------------------------------------------------------------------------------
# Components: which classes get a name, and which name


def _collect_components(nodes: Iterable[_Node]) -> dict[Any, _Node]:
    found: dict[Any, _Node] = {}

    def visit(node: _Node) -> None:
        kind = node.kind
        if kind in ("struct", "object", "namedtuple"):
            if node.cls not in found:
                found[node.cls] = node
                for f in node.fields:
                    visit(f.node)
        elif kind == "enum":
            found[node.cls] = node
        elif kind == "meta":
            visit(node.inner)
        elif kind in ("array", "tuple", "dict", "union"):
            for item in node.items:
                visit(item)

    for n in nodes:
        visit(n)
    return found


def _type_repr(obj: Any) -> str:
    return obj.__name__ if isinstance(obj, type) else repr(obj)


def _class_name(cls: Any) -> str:
    if hasattr(cls, "__origin__"):
        return f"{cls.__origin__.__name__}[{', '.join(_type_repr(a) for a in cls.__args__)}]"
    return cls.__name__


def _name_components(found: dict[Any, _Node]) -> dict[Any, str]:
    """Short class names; the full import path where two short names clash; a numeric suffix if still equal."""

    def normalize(name: str) -> str:
        return re.sub(r"[^a-zA-Z0-9.\-_]", "_", name)

    short = {cls: normalize(_class_name(cls)) for cls in found}
    counts = collections.Counter(short.values())
    preferred = {
        cls: normalize(f"{cls.__module__}.{cls.__qualname__}") if counts[name] > 1 else name
        for cls, name in short.items()
    }
    reserved = set(preferred.values())
    used: set[str] = set()
    names = {}
    for cls, name in preferred.items():
        candidate, suffix = name, 2
        if candidate in used:
            while True:
                candidate = f"{name}_{suffix}"
                suffix += 1
                if candidate not in used and candidate not in reserved:
                    break
        names[cls] = candidate
        used.add(candidate)
    return names


def _class_doc(node: _Node) -> str:
    cls = getattr(node.cls, "__origin__", node.cls)
    doc = getattr(cls, "__doc__", "")
    if not doc:
        return ""
    doc = inspect.cleandoc(textwrap.dedent(doc).expandtabs())
    if node.kind == "enum":
        return "" if doc == "An enumeration." else doc
    if node.kind in ("namedtuple", "object") and not _is_typeddict(cls):
        # dataclasses and namedtuples write a signature-like docstring when the class has none
        if doc.startswith(f"{cls.__name__}(") and doc.endswith(")"):
            return ""
    return doc


def _is_string_key(node: _Node) -> bool:
    while node.kind == "meta":
        node = node.inner
    if node.kind == "str":
        return True
    if node.kind == "literal":
        return all(isinstance(v, str) for v in node.values)
    if node.kind == "enum":
        return all(isinstance(m.value, str) for m in node.cls.__members__.values())
    if node.kind == "union":
        return all(_is_string_key(n) for n in node.items)
    return False


# ----------------------------------------------------------------------------------------------------------------
# Step 2: nodes -> schema dicts


class _Generator:
    def __init__(self, names: dict[Any, str], schema_hook: Any, ref_template: str) -> None:
        self.names = names
        self.schema_hook = schema_hook
        self.ref_template = ref_template

    def ref(self, cls: Any) -> str:
        return self.ref_template.format(name=self.names[cls])

    def to_schema(self, node: _Node, check_ref: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while node.kind == "meta":
            out = _merge_json(out, node.extra_json)
            node = node.inner
        if check_ref and node.cls is not None and node.cls in self.names:
            out["$ref"] = self.ref(node.cls)
            return out
        return getattr(self, "schema_" + node.kind)(node, out)

    def schema_any(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        return out

    def schema_none(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "null"
        return out

    def schema_bool(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "boolean"
        return out

    def schema_int(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "integer" if node.kind == "int" else "number"
        c = node.c
        for name, key in (
            ("ge", "minimum"),
            ("gt", "exclusiveMinimum"),
            ("le", "maximum"),
            ("lt", "exclusiveMaximum"),
            ("multiple_of", "multipleOf"),
        ):
            if name in c:
                out[key] = c[name]
        return out

    schema_float = schema_int

    def schema_str(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "string"
        for name, key in (("max_length", "maxLength"), ("min_length", "minLength"), ("pattern", "pattern")):
            if name in node.c:
                out[key] = node.c[name]
        return out

    def schema_bytes(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "string"
        out["contentEncoding"] = "base64"
        for name, key in (("max_length", "maxLength"), ("min_length", "minLength")):
            if name in node.c:
                out[key] = 4 * ((node.c[name] + 2) // 3)  # length of the base64 text
        return out

    def schema_datetime(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "string"
        if node.c.get("tz") is True:
            out["format"] = "date-time"
        return out

    def schema_time(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "string"
        tz = node.c.get("tz")
        if tz is True:
            out["format"] = "time"
        elif tz is False:
            out["format"] = "partial-time"
        return out

    def _string_format(fmt: str) -> Callable[..., dict[str, Any]]:  # type: ignore[misc]
        def method(self: _Generator, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
            out["type"] = "string"
            out["format"] = fmt
            return out

        return method

    schema_date = _string_format("date")
    schema_timedelta = _string_format("duration")
    schema_uuid = _string_format("uuid")
    schema_decimal = _string_format("decimal")
    del _string_format

    def schema_array(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "array"
        (item,) = node.items
        if item.kind != "any":
            out["items"] = self.to_schema(item)
        if "max_length" in node.c:
            out["maxItems"] = node.c["max_length"]
        if "min_length" in node.c:
            out["minItems"] = node.c["min_length"]
        if node.unique:
            out["uniqueItems"] = True
        return out

    def schema_tuple(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "array"
        out["minItems"] = out["maxItems"] = len(node.items)
        if node.items:
            out["prefixItems"] = [self.to_schema(i) for i in node.items]
            out["items"] = False
        return out

    def schema_dict(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["type"] = "object"
        key, value = node.items
        if _is_string_key(key):
            names = self.to_schema(key)
            names.pop("type", None)  # object keys are always strings
            if names:
                out["propertyNames"] = names
        if value.kind != "any":
            out["additionalProperties"] = self.to_schema(value)
        if "max_length" in node.c:
            out["maxProperties"] = node.c["max_length"]
        if "min_length" in node.c:
            out["minProperties"] = node.c["min_length"]
        return out

    def schema_union(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        structs: dict[Any, _Node] = {}
        other: list[_Node] = []
        none_member = None
        tag_field = None
        for member in node.items:
            real = member
            while real.kind == "meta":
                real = real.inner
            if real.kind == "struct" and not real.config.array_like:
                tag_field = real.config.tag_field
                structs[real.config.tag] = real
            elif real.kind == "none":
                none_member = member
            else:
                other.append(member)
        options = [self.to_schema(m) for m in other]
        if len(structs) >= 2:
            tagged = {
                "anyOf": [self.to_schema(s) for s in structs.values()],
                "discriminator": {
                    "propertyName": tag_field,
                    "mapping": {tag: self.ref(s.cls) for tag, s in structs.items()},
                },
            }
            if options:
                options.append(tagged)
                if none_member is not None:
                    options.append(self.to_schema(none_member))
                out["anyOf"] = options
            elif none_member is not None:
                out["anyOf"] = [tagged, self.to_schema(none_member)]
            else:
                out.update(tagged)
            return out
        if structs:
            options.append(self.to_schema(next(iter(structs.values()))))
        if none_member is not None:
            options.append(self.to_schema(none_member))
        out["anyOf"] = options
        return out

    def schema_literal(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out["enum"] = list(node.values)
        return out

    def schema_enum(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        out.setdefault("title", node.cls.__name__)
        if doc := _class_doc(node):
            out.setdefault("description", doc)
        members = {id(m): m for m in node.cls.__members__.values()}  # aliases share a member
        out["enum"] = sorted(m.value for m in members.values())
        return out

    def field_schemas(self, node: _Node) -> tuple[list[str], list[dict[str, Any]], list[str]]:
        names, schemas, required = [], [], []
        for f in node.fields:
            s = self.to_schema(f.node)
            if f.required:
                required.append(f.encode_name)
            elif f.default is not NODEFAULT:
                s["default"] = _to_builtins(f.default)
            elif f.default_factory in (list, dict, set, bytearray):
                s["default"] = _to_builtins(f.default_factory())
            names.append(f.encode_name)
            schemas.append(s)
        return names, schemas, required

    def titled(self, node: _Node, out: dict[str, Any]) -> None:
        out.setdefault("title", _class_name(node.cls))
        if doc := _class_doc(node):
            out.setdefault("description", doc)

    def schema_struct(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        self.titled(node, out)
        config = node.config
        names, schemas, required = self.field_schemas(node)
        if config.tag_field is not None:
            names.insert(0, config.tag_field)
            schemas.insert(0, {"enum": [config.tag]})
            required.insert(0, config.tag_field)
        if config.array_like:
            trailing_defaults = 0
            for f in reversed(node.fields):
                if f.required:
                    break
                trailing_defaults += 1
            out["type"] = "array"
            if schemas:
                out["prefixItems"] = schemas
            out["minItems"] = len(schemas) - trailing_defaults
            if config.forbid_unknown_fields:
                out["maxItems"] = len(schemas)
        else:
            out["type"] = "object"
            out["properties"] = dict(zip(names, schemas))
            out["required"] = required
            if config.forbid_unknown_fields:
                out["additionalProperties"] = False
        return out

    def schema_object(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        self.titled(node, out)
        names, schemas, required = self.field_schemas(node)
        out["type"] = "object"
        out["properties"] = dict(zip(names, schemas))
        out["required"] = required
        return out

    def schema_namedtuple(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        self.titled(node, out)
        _, schemas, required = self.field_schemas(node)
        out["type"] = "array"
        if schemas:
            out["prefixItems"] = schemas
        out["minItems"] = len(required)
        out["maxItems"] = len(schemas)
        return out

    def schema_custom(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        if self.schema_hook is not None:
            try:
                out = _merge_json(self.schema_hook(node.cls).copy(), out)
            except NotImplementedError:
                pass
        if not out:
            raise TypeError(
                "Generating JSON schema for custom types requires either:\n"
                "- specifying a `schema_hook`\n"
                "- annotating the type with `Meta(extra_json_schema=...)`\n"
                "\n"
                f"type {node.cls!r} is not supported"
            )
        return out
