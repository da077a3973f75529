"""Repeated encodes of a mixed document and of the error paths must not grow memory (reference leaks)."""

import dataclasses
import datetime as dt
import decimal
import enum
import gc
import tracemalloc
import uuid

import pytest

from boltwire import Struct, json


class Color(enum.Enum):
    RED = "red"


class Item(Struct, tag=True, omit_defaults=True):
    id: int
    name: str
    tags: list = []


@dataclasses.dataclass
class DC:
    a: int


DOC = {
    "ints": [1, -2, 2**70], "floats": [1.5, float("nan")], "text": "é\"\n", "bytes": b"abc",
    "items": [Item(1, "a"), Item(2, "b", ["x"])], "when": dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc),
    "day": dt.date(2020, 1, 1), "span": dt.timedelta(seconds=5), "id": uuid.UUID(int=7),
    "dec": decimal.Decimal("1.5"), "color": Color.RED, "dc": DC(1), "set": {1, 2}, "tuple": (1, None),
    1: "int key", uuid.UUID(int=1): "uuid key",
}


def run(fn, n):
    for _ in range(n):
        fn()


def measure(fn, n=100_000):
    run(fn, 2000)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    run(fn, n)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return after - before


def test_mixed_document_does_not_leak():
    enc = json.Encoder()
    buf = bytearray()

    def once():
        json.encode(DOC)
        enc.encode_into(DOC, buf)
        json.encode({"b": 1, "a": {2, 1}}, order="sorted")

    assert measure(once) < 100_000


def test_error_paths_do_not_leak():
    def hook(obj):
        raise ValueError("no")

    def once():
        for call in (lambda: json.encode([1, {"a": object()}]), lambda: json.encode(1j, enc_hook=hook),
                     lambda: json.encode({None: 1}), lambda: json.encode("\ud800"),
                     lambda: json.Encoder(decimal_format="number").encode(decimal.Decimal("nan"))):
            try:
                call()
            except (TypeError, ValueError, UnicodeEncodeError):
                pass
            else:
                pytest.fail("expected an error")

    assert measure(once, 20_000) < 100_000
