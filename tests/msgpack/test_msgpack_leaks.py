"""Leak loops for boltwire.msgpack: 10^4 encodes / decodes per error path and per success path; the reference
counts of the types, hooks and values involved must not move, and tracemalloc growth must stay bounded."""

import datetime
import decimal
import gc
import sys
import tracemalloc
import typing
import uuid
from typing import Literal, Union

import msgspec
import pytest

from boltwire import UNSET, DecodeError, Struct, msgpack

N = 10_000
enc = msgspec.msgpack.encode


# The JSON leak suite's classes and hooks (a Struct zoo, a dataclass, a TypedDict, a custom class and its hook).
import msgpack_diff  # noqa: E402,F401 - puts tests/json on sys.path
from test_json_decode_typed_leaks import DC, TD, Cat, Checked, Color, Custom, Dog, Item, Order, Row, hook  # noqa: E402

def ext_hook(code, data):
    if code == 9:
        raise ValueError("bad ext")
    return (code, bytes(data))


Pet = Union[Cat, Dog]
EXT = msgspec.msgpack.Ext

ERROR_CASES = {
    "wrong_type": (Order, enc({"id": "x", "items": []})),
    "nested_wrong_type": (Order, enc({"id": 1, "items": [{"name": "a", "price": "x"}]})),
    "constraint": (Order, enc({"id": 1, "items": [{"name": "a", "price": -1}]})),
    "missing_field": (Order, enc({"items": []})),
    "unknown_field": (Order, enc({"id": 1, "items": [], "zzz": 1})),
    "non_str_key": (Order, enc({1: 1})),
    "bad_tag": (Pet, enc({"type": "cow", "name": "x"})),
    "missing_tag": (Pet, enc({"name": "x"})),
    "array_like_short": (Row, enc([])),
    "array_like_wrong_item": (Row, enc([1, 2])),
    "post_init": (list[Checked], enc([{"lo": 1}, {"lo": -1}])),
    "dataclass": (DC, enc({"a": 1, "b": ["x"]})),
    "typeddict": (TD, enc({"b": 1})),
    "enum": (dict[str, Color], enc({"k": "blue"})),
    "literal": (list[Literal["a", "b"]], enc(["a", "c"])),
    "uuid_bytes": (uuid.UUID, enc(b"abc")),
    "timestamp": (datetime.datetime, b"\xd7\xff" + b"\xff" * 8),
    "dec_hook": (list[Custom], enc(["ok", "bad"])),
    "ext_hook": (typing.Any, enc([EXT(1, b"a"), EXT(9, b"b")])),
    "truncated": (Order, enc({"id": 1, "items": [{"name": "abc"}]})[:-2]),
    "huge_length": (list[int], b"\xdd\xff\xff\xff\xff\x01\x02"),
    "trailing": (list[int], enc([1]) + b"\x01"),
    "bad_opcode": (typing.Any, b"\x92\x01\xc1"),
    "deep": (typing.Any, b"\x91" * 5000),
    "bad_utf8": (list[str], b"\x91\xa2\xff\xfe"),
    "unhashable_key": (typing.Any, b"\x81\x80\x01"),
    "int_key": (dict[int, str], enc({"x": "y"})),
}

OK_CASES = {
    "order": (Order, enc({"id": 1, "items": [{"name": "a", "price": 1.5}, {"name": "b", "price": 2, "qty": 3}], "tags": ["x"]})),
    "pets": (list[Pet], enc([{"type": "cat", "name": "a"}, {"name": "b", "type": "dog"}])),
    "rows": (list[Row], enc([[1, "a"], [2]])),
    "mixed": (typing.Any, enc({"a": [1, 2.5, "x", None, True, {"b": {}}, b"z"], (1, 2): EXT(3, b"q"),
                               "t": datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)})),
    "special": (tuple[datetime.datetime, uuid.UUID, decimal.Decimal, bytes, datetime.timedelta],
                enc([datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc), uuid.uuid4(), "1.5", b"\x00", "PT1S"])),
    "hook": (list[Custom], enc(["a", "b"])),
    "big_int": (list[int], enc([2**64 - 1, -(2**63)])),
    "raw": (list[msgspec.Raw], enc([[1, 2], {"a": 1}])),
}


