"""Encoders walking containers that an enc_hook changes underneath them (JSON, MessagePack and to_builtins).

The walks read items as borrowed references. A hook that drops the last other reference to the container being
walked (clearing its parent) or to pairs still to be written (clearing a dict being written in sorted order,
replacing a Struct attribute) must not free what the walk still reads: each walk holds its container, and pairs
collected for sorting are held until written. Under `make sanitize` a missing hold is a use-after-free report; in
a plain build it shows as a crash or as wrong output."""

import json as stdlib_json

import pytest

from boltwire import Struct, json, msgpack, to_builtins


class Trigger:
    """An unsupported value: encoding it calls the enc_hook."""


def payload(tag):
    # Fresh objects only the container holds, so that dropping the container frees them.
    return [f"{tag}-{i}" * 3 for i in range(40)] + [10**12 + i for i in range(10)]


class Pair(Struct):
    first: object
    second: object


class Sorted(Struct, omit_defaults=True):
    b: object
    c: object
    a: int = 0


def codecs(sorting_collects=False):
    """The encoders as value -> decoded output. With sorting_collects, only those that collect the pairs of a sorted
    dict or Struct before writing them (to_builtins sorts its output dict instead, walking the input live)."""
    def js(value, hook, order=None):
        return stdlib_json.loads(json.encode(value, enc_hook=hook, order=order))

    def mp(value, hook, order=None):
        return msgpack.decode(msgpack.encode(value, enc_hook=hook, order=order))

    def tb(value, hook, order=None):
        return stdlib_json.loads(json.encode(to_builtins(value, enc_hook=hook, order=order)))

    collecting = [pytest.param(js, id="json"), pytest.param(mp, id="msgpack")]
    return collecting if sorting_collects else collecting + [pytest.param(tb, id="to_builtins")]


def clearing(container, result="x"):
    def hook(obj):
        container.clear()
        return result

    return hook


@pytest.mark.parametrize("roundtrip", codecs())
def test_inner_list_outlives_its_cleared_parent(roundtrip):
    outer = [[Trigger(), payload("a")]]
    expected = [["x", payload("a")]]
    assert roundtrip(outer, clearing(outer)) == expected


@pytest.mark.parametrize("roundtrip", codecs())
def test_inner_tuple_outlives_its_cleared_parent(roundtrip):
    outer = [(Trigger(), payload("t"), "tail" * 10)]
    expected = [["x", payload("t"), "tail" * 10]]
    assert roundtrip(outer, clearing(outer)) == expected


@pytest.mark.parametrize("roundtrip", codecs())
def test_inner_dict_outlives_its_cleared_parent(roundtrip):
    outer = [{"a": Trigger(), "b": payload("d"), "c": "s" * 100}]
    expected = [{"a": "x", "b": payload("d"), "c": "s" * 100}]
    assert roundtrip(outer, clearing(outer)) == expected


@pytest.mark.parametrize("roundtrip", codecs())
def test_inner_struct_outlives_its_cleared_parent(roundtrip):
    outer = [Pair(Trigger(), payload("s"))]
    expected = [{"first": "x", "second": payload("s")}]
    assert roundtrip(outer, clearing(outer)) == expected


@pytest.mark.parametrize("order", ["sorted", "deterministic"])
@pytest.mark.parametrize("roundtrip", codecs(sorting_collects=True))
def test_sorted_dict_keeps_the_pairs_it_collected(roundtrip, order):
    d = {"b": Trigger(), "c": payload("c"), "a": payload("a")}
    expected = {"a": payload("a"), "b": "x", "c": payload("c")}
    out = roundtrip(d, clearing(d), order)
    assert out == expected
    assert list(out) == ["a", "b", "c"]


@pytest.mark.parametrize("roundtrip", codecs(sorting_collects=True))
def test_sorted_struct_keeps_the_values_it_collected(roundtrip):
    s = Sorted(b=Trigger(), c=payload("c"), a=1)

    def hook(obj):
        s.c = None  # frees the list the collected pairs still point at, unless they hold it
        return "x"

    out = roundtrip(s, hook, "sorted")
    assert out == {"a": 1, "b": "x", "c": payload("c")}


def test_msgpack_dict_value_outlives_a_key_hook_clearing_the_dict():
    d = {Trigger(): payload("v")}
    assert msgpack.decode(msgpack.encode(d, enc_hook=clearing(d, "k"))) == {"k": payload("v")}


@pytest.mark.parametrize("roundtrip", codecs())
def test_no_reference_is_leaked_by_the_holds(roundtrip):
    import sys

    inner = [Trigger(), payload("r")]
    d = {"b": inner, "a": 1}
    before = sys.getrefcount(inner), sys.getrefcount(d)
    for _ in range(100):
        roundtrip([d, (inner,), Pair(inner, d)], lambda obj: None, "sorted")
    assert (sys.getrefcount(inner), sys.getrefcount(d)) == before
