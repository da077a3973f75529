"""msgpack.decode / Decoder against msgspec.msgpack: untyped values, every typed kind, unions, Structs (tagged,
array_like), dataclasses, TypedDicts, NamedTuples, constraints, lax mode, hooks, and their error messages and
paths."""

import dataclasses
import datetime
import decimal
import enum
import types
import uuid
from typing import Annotated, Any, Literal, NamedTuple, Optional, TypedDict, Union

import msgspec
import pytest
from msgpack_diff import check, check_type, check_untyped, module_with

import boltwire
from boltwire import msgpack as bmsgpack

enc = msgspec.msgpack.encode
UTC = datetime.timezone.utc


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Point(NamedTuple):
    x: int
    y: int = 0


class Movie(TypedDict):
    title: str
    year: int


@dataclasses.dataclass
class DC:
    a: int
    b: str = "x"


VALUES = [
    None, True, False, 0, 1, -1, -33, 255, 2**16, 2**40, 2**63, 2**64 - 1, -(2**63), 1.5, -0.0, float("inf"), "",
    "héllo", "x" * 40, b"", b"\x00\xff", [], [1, [2, [3]]], {}, {"a": 1}, {1: 2}, {(1, (2, 3)): 4},
    datetime.datetime(2020, 1, 1, tzinfo=UTC), datetime.datetime(1, 1, 1, tzinfo=UTC),
    datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC), datetime.datetime(1960, 5, 5, 1, 2, 3, 4, tzinfo=UTC),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_untyped_values(value):
    check_untyped(enc(value))
    check_type(Any, enc(value))


UNTYPED_INPUTS = [
    b"", b"\xc1", b"\x01\x02", b"\x92\x01", b"\xdd\xff\xff\xff\xff", b"\xdb\xff\xff\xff\xff", b"\xc4\x05ab",
    b"\xca\x3f\x80\x00\x00", b"\x81\x81\x01\x02\x03", b"\x81\x80\x01", b"\x81\x91\x80\x01", b"\xd4\xff\x00",
    b"\xd6\x05abcd", b"\xd6\xff\xff\xff\xff\xff", b"\xc7\x0c\xff" + b"\xff" * 12, b"\xd7\xff" + b"\xff" * 8,
    b"\xc7\x03\xffabc", b"\xdc\x00\x02\x01", b"\xa2\xff\xfe", b"\x81\xa2\xff\xfe\x01", b"\x92\x01\xc1",
    b"\xd7\xff" + ((1500 << 34) | 5).to_bytes(8, "big"), b"\xd7\xff" + ((999999999 << 34) | 5).to_bytes(8, "big"),
    b"\xc7\x0c\xff" + bytes(4) + (-(2**62)).to_bytes(8, "big", signed=True),
    b"\xc7\x0c\xff" + bytes(4) + (253402300800).to_bytes(8, "big", signed=True),
    b"\xc7\x0c\xff" + bytes(4) + (-62135596801).to_bytes(8, "big", signed=True),
    b"\xc7\x0c\xff" + bytes(4) + (-62135596800).to_bytes(8, "big", signed=True),
    b"\xcb" + b"\x00" * 7, b"\xcf\x00", b"\xd9", b"\xd9\x05", b"\xc8\x00", b"\xc8\x00\x01", b"\xc8\x00\x01\x05",
]


@pytest.mark.parametrize("buf", UNTYPED_INPUTS, ids=lambda b: b.hex())
def test_untyped_inputs_and_errors(buf):
    check_untyped(buf)


