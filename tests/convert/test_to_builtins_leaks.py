"""Repeated to_builtins and json.format calls, including their error paths, must not grow memory."""

import dataclasses
import datetime as dt
import decimal
import enum
import gc
import tracemalloc
import uuid

import pytest

from boltwire import UNSET, DecodeError, Raw, Struct, json, to_builtins


class Color(enum.Enum):
    RED = "red"


class Item(Struct, tag=True, omit_defaults=True):
    id: int
    name: str
    tags: list = []
    extra: object = UNSET


class Row(Struct, array_like=True):
    a: int
    b: bytes


@dataclasses.dataclass
class DC:
    a: int
    b: object = UNSET


DOC = {
    "ints": [1, -2, 2**70], "floats": [1.5, float("nan")], "text": "é", "bytes": b"abc",
    "items": [Item(1, "a"), Item(2, "b", ["x"], extra=3)], "row": Row(1, b"x"),
    "when": dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc), "day": dt.date(2020, 1, 1),
    "span": dt.timedelta(seconds=5), "id": uuid.UUID(int=7), "dec": decimal.Decimal("1.5"), "color": Color.RED,
    "dc": DC(1), "set": {1, 2}, "tuple": (1, None), 1: "int key", uuid.UUID(int=1): "uuid key",
    (1, 2): "tuple key", frozenset([3]): "set key",
}


STR_KEYED = {k: v for k, v in DOC.items() if isinstance(k, str)}


def measure(fn, n):
    for _ in range(1000):
        fn()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(n):
        fn()
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return after - before


def test_to_builtins_does_not_leak():
    def once():
        to_builtins(DOC)
        to_builtins(STR_KEYED, order="sorted", builtin_types=(bytes, uuid.UUID))
        to_builtins({k: v for k, v in DOC.items() if isinstance(k, (str, int))}, str_keys=True)

    assert measure(once, 20_000) < 100_000


def test_to_builtins_error_paths_do_not_leak():
    def hook(obj):
        raise ValueError("no")

    calls = [
        lambda: to_builtins([1, {"a": object()}]),
        lambda: to_builtins({"k": [1, 2j]}, enc_hook=hook),
        lambda: to_builtins({None: 1}, str_keys=True),
        lambda: to_builtins({2: 1, "a": 2}, order="sorted"),
        lambda: to_builtins([Item(1, "x"), UNSET]),
        lambda: to_builtins(1, builtin_types=(1,)),
        lambda: to_builtins(Raw(b"1")),
    ]

    def once():
        for call in calls:
            with pytest.raises((TypeError, ValueError)):
                call()

    assert measure(once, 5_000) < 100_000


def test_format_does_not_leak():
    good = json.encode({"a": [1, 2.5, "x", {"b": None}]})
    bad = [b'{"a": [1, 2', b'{"a" 1}', b'["\\x"]', b"[01]"]

    def once():
        json.format(good)
        json.format(good.decode(), indent=0)
        for doc in bad:
            with pytest.raises(DecodeError):
                json.format(doc)

    assert measure(once, 20_000) < 100_000


def test_raw_and_unset_do_not_leak():
    payload = b'{"x":1}'

    def once():
        r = Raw(payload)
        json.encode([r, Item(1, "a")])
        r.copy()
        Raw(memoryview(payload)).copy()

    assert measure(once, 20_000) < 100_000


def test_struct_classes_stay_collectable_after_encode_and_to_builtins():
    import weakref

    refs = []
    for i in range(20):
        class Temp(Struct, tag=f"t{i}"):
            a: int
            b: list = []

        json.encode(Temp(1))
        to_builtins(Temp(2, [Temp(3)]))
        refs.append(weakref.ref(Temp))
        del Temp
    gc.collect()
    assert all(r() is None for r in refs)