def refcounts(objs):
    return [sys.getrefcount(o) for o in objs]


def decode_loop(tp, buf, n=N):
    dec = msgpack.Decoder(tp, dec_hook=hook, ext_hook=ext_hook)
    for _ in range(n // 2):
        for fn in (lambda: dec.decode(buf), lambda: msgpack.decode(buf, type=tp, dec_hook=hook, ext_hook=ext_hook)):
            try:
                fn()
            except (DecodeError, ValueError, RecursionError):
                pass


def measure(run, watched):
    run(1000)  # warm caches (type plans, key cache)
    gc.collect()
    before_refs = refcounts(watched)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    run(N)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return before_refs, refcounts(watched), grown


WATCHED = [Order, Item, Cat, Dog, Row, Checked, DC, TD, Color, Custom, hook, ext_hook, Color.RED]


@pytest.mark.parametrize("name", list(ERROR_CASES))
def test_decode_error_paths_do_not_leak(name):
    tp, buf = ERROR_CASES[name]
    with pytest.raises((DecodeError, ValueError, RecursionError)):
        msgpack.decode(buf, type=tp, dec_hook=hook, ext_hook=ext_hook)
    before, after, grown = measure(lambda n: decode_loop(tp, buf, n), WATCHED + [tp, buf])
    assert before == after, (name, before, after)
    assert grown < 64 * 1024, (name, grown)


@pytest.mark.parametrize("name", list(OK_CASES))
def test_decode_success_paths_do_not_leak(name):
    tp, buf = OK_CASES[name]
    if tp is not typing.Any and "Raw" in repr(tp):
        import boltwire

        tp = list[boltwire.Raw]
    msgpack.decode(buf, type=tp, dec_hook=hook, ext_hook=ext_hook)
    before, after, grown = measure(lambda n: decode_loop(tp, buf, n), WATCHED + [tp, buf])
    assert before == after, (name, before, after)
    assert grown < 64 * 1024, (name, grown)


class Unset(Struct):
    a: int = 1
    b: int = UNSET


def bad_hook(obj):
    raise TypeError("no")


ENCODE_CASES = {
    "order": (Order(id=1, items=[Item("a", 1.5)], tags=["t"]), {}),
    "mixed": ({"a": [1, 2.5, None, b"x", (1, 2)], 1: {2, 3}, "e": msgpack.Ext(1, b"z"), "c": Color.RED,
               "d": datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc), "n": datetime.date(2020, 1, 1)}, {}),
    "sorted": ({"b": [Unset(), Unset(2, 3)], "a": DC(1)}, {"order": "sorted"}),
    "unsupported": ([1, object()], {}),
    "hook_error": ([1, Custom(1)], {"enc_hook": bad_hook}),
    "hook_ok": ([Custom(1)], {"enc_hook": lambda c: c.v}),
    "overflow": ([2**70], {}),
    "surrogate": (["\ud800"], {}),
    "bad_order_keys": ({1: 2}, {"order": "deterministic"}),
}


@pytest.mark.parametrize("name", list(ENCODE_CASES))
def test_encode_paths_do_not_leak(name):
    value, kw = ENCODE_CASES[name]

    def run(n):
        for _ in range(n // 2):
            for fn in (lambda: msgpack.encode(value, **kw), lambda: msgpack.Encoder(**kw).encode(value)):
                try:
                    fn()
                except (TypeError, ValueError, OverflowError, UnicodeEncodeError):
                    pass

    before, after, grown = measure(run, WATCHED + [value, Unset, bad_hook])
    assert before == after, (name, before, after)
    assert grown < 64 * 1024, (name, grown)


def test_encode_into_does_not_leak():
    enc_ = msgpack.Encoder()
    buf = bytearray()

    def run(n):
        for _ in range(n):
            enc_.encode_into({"a": [1, 2, 3]}, buf, 0)
            try:
                enc_.encode_into([object()], buf, -1)
            except TypeError:
                pass

    before, after, grown = measure(run, [buf, enc_])
    assert before == after
    assert grown < 64 * 1024, grown
