"""Differential helpers for tests/convert: run boltwire.convert and msgspec.convert on the same input and compare.

A type is given as a function of the library module (``lambda lib: ...``) so that Structs, Meta and friends are
defined once and built for both libraries; plain typing expressions (int, list[int]...) may be given directly.
An input may also depend on the library (wrap it with ``per_lib``), e.g. when it contains Struct instances.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import math
import types
import uuid

import boltwire
import msgspec

LIBS = (boltwire, msgspec)


class per_lib:
    """An input value built per library: ``per_lib(lambda lib, T: ...)`` (T is that library's target type)."""

    def __init__(self, fn):
        self.fn = fn


def build_type(make, lib):
    if isinstance(make, _TypeFactory):
        return make.fn(lib)
    if isinstance(make, types.FunctionType):
        return make(lib)
    return make


class _TypeFactory:
    def __init__(self, fn, name=""):
        self.fn = fn
        self.name = name


def factory(fn):
    """Decorator marking ``fn(lib) -> type`` as a per-library type factory (cached per library)."""
    cache = {}

    def cached(lib):
        if lib not in cache:
            cache[lib] = fn(lib)
        return cache[lib]

    return _TypeFactory(cached, fn.__name__)


def normalize(value, _depth=0):
    """A library-neutral, comparable form of a convert() result (keeps exact container and scalar types)."""
    if _depth > 200:
        return ("<deep>",)
    d = _depth + 1
    tp = type(value)
    if value is None or tp in (bool, str, bytes):
        return (tp.__name__, value)
    if isinstance(value, enum.Enum):
        return ("enum", tp.__name__, value.name, normalize(value.value, d))
    if tp is int or (isinstance(value, int) and not isinstance(value, bool) and tp.__module__ == "builtins"):
        return ("int", int(value))
    if tp is float:
        if math.isnan(value):
            return ("float", "nan")
        return ("float", value)
    if tp is bytearray:
        return ("bytearray", bytes(value))
    if tp is memoryview:
        return ("memoryview", value.tobytes())
    if tp in (datetime.datetime, datetime.date, datetime.time, datetime.timedelta, uuid.UUID):
        return (tp.__name__, value, getattr(value, "tzinfo", None) and str(value.utcoffset()))
    if tp is decimal.Decimal:
        return ("Decimal", str(value))
    if tp is list:
        return ("list", [normalize(v, d) for v in value])
    if tp is tuple:
        return ("tuple", tuple(normalize(v, d) for v in value))
    if tp in (set, frozenset):
        return (tp.__name__, sorted((normalize(v, d) for v in value), key=repr))
    if tp is dict:
        return ("dict", sorted(((normalize(k, d), normalize(v, d)) for k, v in value.items()), key=repr))
    if isinstance(value, (boltwire.Struct, msgspec.Struct)):
        return (
            "struct",
            tp.__name__,
            tuple((f, normalize(getattr(value, f, "<unset>"), d)) for f in tp.__struct_fields__),
        )
    if dataclasses.is_dataclass(value):
        return ("dataclass", tp.__name__, tuple((f.name, normalize(getattr(value, f.name), d)) for f in dataclasses.fields(value)))
    if isinstance(value, tuple) and hasattr(tp, "_fields"):
        return ("namedtuple", tp.__name__, tuple((f, normalize(getattr(value, f), d)) for f in tp._fields))
    if hasattr(tp, "__attrs_attrs__"):
        return ("attrs", tp.__name__, tuple((a.name, normalize(getattr(value, a.name), d)) for a in tp.__attrs_attrs__))
    if isinstance(value, tuple):
        return (tp.__name__, tuple(normalize(v, d) for v in value))
    return ("other", tp.__name__, repr(value))


_ERROR_NAMES = {
    boltwire.ValidationError: "ValidationError",
    msgspec.ValidationError: "ValidationError",
    boltwire.DecodeError: "DecodeError",
    msgspec.DecodeError: "DecodeError",
}


def error_name(exc):
    for cls, name in _ERROR_NAMES.items():
        if type(exc) is cls:
            return name
    return type(exc).__name__


def run(lib, make, obj, **kw):
    T = build_type(make, lib)
    if isinstance(obj, per_lib):
        obj = obj.fn(lib, T)
    try:
        out = lib.convert(obj, T, **kw)
    except Exception as exc:  # noqa: BLE001 - the exception is the result being compared
        # Messages that repr a Meta name its library; that is the only part allowed to differ.
        return ("error", error_name(exc), str(exc).replace("msgspec.Meta(", "boltwire.Meta("))
    return ("ok", normalize(out))


def both(make, obj, **kw):
    """(boltwire's result, msgspec's result), each ('ok', normalized) or ('error', kind, message)."""
    return run(boltwire, make, obj, **kw), run(msgspec, make, obj, **kw)


def assert_same(make, obj, **kw):
    got, want = both(make, obj, **kw)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}\ninput={obj!r} kw={kw!r}"
    return want


def run_child(code, timeout=120):
    """Run ``code`` in a fresh interpreter (for checks that may crash the process); returns CompletedProcess."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run([sys.executable, "-X", "faulthandler", "-c", code], capture_output=True, text=True,
                          timeout=timeout, env=env)