TYPED = [
    (int, [1, "a", b"a", [], {}, 1.0, None, True, 2**64 - 1, -(2**63), float("inf")]),
    (float, [1, 1.5, 2**64 - 1, "1.5", None]),
    (bool, [True, 1, "true"]),
    (str, ["a", 1, b"a", None]),
    (bytes, [b"a", "a", bytearray(b"x")]),
    (bytearray, [b"a", "a"]),
    (type(None), [None, 0]),
    (uuid.UUID, [uuid.UUID(int=3), str(uuid.UUID(int=3)), uuid.UUID(int=3).hex, "nope", b"\x00" * 16, b"abc", 1]),
    (datetime.datetime, [datetime.datetime(2020, 1, 1, tzinfo=UTC), "2020-01-01T00:00:00Z", "2020-01-01T00:00:00",
                         "bad", 1, datetime.date(2020, 1, 1)]),
    (datetime.date, ["2020-01-02", "2020-13-01", datetime.datetime(2020, 1, 1, tzinfo=UTC), 5]),
    (datetime.time, ["01:02:03", "01:02:03+01:00", "25:00:00", 5]),
    (datetime.timedelta, ["P1D", "PT1.5S", "P1Y", 1, 1.5]),
    (decimal.Decimal, ["1.5", 1.5, 1, "x", b"1"]),
    (Color, ["red", "green", 1]),
    (Level, [1, 3, "1"]),
    (Literal["a", "b"], ["a", "c", 1]),
    (Literal[1, 2], [1, 3, "1"]),
    (list[int], [[1, 2], [1, "a"], (), {}, 1]),
    (set[int], [[1, 1, 2], [[1]]]),
    (frozenset[str], [["a", "a"]]),
    (tuple[int, ...], [[1, 2]]),
    (tuple[int, str], [[1, "a"], [1], [1, "a", 2], [1, 2]]),
    (tuple[()], [[], [1]]),
    (Point, [[1], [1, 2], [], [1, 2, 3], ["a"]]),
    (dict[str, int], [{"a": 1}, {1: 1}, {"a": "b"}, []]),
    (dict[int, str], [{1: "a"}, {"1": "a"}, {1.5: "a"}]),
    (dict[Any, Any], [{(1, 2): 3, "a": [1]}]),
    (dict[tuple[int, int], int], [{(1, 2): 3}]),
    # arrays untyped inside a typed key or set item become tuples (hashable), as msgspec decodes them
    (dict[tuple[int, tuple[int, ...]], Any], [{(1, (2, 3)): [1]}]),
    (dict[tuple, list[int]], [{(1, (2, 3)): [1, 2, 3]}]),
    (dict[tuple[Any, ...], Any], [{(1, (2, 3)): [1]}]),
    (dict[tuple[Any, Any], Any], [{(1, (2, 3)): [1]}]),
    (set, [[[1, 2], [3, [4, 5]], 6], [{"a": 1}]]),
    (frozenset[Any], [[[1, [2]]]]),
    (dict[Color, int], [{"red": 1}, {"pink": 1}]),
    (dict[uuid.UUID, int], [{str(uuid.UUID(int=1)): 1}]),
    (Movie, [{"title": "t", "year": 1}, {"title": "t"}, {"title": 1, "year": 1}, {1: 2}, []]),
    (DC, [{"a": 1}, {"a": 1, "b": "y", "c": 3}, {}, {"a": "x"}]),
    (Optional[int], [None, 1, "a"]),
    (Union[int, str], [1, "a", 1.5, None]),
    (Union[int, str, None], [1.5]),
    (Union[int, float], [1, 1.0]),
    (Union[Literal["a"], int], [5, "a", "b"]),
    (Union[list[int], dict[str, int]], [[1], {"a": 1}, "x"]),
    (Union[datetime.datetime, None], [datetime.datetime(2020, 1, 1, tzinfo=UTC), None, 1]),
    (lambda lib: Annotated[int, lib.Meta(ge=0, le=10)], [5, -1, 11]),
    (lambda lib: Annotated[str, lib.Meta(min_length=2, pattern="^a")], ["ab", "a", "bb"]),
    (lambda lib: Annotated[bytes, lib.Meta(max_length=2)], [b"ab", b"abc"]),
    (lambda lib: Annotated[list[int], lib.Meta(min_length=1)], [[], [1]]),
    (lambda lib: Annotated[dict[str, int], lib.Meta(max_length=1)], [{"a": 1, "b": 2}]),
    (lambda lib: Annotated[float, lib.Meta(gt=0)], [0.0, 1, 0]),
    (lambda lib: Annotated[datetime.datetime, lib.Meta(tz=False)],
     [datetime.datetime(2020, 1, 1, tzinfo=UTC), "2020-01-01T00:00:00"]),
    (msgspec.Raw, [[1, 2], {"a": [1]}]),
    (bmsgpack.Ext, []),
]


