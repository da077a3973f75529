"""Annotations -> a small tree of ``_Node`` objects, the first step of JSON Schema generation.

The tree is read from ``boltwire.inspect`` (wrappers stripped, ``Meta`` merged in msgspec's order, one node per
class so recursive types terminate, unsupported types refused by the decoder's own checks); ``_json_schema``
turns the nodes into schema dicts.
"""

from __future__ import annotations

import enum
import json as _stdlib_json
from collections.abc import Callable
from typing import Any

from boltwire._core import NODEFAULT


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


def _is_typeddict(t: Any) -> bool:
    try:
        return issubclass(t, dict) and hasattr(t, "__total__") and hasattr(t, "__annotations__")
    except TypeError:
        return False


_SCALAR_KINDS = {
    "AnyType": "any", "NoneType": "none", "BoolType": "bool", "IntType": "int", "FloatType": "float",
    "StrType": "str", "BytesType": "bytes", "ByteArrayType": "bytes", "MemoryViewType": "bytes",
    "DateTimeType": "datetime", "TimeType": "time", "DateType": "date", "TimeDeltaType": "timedelta",
    "UUIDType": "uuid", "DecimalType": "decimal", "RawType": "raw",
}
_CONSTRAINT_FIELDS = ("ge", "gt", "le", "lt", "multiple_of", "pattern", "min_length", "max_length", "tz")


class _Translator:
    """Annotations -> _Node trees, read from boltwire.inspect's Type trees (which the decoder's own checks
    validated first): the schema and the decoder share one reading of every annotation."""

    def __init__(self) -> None:
        self.cache: dict[int, _Node] = {}

    def translate_all(self, annotations: Any) -> tuple[_Node, ...]:
        from boltwire import inspect as bw_inspect

        return tuple(self.node(t) for t in bw_inspect.multi_type_info(annotations))

    def node(self, t: Any) -> _Node:
        name = type(t).__name__
        if name == "Metadata":
            inner = self.node(t.type)
            return _Node("meta", inner=inner, extra_json=t.extra_json_schema) if t.extra_json_schema else inner
        c = {f: getattr(t, f) for f in _CONSTRAINT_FIELDS if getattr(t, f, None) is not None}
        kind = _SCALAR_KINDS.get(name)
        if kind is not None:
            return _Node(kind, c=c)
        if name in ("ListType", "VarTupleType", "SetType", "FrozenSetType"):
            return _Node("array", c=c, items=(self.node(t.item_type),), unique=name in ("SetType", "FrozenSetType"))
        if name == "TupleType":
            return _Node("tuple", items=tuple(self.node(i) for i in t.item_types))
        if name in ("DictType", "FrozenDictType"):
            return _Node("dict", c=c, items=(self.node(t.key_type), self.node(t.value_type)))
        if name == "UnionType":
            return _Node("union", items=tuple(self.node(m) for m in t.types))
        if name == "LiteralType":
            return _Node("literal", values=t.values)
        if name == "EnumType":
            return _Node("enum", cls=t.cls)
        if name == "ExtType":
            return _Node("ext")
        if name == "CustomType":
            return _Node("custom", cls=t.cls)
        return self.object_node(t, name)

    def object_node(self, t: Any, name: str) -> _Node:
        hit = self.cache.get(id(t))  # inspect shares one Type per class: recursion stops here
        if hit is not None:
            return hit
        kind = {"StructType": "struct", "NamedTupleType": "namedtuple"}.get(name, "object")
        origin = getattr(t.cls, "__origin__", t.cls)
        config = origin.__struct_config__ if kind == "struct" else None
        node = self.cache[id(t)] = _Node(kind, cls=t.cls, config=config)
        node.fields = tuple(
            _Field(f.name, f.encode_name, self.node(f.type), f.required, f.default, f.default_factory)
            for f in t.fields
        )
        return node
