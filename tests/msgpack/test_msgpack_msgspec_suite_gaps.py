"""Behaviours msgspec's own test suite found missing, checked against msgspec doing the same thing: bool
Literals, Ext as a type of its own (in unions, convert and inspect), dataclasses with deleted attributes."""

from __future__ import annotations

import dataclasses
import typing

import msgspec
import pytest

import boltwire
import boltwire.inspect
from boltwire import msgpack as bmsgpack
from msgpack_diff import check_type, outcome, plain


@pytest.mark.parametrize("tp", [typing.Literal[True], typing.Literal[False], typing.Literal[1, False],
                                typing.Literal[True, "yes", None], typing.Literal[True] | bool])
@pytest.mark.parametrize("value", [True, False, 1, "yes", None])
def test_bool_literals_take_only_their_values(tp, value):
    check_type(tp, msgspec.msgpack.encode(value))


EXT_TYPES = {
    "Ext": lambda lib: lib.msgpack.Ext,
    "Ext | None": lambda lib: typing.Optional[lib.msgpack.Ext],
    "float | Ext | int | str": lambda lib: typing.Union[float, lib.msgpack.Ext, int, str],
    "Ext | datetime": lambda lib: typing.Union[lib.msgpack.Ext, __import__("datetime").datetime],
    "list[Ext]": lambda lib: list[lib.msgpack.Ext],
}
EXT_INPUTS = [msgspec.msgpack.Ext(5, b"ab"), [msgspec.msgpack.Ext(-3, b"")], 1, 1.5, "s", None,
              __import__("datetime").datetime(2024, 1, 2, tzinfo=__import__("datetime").timezone.utc)]


@pytest.mark.parametrize("name", list(EXT_TYPES))
@pytest.mark.parametrize("value", EXT_INPUTS, ids=repr)
def test_ext_is_a_kind_of_its_own(name, value):
    make = EXT_TYPES[name]
    buf = msgspec.msgpack.encode(value)
    ours_t, theirs_t = make(boltwire), make(msgspec)
    assert outcome(lambda: plain(bmsgpack.decode(buf, type=ours_t))) == outcome(
        lambda: plain(msgspec.msgpack.decode(buf, type=theirs_t)))


@pytest.mark.parametrize("value", [1, "x", None, [1]])
def test_convert_with_ext(value):
    ours_ext, theirs_ext = bmsgpack.Ext(1, b"123"), msgspec.msgpack.Ext(1, b"123")
    assert boltwire.convert(ours_ext, bmsgpack.Ext) is ours_ext
    assert msgspec.convert(theirs_ext, msgspec.msgpack.Ext) is theirs_ext
    assert outcome(lambda: boltwire.convert(value, bmsgpack.Ext)) == outcome(
        lambda: msgspec.convert(value, msgspec.msgpack.Ext))
    for tp in (int, str, list[int]):
        assert outcome(lambda: boltwire.convert(ours_ext, tp)) == outcome(lambda: msgspec.convert(theirs_ext, tp))


def test_inspect_ext_type():
    assert type(boltwire.inspect.type_info(bmsgpack.Ext)).__name__ == "ExtType"
    assert type(msgspec.inspect.type_info(msgspec.msgpack.Ext)).__name__ == "ExtType"
    union = boltwire.inspect.type_info(bmsgpack.Ext | None)
    assert [type(t).__name__ for t in union.types] == ["ExtType", "NoneType"]
    assert [type(t).__name__ for t in msgspec.inspect.type_info(msgspec.msgpack.Ext | None).types] == [
        "ExtType", "NoneType"]


@pytest.mark.parametrize("slots", [False, True])
@pytest.mark.parametrize("order", [None, "sorted"])
def test_dataclass_deleted_attributes_are_left_out(slots, order):
    @dataclasses.dataclass(slots=slots)
    class Row:
        first: int
        value: int
        last: int = 3

    row = Row(1, 2)
    del row.value
    ours = bmsgpack.encode(row, order=order)
    assert ours == msgspec.msgpack.encode(row, order=order)
    assert bmsgpack.decode(ours) == {"first": 1, "last": 3}
    assert boltwire.to_builtins(row) == msgspec.to_builtins(row)


