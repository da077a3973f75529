"""fuzz/atheris_api.py: an atheris target for boltwire's Python-level API (Struct, json.Encoder, the decoder entry).

    python fuzz/atheris_api.py -max_total_time=60 build/fuzz/work/atheris_api/corpus fuzz/corpus/atheris_api

Each input picks an operation and its arguments: Struct construction with arbitrary positional and keyword
arguments (only TypeError may escape) and the protocols on the result (eq, hash, repr, copy, replace, asdict,
astuple, encode); json.encode / Encoder(order=...).encode / encode_into / encode_lines on values built from the input
(nested containers, Structs, unsupported objects: only TypeError, ValueError, EncodeError and UnicodeEncodeError
may escape, and whatever encodes must read back equal with the stdlib); the decoder with every buffer kind
(only DecodeError or TypeError). make fuzz runs it like the libFuzzer targets (run_fuzz.py); it uses the package on
sys.path (make fuzz puts the ASan + UBSan build there and preloads atheris's ASan runtime).
"""

from __future__ import annotations

import array
import json as stdjson
import sys

import atheris

with atheris.instrument_imports():
    import boltwire
    from boltwire import DecodeError, EncodeError, Struct, structs
    from boltwire import json as bjson
    from boltwire._core import _json_decode_any as decode_any


class Point(Struct):
    x: int
    y: float = 0.0
    label: str = "p"


class Frozen(Struct, frozen=True, omit_defaults=True, rename="camel"):
    first_name: str
    tags: list = []


class Tagged(Struct, tag=True, array_like=True):
    a: object
    b: object = None


CLASSES = [Point, Frozen, Tagged]
NAMES = ["x", "y", "label", "first_name", "tags", "a", "b", "firstName", "z", "__class__", ""]
ORDERS = [None, "deterministic", "sorted"]
ENCODE_ERRORS = (TypeError, ValueError, EncodeError, UnicodeEncodeError, OverflowError)


@atheris.instrument_func
def build(fdp: atheris.FuzzedDataProvider, level: int = 0) -> object:
    kind = fdp.ConsumeIntInRange(0, 13 if level < 6 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return fdp.ConsumeBool()
    if kind == 2:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 24))
    if kind == 3:
        return fdp.ConsumeFloat()
    if kind == 4:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 24))
    if kind == 5:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 8))
    if kind == 6:
        return object()  # unsupported
    if kind == 7:
        return fdp.ConsumeIntInRange(0, 2**64 - 1)
    if kind in (8, 9):
        return [build(fdp, level + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    if kind == 10:
        return tuple(build(fdp, level + 1) for _ in range(fdp.ConsumeIntInRange(0, 3)))
    if kind == 11:
        keys = [fdp.ConsumeUnicode(4) if fdp.ConsumeBool() else fdp.ConsumeIntInRange(-5, 5) for _ in range(4)]
        return {k: build(fdp, level + 1) for k in keys[: fdp.ConsumeIntInRange(0, 4)]}
    return make_struct(fdp, level + 1)


@atheris.instrument_func
def make_struct(fdp: atheris.FuzzedDataProvider, level: int) -> object:
    cls = CLASSES[fdp.ConsumeIntInRange(0, len(CLASSES) - 1)]
    args = [build(fdp, level + 1) for _ in range(fdp.ConsumeIntInRange(0, 3))]
    kwargs = {NAMES[fdp.ConsumeIntInRange(0, len(NAMES) - 1)]: build(fdp, level + 1)
              for _ in range(fdp.ConsumeIntInRange(0, 2))}
    try:
        return cls(*args, **kwargs)
    except TypeError:
        return None


@atheris.instrument_func
def check_struct(fdp: atheris.FuzzedDataProvider) -> None:
    s = make_struct(fdp, 0)
    if s is None:
        return
    repr(s)
    assert s == s.__copy__() == structs.replace(s)
    assert s == type(s)(*structs.astuple(s)), "astuple does not rebuild the struct"
    assert list(structs.asdict(s).values()) == list(structs.astuple(s))
    try:
        hash(s)
    except TypeError:
        pass
    try:
        encoded = bjson.encode(s)
    except ENCODE_ERRORS:
        return
    stdjson.loads(encoded.decode())


@atheris.instrument_func
def check_encode(fdp: atheris.FuzzedDataProvider) -> None:
    value = build(fdp)
    order = ORDERS[fdp.ConsumeIntInRange(0, 2)]
    mode = fdp.ConsumeIntInRange(0, 2)
    try:
        enc = bjson.Encoder(order=order)
        if mode == 0:
            out = enc.encode(value)
        elif mode == 1:
            buf = bytearray(fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 8)))
            offset = fdp.ConsumeIntInRange(-3, 12)
            before = bytes(buf)
            try:
                enc.encode_into(value, buf, offset)
            except ENCODE_ERRORS:
                assert bytes(buf) == before or offset >= 0, "a failed encode_into changed the buffer's prefix"
                raise
            start = offset if offset >= 0 else len(before)  # past the end: zero padding up to the offset
            kept = min(start, len(before))
            assert bytes(buf[:kept]) == before[:kept], "encode_into overwrote bytes before the offset"
            assert bytes(buf[kept:start]) == b"\0" * (start - kept), "encode_into padding is not zeros"
            out = bytes(buf[start:])
        else:
            out = enc.encode_lines(value if isinstance(value, list) else [value])
            for line in out.splitlines():
                stdjson.loads(line.decode())
            return
    except ENCODE_ERRORS:
        return
    text = out.decode()  # strict UTF-8: the encoder never emits anything else
    assert stdjson.loads(text) == stdjson.loads(bjson.encode(stdjson.loads(text)).decode())


@atheris.instrument_func
def check_decode(fdp: atheris.FuzzedDataProvider) -> None:
    raw = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 256))
    kind = fdp.ConsumeIntInRange(0, 5)
    buf: object = raw
    if kind == 1:
        buf = bytearray(raw)
    elif kind == 2:
        buf = memoryview(raw)
    elif kind == 3:
        buf = memoryview(raw)[::2]  # not contiguous: CPython's BufferError, as msgspec raises it
    elif kind == 4:
        buf = array.array("B", raw)
    elif kind == 5:
        buf = raw.decode("utf-8", "surrogateescape")
    try:
        decode_any(buf)
    except (DecodeError, TypeError, UnicodeEncodeError):
        pass
    except BufferError:
        assert kind == 3, "BufferError for a contiguous buffer"


CHECKS = [check_struct, check_encode, check_decode]


@atheris.instrument_func
def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    CHECKS[fdp.ConsumeIntInRange(0, len(CHECKS) - 1)](fdp)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