def _meta_twin(tp, lib):
    """The type for `lib`: a function of the library (Annotated with lib.Meta), Raw as lib.Raw, else as is."""
    if tp is msgspec.Raw:
        return lib.Raw
    if isinstance(tp, types.FunctionType):
        return tp(lib)
    return tp


TYPED_CASES = [pytest.param(tp, value, id=f"{getattr(tp, '__name__', tp)!r}-{k}-{i}")
               for k, (tp, values) in enumerate(TYPED) for i, value in enumerate(values)]


@pytest.mark.parametrize("tp,value", TYPED_CASES)
def test_typed_values_and_errors(tp, value):
    buf = enc(value)
    check(lambda lib: _meta_twin(tp, lib), buf)
    check(lambda lib: list[_meta_twin(tp, lib)], enc([value]))
    check(lambda lib: dict[str, _meta_twin(tp, lib)], enc({"k": value}))


LAX = [
    (int, ["1", 1.0, 1.5, "x", True]),
    (float, ["1.5", "nan", True]),
    (bool, [1, 0, 2, "true", "False"]),
    (type(None), ["null"]),
    (datetime.datetime, [1, 1.5, "1"]),
    (datetime.timedelta, [1, 1.5, "1"]),
    (dict[int, int], [{"1": 1}]),
    (Level, ["1"]),
    (Union[int, None], ["1", "null"]),
]


@pytest.mark.parametrize("tp,value", [pytest.param(t, v, id=f"{t!r}-{i}") for t, vs in LAX for i, v in enumerate(vs)])
def test_lax_mode(tp, value):
    check(lambda lib: tp, enc(value), strict=False)


def test_ext_values_and_hooks():
    data = enc(msgspec.msgpack.Ext(3, b"ab"))
    out = bmsgpack.decode(data)
    assert isinstance(out, bmsgpack.Ext) and out.code == 3 and out.data == b"ab"
    assert bmsgpack.decode(data, type=bmsgpack.Ext) == bmsgpack.Ext(3, b"ab")
    ts = enc(datetime.datetime(2020, 1, 1, tzinfo=UTC))
    assert bmsgpack.decode(ts, type=bmsgpack.Ext) == bmsgpack.Ext(-1, ts[2:])
    seen = []
    hook = lambda code, view: seen.append((code, type(view).__name__, bytes(view))) or "hooked"  # noqa: E731
    check_untyped(data, ext_hook=hook)
    assert seen[-1] == (3, "memoryview", b"ab")
    check_untyped(ts, ext_hook=hook)  # the timestamp is never handed to the hook
    check_untyped(data, ext_hook=lambda c, v: 1 / 0)
    check_type(int, data, ext_hook=hook)
    check(lambda lib: complex, data, dec_hook=lambda t, v: complex(v), ext_hook=lambda c, v: 5)


def test_custom_types_use_dec_hook():
    check(lambda lib: complex, enc([1, 2]), dec_hook=lambda t, v: complex(*v))
    check(lambda lib: complex, enc({"r": 1}), dec_hook=lambda t, v: complex(v["r"]))
    check(lambda lib: complex, enc("1"), dec_hook=lambda t, v: complex(v))
    check(lambda lib: complex, enc(1))
    check(lambda lib: complex, enc(1), dec_hook=lambda t, v: "not complex")
    check(lambda lib: complex, enc(1), dec_hook=lambda t, v: 1 / 0)
    check(lambda lib: Optional[complex], enc(None), dec_hook=lambda t, v: complex(v))


