"""Differential harness for the typed JSON decoder: build the same type with boltwire and with msgspec (from one
function taking the library module), decode the same input with both, and require equal results or the same
error class and message.

``make(lib)`` receives ``boltwire`` or ``msgspec``; both spell ``lib.Struct``, ``lib.field``, ``lib.Meta`` the
same way, so one function defines both twins.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import uuid

import msgspec

import boltwire
from boltwire import json as bjson

LIBS = (boltwire, msgspec)


def normalise(value):
    """A library-neutral, type-exact picture of a decoded value (1, 1.0 and True must not compare equal)."""
    if isinstance(value, (boltwire.Struct, msgspec.Struct)):
        return (
            "struct",
            type(value).__name__,
            tuple((name, normalise(getattr(value, name))) for name in type(value).__struct_fields__),
        )
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            "dataclass",
            type(value).__name__,
            tuple((f.name, normalise(getattr(value, f.name))) for f in dataclasses.fields(value)),
        )
    if hasattr(type(value), "__attrs_attrs__"):
        return (
            "attrs",
            type(value).__name__,
            tuple((a.name, normalise(getattr(value, a.name))) for a in type(value).__attrs_attrs__),
        )
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return ("namedtuple", type(value).__name__, tuple(normalise(v) for v in value))
    if isinstance(value, enum.Enum):
        return ("enum", type(value).__name__, type(value).__mro__[1].__name__, normalise(value.value))
    if isinstance(value, dict):
        return ("dict", tuple((normalise(k), normalise(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(normalise(v) for v in value))
    if isinstance(value, tuple):
        return ("tuple", tuple(normalise(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, frozenset(normalise(v) for v in value))
    if isinstance(value, memoryview):
        return ("memoryview", bytes(value))
    if isinstance(value, float) and value != value:
        return ("float", "nan")
    if isinstance(value, datetime.datetime):
        return ("datetime", value, value.tzinfo is None, value.utcoffset())  # fold is not encoded
    if isinstance(value, datetime.time):
        return ("time", value, value.tzinfo is None, value.utcoffset())
    if isinstance(value, decimal.Decimal):
        return ("Decimal", str(value))
    if isinstance(value, (int, float, str, bytes, bytearray, bool, type(None), datetime.date, datetime.timedelta,
                          uuid.UUID)):
        return (type(value).__name__, value)
    # Unknown objects (dec_hook results, Raw...): compare by type name and repr.
    return ("other", type(value).__name__, repr(value))


def _error_kind(exc: BaseException) -> str:
    if isinstance(exc, (boltwire.ValidationError, msgspec.ValidationError)):
        return "ValidationError"
    if isinstance(exc, (boltwire.DecodeError, msgspec.DecodeError)):
        return "DecodeError"
    return type(exc).__name__


def outcome(fn):
    """Run fn(); return ("ok", normalised value) or ("error", kind, message)."""
    try:
        value = fn()
    except Exception as exc:  # noqa: BLE001 - the class is part of the comparison
        # Messages that repr a Meta name its library; that is the only part allowed to differ.
        return ("error", _error_kind(exc), str(exc).replace("msgspec.Meta(", "boltwire.Meta("))
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))  # deeply nested results (1024 levels) need ~3 frames a level
    try:
        return ("ok", normalise(value))
    finally:
        sys.setrecursionlimit(limit)


def build(make):
    """(boltwire type, msgspec type), or the TypeError either raised while building."""
    return make(boltwire), make(msgspec)


def decode_both(make, buf, **kwargs):
    ours_t, theirs_t = build(make)
    ours = outcome(lambda: bjson.decode(buf, type=ours_t, **kwargs))
    theirs = outcome(lambda: msgspec.json.decode(buf, type=theirs_t, **kwargs))
    return ours, theirs


def check(make, buf, **kwargs):
    """Decode ``buf`` into the twin types with both libraries; both must agree. Returns msgspec's outcome."""
    ours, theirs = decode_both(make, buf, **kwargs)
    assert ours == theirs, f"input={buf!r}\n boltwire: {ours}\n msgspec:  {theirs}"
    return theirs


def check_type(tp, buf, **kwargs):
    """check() for a type that needs no per-library classes (int, list[str], datetime...)."""
    return check(lambda lib: tp, buf, **kwargs)


def check_decoder(make, buf, method="decode", **kwargs):
    """The same comparison through the Decoder objects (decode or decode_lines)."""
    ours_t, theirs_t = build(make)
    ours_d = bjson.Decoder(ours_t, **kwargs)
    theirs_d = msgspec.json.Decoder(theirs_t, **kwargs)
    ours = outcome(lambda: getattr(ours_d, method)(buf))
    theirs = outcome(lambda: getattr(theirs_d, method)(buf))
    assert ours == theirs, f"input={buf!r}\n boltwire: {ours}\n msgspec:  {theirs}"
    return theirs


def check_build_error(make, buf=b"null"):
    """Both libraries must refuse the type with the same exception class and message (msgspec raises when the
    decoder is made, boltwire may raise when the type plan is built on first decode)."""
    ours = outcome(lambda: bjson.decode(buf, type=make(boltwire)))
    theirs = outcome(lambda: msgspec.json.decode(buf, type=make(msgspec)))
    assert theirs[0] == "error", theirs
    assert ours == theirs, f"boltwire: {ours}\n msgspec:  {theirs}"
    return theirs


def cases(table):
    """Flatten {id: (make, [inputs...])} into pytest params (make, input) with readable ids."""
    import pytest

    out = []
    for name, (make, inputs) in table.items():
        for i, buf in enumerate(inputs):
            out.append(pytest.param(make, buf, id=f"{name}-{i}"))
    return out


def run_isolated(code: str, timeout: float = 60.0) -> str:
    """Run ``code`` in a fresh interpreter (same sys.path) so that a crash in the native decoder fails one test
    with its signal instead of killing the whole run. Returns stdout; asserts a clean exit."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, f"subprocess exited with {proc.returncode}\n{proc.stderr[-2000:]}"
    return proc.stdout


_module_count = 0


def module_with(lib, source: str):
    """Execute ``source`` (which names the library ``lib``) as a real, registered module and return it, so that
    forward references and recursive annotations resolve the same way for both libraries."""
    import sys
    import textwrap
    import types

    global _module_count
    _module_count += 1
    name = f"_typed_decode_twin_{lib.__name__}_{_module_count}"
    mod = types.ModuleType(name)
    mod.__dict__["lib"] = lib
    sys.modules[name] = mod
    exec(compile(textwrap.dedent(source), name, "exec"), mod.__dict__)
    return mod
