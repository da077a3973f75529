"""Property test: for generated Struct types (built with defstruct for both libraries from one generated spec) and
generated builtin data shaped like them (mostly valid, sometimes perturbed), boltwire.convert and msgspec.convert
agree: the same value, or the same exception type and message."""

import datetime
import itertools
import uuid
from typing import Dict, List, Literal, Optional, Tuple

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import boltwire
import msgspec
from _convert_diff import both

_counter = itertools.count()

SCALARS = ["int", "float", "str", "bool", "none", "datetime", "uuid", "bytes", "lit_str", "lit_int"]

# A spec is a nested tuple; leaves are scalar names.
scalar_specs = st.sampled_from(SCALARS)


def _extend(children):
    field_names = st.sampled_from(["a", "b", "c", "d", "value", "items", "the_name", "x1"])
    fields = st.lists(st.tuples(field_names, children, st.booleans()), min_size=0, max_size=4,
                      unique_by=lambda f: f[0])
    options = st.fixed_dictionaries(
        {},
        optional={
            "rename": st.sampled_from(["camel", "pascal", "kebab"]),
            "forbid_unknown_fields": st.booleans(),
            "array_like": st.booleans(),
            "kw_only": st.booleans(),
            "omit_defaults": st.booleans(),
        },
    )
    return st.one_of(
        st.tuples(st.just("list"), children),
        st.tuples(st.just("dict"), children),
        st.tuples(st.just("opt"), children),
        st.tuples(st.just("tuple"), children, children),
        st.tuples(st.just("vartuple"), children),
        st.tuples(st.just("struct"), fields, options),
    )


specs = st.recursive(scalar_specs, _extend, max_leaves=8)
struct_specs = st.tuples(
    st.just("struct"),
    st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d", "e_f"]), specs, st.booleans()), min_size=1, max_size=5,
             unique_by=lambda f: f[0]),
    st.fixed_dictionaries({}, optional={"rename": st.just("camel"), "forbid_unknown_fields": st.booleans(),
                                        "array_like": st.booleans()}),
)

_DEFAULTS = {"int": 0, "float": 0.0, "str": "", "bool": False, "none": None, "lit_str": "a", "lit_int": 1}


def build(spec, lib, cache):
    key = id(spec)
    if key in cache:
        return cache[key]
    if isinstance(spec, str):
        tp = {
            "int": int, "float": float, "str": str, "bool": bool, "none": type(None),
            "datetime": datetime.datetime, "uuid": uuid.UUID, "bytes": bytes,
            "lit_str": Literal["a", "b"], "lit_int": Literal[1, 2, 3],
        }[spec]
    elif spec[0] == "list":
        tp = List[build(spec[1], lib, cache)]
    elif spec[0] == "dict":
        tp = Dict[str, build(spec[1], lib, cache)]
    elif spec[0] == "opt":
        tp = Optional[build(spec[1], lib, cache)]
    elif spec[0] == "tuple":
        tp = Tuple[build(spec[1], lib, cache), build(spec[2], lib, cache)]
    elif spec[0] == "vartuple":
        tp = Tuple[build(spec[1], lib, cache), ...]
    else:
        _, fields, options = spec
        defs = []
        # Fields with defaults go last unless kw_only (both libraries reject the other order the same way, but a
        # definition error would hide the data comparison, so keep definitions valid).
        ordered = sorted(fields, key=lambda f: f[2]) if not options.get("kw_only") else fields
        for name, fspec, has_default in ordered:
            ftp = build(fspec, lib, cache)
            if has_default and isinstance(fspec, str) and fspec in _DEFAULTS:
                defs.append((name, ftp, _DEFAULTS[fspec]))
            elif has_default:
                defs.append((name, ftp, None))
            else:
                defs.append((name, ftp))
        tp = lib.defstruct(f"S{key}", defs, **options)  # same name for both libraries
    cache[key] = tp
    return tp


_json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
                       st.text(max_size=5))
junk = st.recursive(_json_leaf, lambda c: st.one_of(st.lists(c, max_size=3), st.dictionaries(st.text(max_size=3), c,
                                                                                              max_size=3)),
                    max_leaves=5)


def data_for(spec, draw, depth=0):
    """Draw data shaped like `spec`; now and then (about 1 in 12) a random value instead."""
    if draw(st.integers(0, 11)) == 0:
        return draw(junk)
    if isinstance(spec, str):
        return draw({
            "int": st.integers(-(2**65), 2**65),
            "float": st.one_of(st.floats(allow_nan=False), st.integers(-100, 100)),
            "str": st.text(max_size=8),
            "bool": st.booleans(),
            "none": st.none(),
            "datetime": st.datetimes(timezones=st.one_of(st.none(), st.just(datetime.timezone.utc))).map(
                lambda d: d.isoformat()),
            "uuid": st.uuids().map(str),
            "bytes": st.binary(max_size=6),
            "lit_str": st.sampled_from(["a", "b", "c"]),
            "lit_int": st.sampled_from([1, 2, 3, 4]),
        }[spec])
    kind = spec[0]
    if kind in ("list", "vartuple"):
        n = draw(st.integers(0, 3))
        return [data_for(spec[1], draw, depth + 1) for _ in range(n)]
    if kind == "dict":
        keys = draw(st.lists(st.text(max_size=4), max_size=3, unique=True))
        return {k: data_for(spec[1], draw, depth + 1) for k in keys}
    if kind == "opt":
        return None if draw(st.booleans()) else data_for(spec[1], draw, depth + 1)
    if kind == "tuple":
        return [data_for(spec[1], draw, depth + 1), data_for(spec[2], draw, depth + 1)]
    _, fields, options = spec
    encoded = {}
    for name, fspec, has_default in fields:
        if has_default and draw(st.booleans()):
            continue
        encoded[_encode_name(name, options.get("rename"))] = data_for(fspec, draw, depth + 1)
    if draw(st.integers(0, 7)) == 0:
        encoded[draw(st.sampled_from(["zz", "a", "type"]))] = draw(junk)
    if options.get("array_like"):
        order = fields if options.get("kw_only") else sorted(fields, key=lambda f: f[2])
        out = []
        for name, fspec, _ in order:
            key = _encode_name(name, options.get("rename"))
            if key not in encoded:
                break
            out.append(encoded[key])
        return out
    return encoded


def _encode_name(name, rename):
    parts = name.split("_")
    if rename == "camel":
        return parts[0] + "".join(p.title() for p in parts[1:])
    if rename == "pascal":
        return "".join(p.title() for p in parts)
    if rename == "kebab":
        return "-".join(parts)
    return name


@st.composite
def typed_cases(draw, spec_strategy):
    spec = draw(spec_strategy)
    value = data_for(spec, draw)
    return spec, value


def _compare(spec, value, **kw):
    cache_b, cache_m = {}, {}

    def make(lib):
        return build(spec, lib, cache_b if lib is boltwire else cache_m)

    got, want = both(make, value, **kw)
    event(f"msgspec: {want[0]}" + (f" {want[1]}" if want[0] == "error" else ""))
    assert got == want, f"spec={spec!r}\nvalue={value!r}\nboltwire={got!r}\nmsgspec ={want!r}"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(typed_cases(struct_specs))
def test_struct_shaped_data_agrees_with_msgspec(case):
    spec, value = case
    _compare(spec, value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(typed_cases(struct_specs))
def test_struct_shaped_data_agrees_with_msgspec_lax(case):
    spec, value = case
    _compare(spec, value, strict=False)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(typed_cases(specs))
def test_any_shaped_data_agrees_with_msgspec(case):
    spec, value = case
    _compare(spec, value)