@pytest.mark.parametrize("fn", [lambda x: x, lambda x: [x], lambda x: {"a": x}, lambda x: (x,),
                                lambda x: x.quantize(__import__("decimal").Decimal("0.0")), lambda x: str(x)])
def test_decimal_callable_may_not_return_a_decimal(fn):
    value = __import__("decimal").Decimal("1")
    ours = outcome(lambda: bmsgpack.Encoder(decimal_format=fn).encode(value))
    theirs = outcome(lambda: msgspec.msgpack.Encoder(decimal_format=fn).encode(value))
    assert ours[:2] == theirs[:2]
    if ours[0] == "error":  # boltwire names the option in front of msgspec's words
        assert "callable returned a value containing a Decimal" in ours[2] and theirs[2] in ours[2]
    else:
        assert ours == theirs


@pytest.mark.parametrize("make", [lambda lib: lib.msgpack.Ext, lambda lib: list[lib.msgpack.Ext],
                                  lambda lib: typing.Optional[lib.msgpack.Ext]])
def test_json_schema_refuses_ext_like_msgspec(make):
    assert outcome(lambda: boltwire.json.schema(make(boltwire))) == outcome(
        lambda: msgspec.json.schema(make(msgspec)))


def test_decoder_reprs_name_the_module_like_msgspec():
    for tp in (list[int], dict[str, typing.Optional[float]]):
        assert repr(boltwire.json.Decoder(tp)) == repr(msgspec.json.Decoder(tp)).replace("msgspec", "boltwire")
        assert repr(bmsgpack.Decoder(tp)) == repr(msgspec.msgpack.Decoder(tp)).replace("msgspec", "boltwire")


def _view_facts(view):
    return (view.format, view.itemsize, view.ndim, view.shape, view.strides, view.readonly, view.tobytes())


@pytest.mark.parametrize("ext", [False, True])
@pytest.mark.parametrize("fmt, shape", [("B", [8]), ("b", [8]), ("Q", [1]), ("d", [1]), ("B", [2, 4]), ("Q", [])])
def test_memoryview_results_are_views_of_the_input(ext, fmt, shape):
    """A memoryview result (type=memoryview, or ext_hook's data) views the input: writes reach the caller's buffer."""
    msg = b"\xc9\x00\x00\x00\x02\x05ab" if ext else b"\xc6\x00\x00\x00\x03abc"
    results = []
    for lib in (boltwire, msgspec):
        backing = bytearray(msg)
        buf = memoryview(backing).cast(fmt, shape)
        if ext:
            view = lib.msgpack.decode(buf, ext_hook=lambda code, data: data)
        else:
            view = lib.msgpack.decode(buf, type=memoryview)
        facts = _view_facts(view)
        view[-1] = ord("z")
        results.append((facts, bytes(backing)))
    assert results[0] == results[1]
    assert results[0][1].endswith(b"z")


@pytest.mark.parametrize("tp", ["memoryview", "list[memoryview]", "Annotated[memoryview, Meta(min_length=4)]"])
def test_memoryview_from_bytes_input_is_read_only_view(tp):
    buf = msgspec.msgpack.encode([b"abc", b"de"] if tp.startswith("list") else b"abc")
    outs = []
    for lib in (boltwire, msgspec):
        t = eval(tp, {"memoryview": memoryview, "Annotated": typing.Annotated, "Meta": lib.Meta})
        outs.append(outcome(lambda: plain(lib.msgpack.decode(buf, type=t))))
        if not tp.startswith("Annotated"):
            res = lib.msgpack.decode(buf, type=t)
            first = res[0] if isinstance(res, list) else res
            assert first.readonly and first.obj is buf
    assert outs[0] == outs[1]
