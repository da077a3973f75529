"""Leak loops for the typed decoder: 10^4 decodes per error path (type errors, constraint failures, missing and
unknown fields, bad tags, malformed JSON, __post_init__ / dec_hook / validator failures) and per success path;
the reference counts of the types, hooks and interned values involved must not move, and tracemalloc growth
must stay bounded."""

import dataclasses
import datetime
import decimal
import enum
import gc
import sys
import tracemalloc
import typing
import uuid
from typing import Annotated, Literal, Optional, TypedDict, Union

import pytest

import boltwire
from boltwire import DecodeError, Meta, Struct, field, json

N = 10_000


class Color(enum.Enum):
    RED = "red"


class Item(Struct):
    name: str
    price: Annotated[float, Meta(ge=0)]
    qty: int = 1


class Order(Struct, forbid_unknown_fields=True):
    id: int
    items: list[Item]
    note: Optional[str] = None
    tags: list[str] = field(default_factory=list)


class Cat(Struct, tag="cat"):
    name: str


class Dog(Struct, tag="dog"):
    name: str


class Row(Struct, array_like=True):
    a: int
    b: str = ""


class Checked(Struct):
    lo: int

    def __post_init__(self):
        if self.lo < 0:
            raise ValueError("negative")


@dataclasses.dataclass
class DC:
    a: int
    b: list[int] = dataclasses.field(default_factory=list)


class TD(TypedDict):
    a: int


class Custom:
    def __init__(self, v):
        self.v = v


def hook(tp, obj):
    if tp is Custom:
        if obj == "bad":
            raise ValueError("bad custom")
        return Custom(obj)
    raise NotImplementedError


def validator(v):
    if v == 13:
        raise ValueError("unlucky")


Lucky = Annotated[int, Meta(validator=validator)]
Pet = Union[Cat, Dog]

ERROR_CASES = {
    "wrong_type": (Order, b'{"id":"x","items":[]}'),
    "nested_wrong_type": (Order, b'{"id":1,"items":[{"name":"a","price":"x"}]}'),
    "constraint": (Order, b'{"id":1,"items":[{"name":"a","price":-1}]}'),
    "missing_field": (Order, b'{"items":[]}'),
    "unknown_field": (Order, b'{"id":1,"items":[],"zzz":1}'),
    "bad_tag": (Pet, b'{"type":"cow","name":"x"}'),
    "missing_tag": (Pet, b'{"name":"x"}'),
    "array_like_short": (Row, b"[]"),
    "array_like_wrong_item": (Row, b"[1,2]"),
    "post_init": (list[Checked], b'[{"lo":1},{"lo":-1}]'),
    "dataclass": (DC, b'{"a":1,"b":["x"]}'),
    "typeddict": (TD, b'{"b":1}'),
    "enum": (dict[str, Color], b'{"k":"blue"}'),
    "literal": (list[Literal["a", "b"]], b'["a","c"]'),
    "datetime": (datetime.datetime, b'"2020-13-01T00:00:00Z"'),
    "uuid": (uuid.UUID, b'"nope"'),
    "decimal": (decimal.Decimal, b'"nope"'),
    "bytes": (bytes, b'"!!!"'),
    "validator": (list[Lucky], b"[1,13]"),
    "dec_hook": (list[Custom], b'["ok","bad"]'),
    "malformed": (Order, b'{"id":1,"items":[1,]}'),
    "truncated": (Order, b'{"id":1,"items":[{"name":"a'),
    "trailing": (list[int], b"[1] x"),
    "deep": (typing.Any, b"[" * 2000),
    "bad_utf8": (list[str], b'["\xff"]'),
    "int_key": (dict[int, str], b'{"x":"y"}'),
    "union_no_match": (Union[int, str, None], b"[]"),
}

OK_CASES = {
    "order": (Order, b'{"id":1,"items":[{"name":"a","price":1.5},{"name":"b","price":2,"qty":3}],"tags":["x"]}'),
    "pets": (list[Pet], b'[{"type":"cat","name":"a"},{"name":"b","type":"dog"}]'),
    "rows": (list[Row], b'[[1,"a"],[2]]'),
    "mixed": (dict[str, typing.Any], b'{"a":[1,2.5,"x",null,true,{"b":{}}],"c":"\\u00e9"}'),
    "special": (tuple[datetime.datetime, uuid.UUID, decimal.Decimal, bytes, datetime.timedelta],
                b'["2020-01-01T00:00:00+01:00","c1c2a1d4-8a4c-4a3e-9b1a-1f0e2d3c4b5a","1.5","AAE=","PT1S"]'),
    "hook": (list[Custom], b'["a","b"]'),
    "big_int": (list[int], b"[123456789012345678901234567890,-1]"),
}


def refcounts(objs):
    return [sys.getrefcount(o) for o in objs]


def loop(tp, buf, n=N, **kw):
    """n decodes in all: half through a Decoder, half through json.decode."""
    dec = json.Decoder(tp, **kw)
    for _ in range(n // 2):
        try:
            dec.decode(buf)
        except DecodeError:
            pass
        try:
            json.decode(buf, type=tp, **kw)
        except DecodeError:
            pass


def measure(tp, buf, **kw):
    watched = [tp, Order, Item, Cat, Dog, Row, Checked, DC, TD, Color, Custom, hook, validator, Color.RED, buf]
    loop(tp, buf, n=1000, **kw)  # warm caches (type plans, interned names)
    gc.collect()
    before_refs = refcounts(watched)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    loop(tp, buf, **kw)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    after_refs = refcounts(watched)
    return before_refs, after_refs, after - before


@pytest.mark.parametrize("name", list(ERROR_CASES))
def test_error_paths_do_not_leak(name):
    tp, buf = ERROR_CASES[name]
    with pytest.raises(DecodeError):
        json.decode(buf, type=tp, dec_hook=hook)
    before, after, grown = measure(tp, buf, dec_hook=hook)
    assert before == after, (name, before, after)
    assert grown < 64 * 1024, (name, grown)


@pytest.mark.parametrize("name", list(OK_CASES))
def test_success_paths_do_not_leak(name):
    tp, buf = OK_CASES[name]
    json.decode(buf, type=tp, dec_hook=hook)
    before, after, grown = measure(tp, buf, dec_hook=hook)
    assert before == after, (name, before, after)
    assert grown < 64 * 1024, (name, grown)


def test_decode_lines_error_path_does_not_leak():
    dec = json.Decoder(Order)
    buf = b'{"id":1,"items":[]}\n{"id":"x","items":[]}\n'

    def run():
        for _ in range(N):
            try:
                dec.decode_lines(buf)
            except DecodeError:
                pass

    run()
    gc.collect()
    refs = refcounts([Order, Item])
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    run()
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert refcounts([Order, Item]) == refs
    assert grown < 64 * 1024, grown


def test_building_many_decoders_does_not_leak_types():
    def run():
        for _ in range(2000):
            json.Decoder(Order)
            json.Decoder(list[Pet])
            json.Decoder(dict[str, Annotated[int, Meta(ge=0)]])

    run()
    gc.collect()
    refs = refcounts([Order, Item, Cat, Dog])
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    run()
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert refcounts([Order, Item, Cat, Dog]) == refs
    assert grown < 256 * 1024, grown
