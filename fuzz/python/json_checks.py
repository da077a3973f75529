"""fuzz/python/json_checks.py: the properties the Python-embedding fuzz targets check, one function per target.

Each check takes the fuzzer's bytes and raises (AssertionError or the unexpected exception) when a property
fails; the C++ harness (fuzz/python_harness.cpp) then prints the traceback and aborts, so libFuzzer keeps the
input. Also importable from a normal interpreter to replay a crash:  python fuzz/python/json_checks.py FILE...
"""

from __future__ import annotations

import json as stdjson
import math
import struct
import sys

from boltwire import DecodeError
from boltwire import json as bjson
from boltwire._core import _json_decode_any as decode_any

sys.setrecursionlimit(5000)  # the decoder nests up to 1024 levels; the reference and the comparisons recurse
MAX_DEPTH = 1024

_REJECT = object()  # the reference decoder rejects the input
# Inputs the stdlib accepts and boltwire refuses on purpose, with msgspec: numbers past the float range, integers past
# CPython's digit limit, lone surrogate escapes, invalid UTF-8.
MSGSPEC_REJECTIONS = ("Number out of range", "Integer value out of range", "surrogate", "UTF-8")


def rejected_like_msgspec(data: bytes, error: object) -> bool:
    message = str(error)
    if any(reason in message for reason in MSGSPEC_REJECTIONS):
        return True
    # A lone high-surrogate escape at the end of a string reads as truncated input (msgspec's message).
    return "truncated" in message and b"\\u" in data


_SKIP = object()  # the reference cannot say (a documented difference); only the exception type is checked


def _reject_constant(name: str) -> None:
    raise ValueError(f"not JSON: {name}")


def reference(data: bytes) -> object:
    """The stdlib's answer under RFC 8259 rules: strict UTF-8, no NaN/Infinity, no BOM."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _REJECT
    try:
        return stdjson.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        return _SKIP
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            return _SKIP  # int digit limit (sys.get_int_max_str_digits)
        return _REJECT


def depth(value: object) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            stack.extend((c, d + 1) for c in (v.values() if isinstance(v, dict) else v))
    return deepest


def same(a: object, b: object) -> bool:
    """Equal with exact types, float sign of zero, and dict key order."""
    if type(a) is not type(b):
        return False
    if type(a) is float:
        return (a == b and math.copysign(1.0, a) == math.copysign(1.0, b)) or (a != a and b != b)
    if type(a) is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


def without_inf(value: object) -> object:
    """What encode -> decode gives back: msgspec (and boltwire) encode inf and -inf as null."""
    if type(value) is float and math.isinf(value):
        return None
    if type(value) is list:
        return [without_inf(v) for v in value]
    if type(value) is dict:
        return {k: without_inf(v) for k, v in value.items()}
    return value


def has_surrogate(value: object) -> bool:
    if type(value) is str:
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if type(value) is list:
        return any(has_surrogate(v) for v in value)
    if type(value) is dict:
        return any(has_surrogate(k) or has_surrogate(v) for k, v in value.items())
    return False


def decode_outcome(buf: object) -> tuple[str, object]:
    try:
        return "ok", decode_any(buf)
    except DecodeError as exc:
        if not isinstance(exc.args[0] if exc.args else None, str):
            raise AssertionError(f"DecodeError without a message: {exc!r}") from exc
        return "error", exc


def check_untyped(data: bytes) -> None:
    """_json_decode_any: only DecodeError; agrees with the stdlib; round-trips through json.encode."""
    kind, value = decode_outcome(data)
    # Every buffer type and str give the same answer.
    kind2, value2 = decode_outcome(bytearray(data))
    assert kind2 == kind and (kind == "error" or same(value, value2)), "bytearray input decodes differently"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        kind3, value3 = decode_outcome(text)
        assert kind3 == kind and (kind == "error" or same(value, value3)), "str input decodes differently"

    try:
        public = ("ok", bjson.decode(data))
    except DecodeError as exc:
        public = ("error", exc)
    assert public[0] == kind and (kind == "error" or same(value, public[1])), "json.decode differs from the untyped path"

    expected = reference(data)
    if kind == "error":
        if expected is _REJECT or expected is _SKIP:
            return
        if depth(expected) > MAX_DEPTH and "depth" in str(value):
            return  # boltwire's documented nesting bound
        if rejected_like_msgspec(data, value):
            return  # rejected on purpose, as msgspec rejects it (the stdlib is laxer here)
        raise AssertionError(f"boltwire rejects what the stdlib accepts: {value}; stdlib gives {expected!r:.200}")
    if expected is _REJECT:
        raise AssertionError(f"boltwire accepts what the stdlib rejects: {value!r:.200}")
    if expected is not _SKIP:
        assert same(value, expected), f"boltwire gives {value!r:.200}, the stdlib {expected!r:.200}"

    # Round trip: encode -> decode gives the value back (inf comes back as null; lone surrogates cannot be UTF-8).
    try:
        encoded = bjson.encode(value)
    except UnicodeEncodeError:
        assert has_surrogate(value), "UnicodeEncodeError for a value without lone surrogates"
        return
    again = decode_any(encoded)
    assert same(again, without_inf(value)), f"round trip changed {value!r:.200} into {again!r:.200}"


# ---- structured input -> Python value -> encode -> decode --------------------------------------------------------


class _Bytes:
    """Reads the fuzzer's bytes as a stream of small decisions; zeros once exhausted."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def take(self, n: int) -> bytes:
        chunk = self.data[self.pos : self.pos + n]
        self.pos += len(chunk)
        return chunk


_SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.5, 1e300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1]
_SPECIAL_INTS = [0, -1, 2**63 - 1, -(2**63), 2**63, 2**64 - 1, 2**64, -(2**64), 10**30, -(10**40)]


def build_value(src: _Bytes, level: int = 0) -> object:
    tag = src.byte() % (10 if level < 40 else 6)
    if tag == 0:
        return None
    if tag == 1:
        return bool(src.byte() & 1)
    if tag == 2:
        return int.from_bytes(src.take(1 + src.byte() % 20), "little", signed=True)
    if tag == 3:
        return _SPECIAL_INTS[src.byte() % len(_SPECIAL_INTS)]
    if tag == 4:
        raw = src.take(8).ljust(8, b"\0")
        value = struct.unpack("<d", raw)[0]
        return value if math.isfinite(value) else _SPECIAL_FLOATS[raw[0] % len(_SPECIAL_FLOATS)]
    if tag == 5:
        return build_str(src)
    if tag in (6, 7):
        return [build_value(src, level + 1) for _ in range(src.byte() % 6)]
    return {build_str(src): build_value(src, level + 1) for _ in range(src.byte() % 6)}


def build_str(src: _Bytes) -> str:
    raw = src.take(src.byte() % 24)
    mode = src.byte() % 3
    if mode == 0:
        return raw.decode("latin-1")  # every byte a code point, controls and quotes included
    if mode == 1:
        return raw.decode("utf-8", "replace")
    return "".join(chr(0x80 + b * 257 % 0x10F000) for b in raw if not 0xD800 <= 0x80 + b * 257 % 0x10F000 <= 0xDFFF)


def check_encode_roundtrip(data: bytes) -> None:
    """A value built from the input encodes without error, the bytes agree with the stdlib's reading, and decode
    gives the value back exactly."""
    value = build_value(_Bytes(data))
    encoded = bjson.encode(value)
    assert isinstance(encoded, bytes)
    assert same(stdjson.loads(encoded), value), f"stdlib reads {encoded[:200]!r} differently"
    assert same(decode_any(encoded), value), f"decode(encode(v)) != v for {value!r:.200}"
    out = bytearray(b"xx")
    bjson.Encoder().encode_into(value, out, 2)
    assert bytes(out) == b"xx" + encoded, "encode_into differs from encode"


# ---- the typed decoder over a few type plans ---------------------------------------------------------------------

import datetime  # noqa: E402
import decimal  # noqa: E402
import uuid  # noqa: E402
from typing import Annotated, Union  # noqa: E402