SOURCE = """
from typing import Optional, Union

class Item(lib.Struct):
    name: str
    price: float
    qty: int = 1

class Order(lib.Struct, forbid_unknown_fields=True):
    id: int
    items: list[Item]
    note: Optional[str] = None

class A(lib.Struct, tag=True, array_like=True):
    x: int

class B(lib.Struct, tag=True, array_like=True):
    y: int
    z: int = 0

class C(lib.Struct, tag="c"):
    x: int

class D(lib.Struct, tag="d"):
    x: int

class I1(lib.Struct, tag=1, tag_field="k"):
    a: int

class I2(lib.Struct, tag=2, tag_field="k"):
    a: int

class Row(lib.Struct, array_like=True):
    a: int
    b: str = "z"

class StrictRow(lib.Struct, array_like=True, forbid_unknown_fields=True):
    a: int

class Renamed(lib.Struct, rename="camel"):
    field_one: int
    field_two: Optional[int] = None

class Node(lib.Struct):
    value: int
    children: "list[Node]" = []

class Checked(lib.Struct):
    lo: int

    def __post_init__(self):
        if self.lo < 0:
            raise ValueError("negative")

AB = Union[A, B]
CD = Union[C, D]
I12 = Union[I1, I2]
"""

OURS = module_with(boltwire, SOURCE)
THEIRS = module_with(msgspec, SOURCE)

STRUCT_CASES = {
    "Item": [{"name": "n", "price": 1.5}, {"name": "n"}, {"name": 1, "price": 1}, {1: 2}, {"name": "n", "price": 1, "x": [1, {2: 3}]},
             [1], {"name": "n", "price": 1.5, "qty": "x"}, {b"name": 1}],
    "Order": [{"id": 1, "items": [{"name": "a", "price": 1}]}, {"id": 1, "items": [], "bad": 1},
              {"id": 1, "items": [{"name": "a", "price": "x"}]}],
    "A": [["A", 1], ["A"], [1], ["B", 1], ["A", 1, 2], []],
    "AB": [["A", 1], ["B", 1], ["B", 1, 2], ["B"], ["Z", 1], [], [5, 1], [["A"], 1], {"type": "A"}],
    "CD": [{"type": "c", "x": 1}, {"x": 1, "type": "d"}, {"x": 1}, {"type": 1}, {"type": "q"}, {"type": "c"},
           {"x": "s", "type": "d"}, [1]],
    "I12": [{"k": 1, "a": 1}, {"k": 2, "a": 2}, {"k": 3}, {"k": "1"}, {"a": 1}],
    "C": [{"type": "c", "x": 1}, {"type": "d", "x": 1}, {"type": 1, "x": 1}],
    "Row": [[1], [1, "b"], [1, "b", 3], [], ["x"]],
    "StrictRow": [[1], [1, 2]],
    "Renamed": [{"fieldOne": 1}, {"field_one": 1}, {"fieldOne": 1, "fieldTwo": "x"}],
    "Node": [{"value": 1, "children": [{"value": 2, "children": [{"value": "x"}]}]}],
    "Checked": [{"lo": 1}, {"lo": -1}],
}


@pytest.mark.parametrize("name,value", [pytest.param(n, v, id=f"{n}-{i}") for n, vs in STRUCT_CASES.items()
                                        for i, v in enumerate(vs)])
def test_structs(name, value):
    buf = enc(value)
    check(lambda lib: getattr(OURS if lib is boltwire else THEIRS, name), buf)
    check(lambda lib: list[getattr(OURS if lib is boltwire else THEIRS, name)], enc([value]))


def test_struct_round_trip_through_both():
    order = OURS.Order(id=5, items=[OURS.Item("a", 1.5, 2)], note="n")
    buf = bmsgpack.encode(order)
    assert buf == msgspec.msgpack.encode(THEIRS.Order(id=5, items=[THEIRS.Item("a", 1.5, 2)], note="n"))
    assert bmsgpack.decode(buf, type=OURS.Order) == order


