"""json.encode of list, tuple, set, frozenset and dict, dict key rules and the order= modes."""

import collections
import datetime as dt
import decimal
import enum
import uuid

import msgspec
import pytest

from boltwire import json


class Color(enum.Enum):
    RED = "red"
    ONE = 1


class Level(enum.IntEnum):
    LOW = 1


@pytest.mark.parametrize(
    "value, expected",
    [
        ([], b"[]"), ((), b"[]"), (set(), b"[]"), (frozenset(), b"[]"), ({}, b"{}"),
        ([1, "a", None], b'[1,"a",null]'), ((1, 2), b"[1,2]"), ([[]], b"[[]]"), ([[], {}], b"[[],{}]"),
        ({"a": 1, "b": [True, False]}, b'{"a":1,"b":[true,false]}'), ({"a": {}}, b'{"a":{}}'),
        ({"k\n": 1}, b'{"k\\n":1}'),
    ],
)
def test_hand_written(value, expected):
    assert json.encode(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        [1, 2.5, "x", None, True, [1, [2, [3]]], {"a": (1, 2)}],
        {"a": {"b": {"c": [1, 2, 3]}}, "d": [], "e": {}},
        {1, 2, 3},
        frozenset({"a"}),
        collections.OrderedDict(a=1, b=2),
        collections.namedtuple("P", "x y")(1, 2),
        type("L", (list,), {})([1, 2]),
        type("D", (dict,), {})(a=1),
    ],
)
def test_match_msgspec(value):
    assert json.encode(value) == msgspec.json.encode(value)


def test_dict_keys_like_msgspec():
    value = {
        1: "int", -3: "neg", 2**70: "big", 1.5: "float", 1.0: "f1", float("nan"): "nan", float("inf"): "inf",
        float("-inf"): "-inf", Color.RED: "enum str", Color.ONE: "enum int", Level.LOW: "intenum",
        uuid.UUID(int=1): "uuid", dt.date(2020, 1, 1): "date", dt.datetime(2020, 1, 1, 1, 2, 3): "datetime",
        dt.time(1, 2): "time", dt.timedelta(days=1): "td", decimal.Decimal("1.10"): "dec", b"ab": "bytes",
        type("S", (str,), {})("sub"): "str subclass",
    }
    assert json.encode(value) == msgspec.json.encode(value)
    assert json.encode({1: 2, 1.5: 3}) == b'{"1":2,"1.5":3}'


@pytest.mark.parametrize("key", [None, True, (1,), frozenset(), 1j])
def test_unsupported_dict_key(key):
    with pytest.raises(TypeError, match="Only dicts with str-like or number-like keys are supported"):
        json.encode({key: 1})


@pytest.mark.parametrize("order", ["deterministic", "sorted"])
def test_order_sorts_dict_keys_and_sets(order):
    value = {"b": 1, "a": {"z": 1, "é": 2, "y": {3, 1, 2}}, "": frozenset(["b", "a"])}
    expected = b'{"":["a","b"],"a":{"y":[1,2,3],"z":1,"\xc3\xa9":2},"b":1}'
    assert json.encode(value, order=order) == expected
    assert json.encode(value, order=order) == msgspec.json.encode(value, order=order)
    assert json.Encoder(order=order).encode(value) == expected


def test_order_none_keeps_insertion_order():
    assert json.encode({"b": 1, "a": 2}) == b'{"b":1,"a":2}'
    assert json.encode({"b": 1, "a": 2}, order=None) == b'{"b":1,"a":2}'


def test_order_needs_str_keys():
    with pytest.raises(TypeError, match="Only dicts with str keys are supported when `order` is not `None`"):
        json.encode({1: 1}, order="deterministic")


def test_order_unsortable_set_raises():
    with pytest.raises(TypeError):
        json.encode({1, "a"}, order="deterministic")


def test_bad_order():
    with pytest.raises(ValueError, match="`order` must be one of"):
        json.encode(1, order="random")


def test_large_containers_match_msgspec():
    value = [{"id": i, "name": f"item {i}", "tags": ["x"] * (i % 5), "score": i / 7} for i in range(5000)]
    assert json.encode(value) == msgspec.json.encode(value)


def test_recursion_counter_balanced_after_errors():
    # The containers' guards adjust the thread's recursion counter inline; every way out (success, a TypeError
    # deep inside, RecursionError) must give back what it took, or repeated calls would use up the headroom.
    import sys

    nested: object = object()
    for _ in range(200):
        nested = [{"k": nested}]
    for _ in range(2000):
        with pytest.raises(TypeError):
            json.encode(nested)
    # Deeper than every version's limit: 3.11 counts C recursion against sys.getrecursionlimit(); 3.12 and 3.13
    # have a separate, fixed C limit (8000 and 10000 on Linux), which is what the encoder's guards then respect.
    too_deep: list = []
    for _ in range(max(sys.getrecursionlimit(), 12_000) + 10):
        too_deep = [too_deep]
    for _ in range(50):
        with pytest.raises(RecursionError):
            json.encode(too_deep)

    def recurse(n: int) -> int:
        return 0 if n == 0 else 1 + recurse(n - 1)

    assert recurse(sys.getrecursionlimit() - 200) == sys.getrecursionlimit() - 200