from boltwire import Meta, Struct, ValidationError, convert, structs  # noqa: E402


class Inner(Struct):
    a: int
    b: list[str] = []


class Outer(Struct):
    inner: Inner
    opt: Union[Inner, None] = None
    scores: dict[str, float] = {}
    when: Union[datetime.datetime, None] = None


class Cat(Struct, tag="cat"):
    name: str
    lives: Annotated[int, Meta(ge=0, le=9)] = 9


class Dog(Struct, tag="dog"):
    name: Annotated[str, Meta(min_length=1)]
    good: bool = True


class Pair(Struct, array_like=True):
    x: int
    y: str = ""


class Strict(Struct, forbid_unknown_fields=True, rename="camel"):
    some_field: int
    other_field: Union[bool, None] = False
    blob: bytes = b""


TYPED_PLANS = [
    Outer,
    list[Union[Cat, Dog]],
    dict[str, Annotated[str, Meta(min_length=1, max_length=5, pattern="^[a-z]+$")]],
    tuple[int, float, str],
    Annotated[float, Meta(gt=0, lt=1e6)],
    Union[int, str, None],
    Annotated[list[int], Meta(max_length=3)],
    list[Pair],
    Strict,
    list[Union[uuid.UUID, None]],
    set[Annotated[int, Meta(multiple_of=3)]],
    dict[str, list[Union[Outer, int]]],
    decimal.Decimal,
    Union[Cat, Dog, None],
]


def contains_inf(value: object) -> bool:
    if type(value) is float:
        return math.isinf(value)
    if isinstance(value, Struct):
        return any(contains_inf(v) for v in structs.astuple(value))
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(contains_inf(v) for v in value)
    if isinstance(value, dict):
        return any(contains_inf(v) for v in value.values())
    return False


def check_typed(data: bytes) -> None:
    """json.decode(buf, type=T) over a few plans: only DecodeError (ValidationError included); what it accepts is
    well-formed JSON (the untyped decoder agrees), round-trips through json.encode, and convert() of the untyped
    value gives the same result."""
    if not data:
        return
    plan = TYPED_PLANS[data[0] % len(TYPED_PLANS)]
    strict = not data[0] & 0x80
    doc = data[1:]
    try:
        value = bjson.decode(doc, type=plan, strict=strict)
    except DecodeError as exc:
        assert exc.args and isinstance(exc.args[0], str), f"DecodeError without a message: {exc!r}"
        if not isinstance(exc, ValidationError):
            kind, _ = decode_outcome(doc)
            assert kind == "error", f"typed decoder calls well-formed JSON malformed: {exc}"
        return
    kind, untyped = decode_outcome(doc)
    # A typed plan may accept what untyped decoding refuses only for msgspec's own reasons: unknown fields are
    # skipped without range / UTF-8 checks, and Decimal keeps numbers past the float range.
    assert kind == "ok" or rejected_like_msgspec(doc, untyped), (
        f"typed decoder accepts JSON the untyped decoder rejects: {untyped}")
    if kind != "ok":
        return  # nothing untyped to compare the typed value with
    if contains_inf(value):
        return  # inf encodes as null, which a float field rejects
    try:
        encoded = bjson.encode(value)
    except UnicodeEncodeError:
        assert has_surrogate(untyped), "UnicodeEncodeError for a value without lone surrogates"
        return  # a lone surrogate from a \ud800 escape has no UTF-8 form
    again = bjson.decode(encoded, type=plan)
    assert again == value, f"round trip changed {value!r:.200} into {again!r:.200}"
    if strict and plan is not decimal.Decimal:  # convert() gets the untyped float, not the exact digits
        converted = convert(untyped, plan)
        assert converted == value, f"convert gives {converted!r:.200}, json.decode {value!r:.200}"


if __name__ == "__main__":  # replay: json_checks.py [untyped|encode|typed] FILE...
    check = {"encode": check_encode_roundtrip, "typed": check_typed}.get(sys.argv[1], check_untyped)
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            check(f.read())
        print(f"{path}: ok")
