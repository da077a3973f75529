"""Differential harness for boltwire.msgpack against msgspec.msgpack: the same value (or the same input bytes
decoded into twin types built from one function of the library module) through both; encode output must be
byte-identical, decode results equal, errors of the same class with the same message."""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

import boltwire
from boltwire import msgpack as bmsgpack

# The JSON suite's harness normalises decoded values and errors library-neutrally; msgpack reuses it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "json"))
from typed_decode_diff import module_with, normalise, outcome  # noqa: E402

__all__ = ["check", "check_type", "check_encode", "module_with", "normalise", "outcome", "twin_value"]


def plain(value):
    """Ext and Raw (whose repr names their library) as tuples, through lists, tuples and dicts."""
    if isinstance(value, (bmsgpack.Ext, msgspec.msgpack.Ext)):
        return ("Ext", value.code, bytes(value.data))
    if isinstance(value, (boltwire.Raw, msgspec.Raw)):
        return ("Raw", bytes(value))
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def check(make, buf, **kwargs):
    """Decode ``buf`` into make(boltwire) and make(msgspec); both must agree. Returns msgspec's outcome."""
    ours_t, theirs_t = make(boltwire), make(msgspec)
    ours = outcome(lambda: plain(bmsgpack.decode(buf, type=ours_t, **kwargs)))
    theirs = outcome(lambda: plain(msgspec.msgpack.decode(buf, type=theirs_t, **kwargs)))
    assert ours == theirs, f"input={bytes(buf).hex()}\n boltwire: {ours}\n msgspec:  {theirs}"
    # The Decoder object takes the same path.
    ours_d = outcome(lambda: plain(bmsgpack.Decoder(ours_t, **kwargs).decode(buf)))
    assert ours_d == ours
    return theirs


def check_type(tp, buf, **kwargs):
    return check(lambda lib: tp, buf, **kwargs)


def check_untyped(buf, **kwargs):
    ours = outcome(lambda: plain(bmsgpack.decode(buf, **kwargs)))
    theirs = outcome(lambda: plain(msgspec.msgpack.decode(buf, **kwargs)))
    assert ours == theirs, f"input={bytes(buf).hex()}\n boltwire: {ours}\n msgspec:  {theirs}"
    return theirs


def _encode_outcome(fn):
    try:
        return ("ok", fn())
    except Exception as exc:  # noqa: BLE001 - the class is part of the comparison
        return ("error", type(exc).__name__, str(exc).replace("msgspec.", "boltwire."))


def check_encode(ours_value, theirs_value=None, **kwargs):
    """Encode with both (the twin value for msgspec when given); bytes or error must match. Returns the bytes."""
    theirs_value = ours_value if theirs_value is None else theirs_value
    ours = _encode_outcome(lambda: bmsgpack.encode(ours_value, **kwargs))
    theirs = _encode_outcome(lambda: msgspec.msgpack.encode(theirs_value, **kwargs))
    assert ours == theirs, f"value={ours_value!r}\n boltwire: {ours}\n msgspec:  {theirs}"
    return theirs[1]


def twin_value(value):
    """msgspec's Ext in place of boltwire's, recursively through lists, tuples and dicts."""
    if isinstance(value, bmsgpack.Ext):
        return msgspec.msgpack.Ext(value.code, value.data)
    if isinstance(value, list):
        return [twin_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(twin_value(v) for v in value)
    if isinstance(value, dict):
        return {twin_value(k): twin_value(v) for k, v in value.items()}
    return value
