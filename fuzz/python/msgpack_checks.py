"""fuzz/python/msgpack_checks.py: the properties of the fuzz_msgpack target (MessagePack decode, typed and untyped).

check_msgpack(data): byte 0 picks a type plan (bit 7: strict=False), the rest is the MessagePack input. boltwire
must raise only DecodeError / ValidationError / RecursionError; when msgspec is importable the outcome (value, or
error class and message) must equal msgspec.msgpack's; what decodes re-encodes to bytes that decode to the same
value. Replay a crash from a normal interpreter:  python fuzz/python/msgpack_checks.py FILE...
"""

from __future__ import annotations

import datetime
import sys
import uuid
from typing import Any, Literal, Optional, Union

import boltwire
from boltwire import DecodeError, ValidationError
from boltwire import msgpack as bmsgpack

try:
    import msgspec
except ImportError:  # the differential half is skipped
    msgspec = None

_SOURCE = """
from typing import Any, Literal, Optional, Union
import datetime, uuid

class Inner(lib.Struct):
    a: int
    b: list[str] = []

class Outer(lib.Struct, forbid_unknown_fields=True):
    inner: Inner
    opt: Optional[Inner] = None
    scores: dict[str, float] = {}
    when: Optional[datetime.datetime] = None

class Cat(lib.Struct, tag="cat"):
    name: str
    lives: int = 9

class Dog(lib.Struct, tag="dog"):
    name: str

class Row(lib.Struct, array_like=True, tag=True):
    a: int
    b: Optional[bytes] = None

PLANS = [Any, Outer, list[Union[Cat, Dog]], list[Row], dict[str, Union[int, str, None]], tuple[int, float, str],
         set[int], uuid.UUID, datetime.datetime, Literal["x", "y", 3], list[bytes], dict[int, list[float]]]
"""


def _module(lib):
    import types

    mod = types.ModuleType(f"msgpack_fuzz_{lib.__name__}")
    mod.lib = lib
    sys.modules[mod.__name__] = mod
    exec(compile(_SOURCE, mod.__name__, "exec"), mod.__dict__)
    return mod


OURS = _module(boltwire)
THEIRS = _module(msgspec) if msgspec is not None else None


def _plain(value: object) -> object:
    """A library-neutral picture of a decoded value (Structs as (class name, fields), Ext as a tuple)."""
    if isinstance(value, boltwire.Struct) or (msgspec is not None and isinstance(value, msgspec.Struct)):
        return (type(value).__name__, tuple(_plain(getattr(value, f)) for f in value.__struct_fields__))
    if isinstance(value, bmsgpack.Ext) or (msgspec is not None and isinstance(value, msgspec.msgpack.Ext)):
        return ("Ext", value.code, bytes(value.data))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_plain(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((_plain(k), _plain(v)) for k, v in value.items()))
    if isinstance(value, float) and value != value:
        return ("float", "nan")
    return (type(value).__name__, value)


def _outcome(fn) -> tuple:
    try:
        return ("ok", _plain(fn()))
    except ValidationError as exc:
        return ("ValidationError", str(exc))
    except DecodeError as exc:
        return ("DecodeError", str(exc))
    except RecursionError:
        return ("RecursionError",)
    except Exception as exc:  # noqa: BLE001 - msgspec's side may raise its own classes, named alike
        return (type(exc).__name__, str(exc))


def check_msgpack(data: bytes) -> None:
    if not data:
        return
    index = data[0] & 0x7F
    strict = not data[0] & 0x80
    buf = data[1:]
    plan = OURS.PLANS[index % len(OURS.PLANS)]
    ours = _outcome(lambda: bmsgpack.decode(buf, type=plan, strict=strict))
    assert ours[0] in ("ok", "ValidationError", "DecodeError", "RecursionError"), f"unexpected exception {ours}"
    if THEIRS is not None:
        theirs_plan = THEIRS.PLANS[index % len(THEIRS.PLANS)]
        theirs = _outcome(lambda: msgspec.msgpack.decode(buf, type=theirs_plan, strict=strict))
        if theirs[0] == "RecursionError" or ours[0] == "RecursionError":
            return  # the depth at which each library's C stack check fires may differ
        assert ours == theirs, f"boltwire {ours!r:.300}\nmsgspec  {theirs!r:.300}"
    if ours[0] != "ok":
        return
    value = bmsgpack.decode(buf, type=plan, strict=strict)
    try:
        again = bmsgpack.decode(bmsgpack.encode(value), type=plan)
    except RecursionError:
        return
    assert _plain(again) == _plain(value), f"round trip changed {value!r:.200} into {again!r:.200}"


if __name__ == "__main__":
    sys.setrecursionlimit(5000)
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            check_msgpack(f.read())
        print(f"{path}: ok")
