"""Malformed MessagePack: every truncation of valid documents, bad opcodes, claimed lengths far past the input
(no huge allocation), deep nesting (RecursionError, not a crash); errors must match msgspec's. And hypothesis
round trips: random values encode to msgspec's bytes and decode back to msgspec's result."""

import datetime

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgpack_diff import check, check_untyped, module_with

import boltwire
from boltwire import msgpack as bmsgpack

SOURCE = """
from typing import Optional, Union

class Item(lib.Struct):
    name: str
    tags: list[str] = []

class Row(lib.Struct, array_like=True):
    a: int
    b: Optional[float] = None

class C(lib.Struct, tag="c"):
    x: dict[str, int]

class D(lib.Struct, tag="d"):
    y: list[Item]
"""
OURS = module_with(boltwire, SOURCE)
THEIRS = module_with(msgspec, SOURCE)
twin = lambda name: (lambda lib: getattr(OURS if lib is boltwire else THEIRS, name))  # noqa: E731

DOCS = [
    ({"a": [1, 2.5, "x", b"y", None, True], "b": {"c": datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)}}, None),
    ({"name": "n", "tags": ["a", "b"]}, "Item"),
    ([1, 2.5], "Row"),
    ({"type": "d", "y": [{"name": "q"}]}, "CD"),
    ({"x": {"k": 1}, "type": "c"}, "CD"),
]


def _make(name):
    if name is None:
        return None
    if name == "CD":
        from typing import Union

        return lambda lib: Union[twin("C")(lib), twin("D")(lib)]
    return twin(name)


@pytest.mark.parametrize("value,name", DOCS, ids=[str(n) for _, n in DOCS])
def test_every_truncation_and_every_corrupted_byte(value, name):
    buf = msgspec.msgpack.encode(value)
    make = _make(name)
    for cut in range(len(buf)):
        if make is None:
            check_untyped(buf[:cut])
        else:
            check(make, buf[:cut])
    for i in range(len(buf)):
        for byte in (0xC1, 0xFF, 0x00, 0xDF, 0xDB):
            bad = buf[:i] + bytes([byte]) + buf[i + 1 :]
            if make is None:
                check_untyped(bad)
            else:
                check(make, bad)


@pytest.mark.parametrize(
    "buf",
    [b"\xdd\xff\xff\xff\xff", b"\xdf\xff\xff\xff\xff", b"\xdb\xff\xff\xff\xff", b"\xc6\xff\xff\xff\xff",
     b"\xc9\xff\xff\xff\xff\x01", b"\xdd\xff\xff\xff\xff" + b"\x01" * 100, b"\xdf\xff\xff\xff\xff\xa1a\x01",
     b"\x91" * 50 + b"\xdd\xff\xff\xff\xff"],
    ids=lambda b: b[:6].hex(),
)
def test_huge_claimed_lengths_are_truncation(buf):
    import tracemalloc

    tracemalloc.start()
    check_untyped(buf)
    check(lambda lib: list[int], buf)
    check(lambda lib: dict[str, int], buf)
    check(twin("Item"), buf)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 50_000_000  # no slot array sized by the claimed length


@pytest.mark.parametrize("depth", [500, 5000, 200_000])
def test_deep_nesting_is_a_clean_error(depth):
    for opener in (b"\x91", b"\x81\xa1k"):
        buf = opener * depth + b"\x01"
        for decode in (lambda: bmsgpack.decode(buf), lambda: bmsgpack.decode(buf, type=list)):
            try:
                decode()
            except RecursionError:
                pass
            except boltwire.ValidationError:
                pass  # list of a dict: a type error before the depth is reached


scalars = (
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False) | st.text() | st.binary()
    | st.datetimes(timezones=st.just(datetime.timezone.utc))
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
                      max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(values)
def test_round_trip_matches_msgspec(value):
    ours = bmsgpack.encode(value)
    assert ours == msgspec.msgpack.encode(value)
    assert bmsgpack.decode(ours) == msgspec.msgpack.decode(ours) == value


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64))
def test_random_bytes_agree(buf):
    check_untyped(buf)
    check(lambda lib: list[int], buf)
    check(twin("Row"), buf)


items = st.builds(dict, name=st.text(max_size=5), tags=st.lists(st.text(max_size=3), max_size=3))


@settings(max_examples=200, deadline=None)
@given(st.lists(items, max_size=4))
def test_struct_round_trip(docs):
    buf = msgspec.msgpack.encode(docs)
    check(lambda lib: list[twin("Item")(lib)], buf)
    decoded = bmsgpack.decode(buf, type=list[OURS.Item])
    assert bmsgpack.encode(decoded) == msgspec.msgpack.encode(msgspec.msgpack.decode(buf, type=list[THEIRS.Item]))