def test_decoder_object():
    dec = bmsgpack.Decoder(list[int])
    assert dec.decode(enc([1, 2])) == [1, 2]
    assert dec.decode(bytearray(enc([3]))) == [3]
    assert dec.decode(memoryview(enc([4]))) == [4]
    assert dec.type == list[int] and dec.strict is True and dec.dec_hook is None and dec.ext_hook is None
    assert bmsgpack.Decoder().type is Any
    assert bmsgpack.Decoder[int] is not None
    with pytest.raises(TypeError):
        dec.decode("str")
    with pytest.raises(TypeError, match="ext_hook must be callable"):
        bmsgpack.Decoder(ext_hook=1)
    with pytest.raises(TypeError, match="dec_hook must be callable"):
        bmsgpack.decode(b"\x01", dec_hook=1)


def test_ext_type():
    e = bmsgpack.Ext(1, b"ab")
    import pickle

    assert pickle.loads(pickle.dumps(e)) == e
    assert e != bmsgpack.Ext(2, b"ab") and e != bmsgpack.Ext(1, b"ac") and e != 1
    assert e.code == 1 and e.data == b"ab"
    with pytest.raises(TypeError):
        hash(e)
    with pytest.raises(AttributeError):
        e.code = 3
    for args, kwargs in [((1,), {}), ((), {"code": 1, "data": b""}), (("a", b""), {}), ((200, b""), {}), ((1, "s"), {})]:
        with pytest.raises(Exception) as ours:
            bmsgpack.Ext(*args, **kwargs)
        with pytest.raises(Exception) as theirs:
            msgspec.msgpack.Ext(*args, **kwargs)
        assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))


# Inputs the Python-level fuzzing of fuzz/python/msgpack_checks.py found disagreeing with msgspec (now fixed):
# errors inside (nested) map keys, nil as a tag or key, invalid UTF-8 for str-like kinds, lax bytes, a repeated
# tag inside a union member.
FOUND_UNTYPED = [
    "00819201d5ffc1056162", "008192d5ff056162", "008192010281d5ff0561ae", "008192678102d5ff056162",
    "8081c70cff000000000000cb0100000000", "0083a1619287cb3ff80000000000a162c4026869a163d4ff5e0be100",
    "0081929d02d5ff616281", "008192910199d5ff056162", "b0818d0102d5fff36162", "008192018fd5ff056108bf55",
    "00819201810281d5ff056162",
]


@pytest.mark.parametrize("hexdata", FOUND_UNTYPED)
def test_found_untyped(hexdata):
    check_untyped(bytes.fromhex(hexdata)[1:])


FOUND_TYPED = [
    ("CD", False, "92" "82a474797065c0a3636182a46e616d65a3746f"),
    ("CD", False, "92" "82a474797065a3636174a46e616d65a3746f6d82c0a46e616d65"),
    ("CD", False, "92" "8fa474797065a3636174a46e616d65a4746fc982a46e616d65a3726578a474797065a3646f67"),
    ("CD", False, "91" "83a474797065a163a178a178a474797065a164"),
    ("datetime", True, "b4323032342d30312d30325430333a3081343a30355a"),
    ("uuid", True, "a4" "81818181"),
    ("Optional[bytes]", True, "a173"),
    ("Optional[bytes]", True, "a1c4"),
    ("Optional[bytes]", True, "a46e756c6c"),
]


def _found_type(name, lib):
    mod = OURS if lib is boltwire else THEIRS
    return {"CD": list[mod.CD], "datetime": datetime.datetime, "uuid": uuid.UUID,
            "Optional[bytes]": Optional[bytes]}[name]


@pytest.mark.parametrize("name,lax,hexdata", FOUND_TYPED)
def test_found_typed(name, lax, hexdata):
    check(lambda lib: _found_type(name, lib), bytes.fromhex(hexdata), strict=not lax)
