"""Resolving response_data_type to a body decoder, and json= values to an encoder, once per type."""

from __future__ import annotations

import sys
from typing import Any, Callable, get_args

from boltwire import _core
from boltwire import json as _bw_json

__all__ = ["encode_json", "fields_as_dict", "is_typed_object", "resolve_decoder"]


# Bodies arrive as a read-only buffer object owned by the transport (the bytes stay in native memory):
# decoders that take any buffer read it in place; the others get bytes(body).


def _decode_str(body: Any) -> str:
    return str(body, "utf-8")


def _checked(kind: type, name: str) -> Callable[[bytes], Any]:
    decode_any = _core._json_decode_any

    def decode(body: bytes) -> Any:
        value = decode_any(body)
        if type(value) is not kind and not isinstance(value, kind):
            from boltwire._errors import ValidationError

            raise ValidationError(f"Expected `{name}`, got `{type(value).__name__}`")
        return value

    return decode


def _has_msgspec_struct(tp: Any, struct: type, depth: int = 0) -> bool:
    """Whether `tp` is, or holds anywhere in its arguments (list[U], U | None, dict[str, U], ...), a msgspec
    Struct: such types are decoded by msgspec's own decoder, which knows its Structs."""
    if isinstance(tp, type) and issubclass(tp, struct):
        return True
    if depth > 16:
        return False
    return any(_has_msgspec_struct(arg, struct, depth + 1) for arg in get_args(tp))


def _msgspec_decoder(tp: Any) -> Callable[[bytes], Any] | None:
    msgspec = sys.modules.get("msgspec")
    if msgspec is None:
        return None
    if isinstance(tp, (msgspec.json.Decoder,)):
        return tp.decode
    if _has_msgspec_struct(tp, msgspec.Struct):
        return msgspec.json.Decoder(tp).decode
    return None


def _pydantic_decoder(tp: Any) -> Callable[[bytes], Any] | None:
    pydantic = sys.modules.get("pydantic")
    if pydantic is None:
        return None
    if isinstance(tp, pydantic.TypeAdapter):
        validate = tp.validate_json
    elif isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
        validate = tp.model_validate_json
    else:
        return None

    def decode(body: Any) -> Any:  # pydantic takes str / bytes / bytearray only
        return validate(bytes(body))

    return decode


def resolve_decoder(tp: Any) -> Callable[[Any], Any]:
    """The callable turning a body (a read-only buffer) into ``tp``."""
    if tp is bytes:
        return bytes
    if tp is str:
        return _decode_str
    if tp is dict:
        return _checked(dict, "object")
    if tp is list:
        return _checked(list, "array")
    if tp is Any or tp is object:
        return _core._json_decode_any
    found = _msgspec_decoder(tp) or _pydantic_decoder(tp)
    if found is not None:
        return found
    # boltwire types decode straight from the transport's buffer; Decoder(tp) raises TypeError when the type
    # is not supported.
    return _bw_json.Decoder(tp).decode


def _json_encoder_for(tp: type) -> Callable[[Any], bytes]:
    msgspec = sys.modules.get("msgspec")
    if msgspec is not None and issubclass(tp, msgspec.Struct):
        return msgspec.json.encode
    pydantic = sys.modules.get("pydantic")
    if pydantic is not None and issubclass(tp, pydantic.BaseModel):
        return lambda obj: obj.model_dump_json().encode()
    return _bw_json.encode


_ENCODERS: dict[type, Callable[[Any], bytes]] = {}


def encode_json(obj: Any) -> bytes:
    tp = type(obj)
    enc = _ENCODERS.get(tp)
    if enc is None:
        enc = _ENCODERS[tp] = _json_encoder_for(tp)
    return enc(obj)


def is_typed_object(obj: Any) -> bool:
    """A boltwire / msgspec Struct, a dataclass, an attrs instance or a pydantic model (not its class)."""
    tp = type(obj)
    if hasattr(tp, "__struct_fields__") or hasattr(tp, "__dataclass_fields__") or hasattr(tp, "__attrs_attrs__"):
        return not isinstance(obj, type)
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(obj, pydantic.BaseModel)


def fields_as_dict(obj: Any, what: str) -> dict[str, Any]:
    """The fields of a typed object given as params=, data= or headers= (a boltwire or msgspec Struct, a dataclass,
    an attrs class: boltwire's to_builtins, encoded names and all; a pydantic model: its JSON-mode dump by alias),
    as a dict of builtins. Anything else is a TypeError naming `what`."""
    pydantic = sys.modules.get("pydantic")
    if pydantic is not None and isinstance(obj, pydantic.BaseModel):
        return obj.model_dump(mode="json", by_alias=True)
    if not isinstance(obj, (str, bytes, bytearray, memoryview, int, float)):
        try:
            value = _core.to_builtins(obj)
        except TypeError:
            value = None
        if isinstance(value, dict):
            return value
    raise TypeError(f"{what} must be a mapping, a sequence of (name, value) pairs, a Struct, a dataclass or a "
                    f"pydantic model; got {type(obj).__name__}")
