"""JSON Schema 2020-12 / OpenAPI 3.1 generation: ``boltwire.json.schema`` and ``schema_components``.

Overview: two steps. ``_schema_nodes._Translator`` turns annotations into a small tree of nodes, read from
``boltwire.inspect`` (wrappers stripped, ``Meta`` merged, classes shared, unsupported types refused by the
decoder's own checks). ``_Generator`` here walks that tree into schema dicts; nameable
classes (Struct, dataclass, attrs, NamedTuple, TypedDict, Enum) become shared components referenced with
``$ref``. The output matches msgspec.json.schema for the same types, key order included.
"""

from __future__ import annotations

import collections
import inspect
import re
import textwrap
from collections.abc import Callable, Iterable
from typing import Any, Final

from boltwire._core import NODEFAULT
from boltwire._schema_nodes import _is_typeddict, _merge_json, _Node, _to_builtins, _Translator

__all__ = ["schema", "schema_components"]

_REF_TEMPLATE: Final = "#/$defs/{name}"


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
    nodes = _Translator().translate_all(tuple(types))
    found = _collect_components(nodes)
    names = _name_components(found)
    gen = _Generator(names, schema_hook, ref_template)
    schemas = tuple(gen.to_schema(n) for n in nodes)
    components = {names[cls]: gen.to_schema(node, check_ref=False) for cls, node in found.items()}
    return schemas, components


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

    # Raw accepts any JSON value too, but msgspec still lists it where Any is left out (array items).
    schema_raw = schema_any

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
        fallback = None
        tag_field = None
        for member in node.items:
            real = member
            while real.kind == "meta":
                real = real.inner
            if real.kind == "struct" and getattr(real.config, "tag_fallback", False) and len(node.items) > 1:
                fallback = real
            elif real.kind == "struct" and not real.config.array_like:
                tag_field = real.config.tag_field
                structs[real.config.tag] = real
            elif real.kind == "none":
                none_member = member
            else:
                other.append(member)
        options = [self.to_schema(m) for m in other]
        if fallback is not None and structs:
            # Unknown tags decode as the fallback: a discriminator's mapping would claim to be exhaustive.
            tagged: dict[str, Any] = {"anyOf": [self.to_schema(s) for s in (*structs.values(), fallback)]}
        elif len(structs) >= 2:
            tagged = {
                "anyOf": [self.to_schema(s) for s in structs.values()],
                "discriminator": {
                    "propertyName": tag_field,
                    "mapping": {tag: self.ref(s.cls) for tag, s in structs.items()},
                },
            }
        if (fallback is not None and structs) or len(structs) >= 2:
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
        if structs or fallback is not None:
            options.append(self.to_schema(next(iter(structs.values())) if structs else fallback))
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
        extra_field = getattr(node.config, "extra_field", None)
        for f in node.fields:
            if f.name == extra_field:  # its items are the unknown keys: additionalProperties (schema_struct)
                continue
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
            if config.extra_field is not None:  # kept unknown keys: any name, values of the dict's value type
                extra = next(f for f in node.fields if f.name == config.extra_field)
                out["additionalProperties"] = self.to_schema(extra.node.items[1]) or True
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

    def schema_ext(self, node: _Node, out: dict[str, Any]) -> dict[str, Any]:
        raise TypeError("json-schema doesn't support msgpack Ext types")  # msgspec's words; no JSON form exists

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
