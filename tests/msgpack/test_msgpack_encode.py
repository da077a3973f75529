"""msgpack.encode / Encoder: byte-for-byte msgspec.msgpack's output for every kind of value and option."""

import dataclasses
import datetime
import decimal
import enum
import uuid
from typing import Optional

import msgspec
import pytest
from msgpack_diff import check_encode, module_with, twin_value

import boltwire
from boltwire import msgpack as bmsgpack

UTC = datetime.timezone.utc

SCALARS = [
    0, 1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -1, -32, -33,
    -128, -129, -32768, -32769, -(2**31), -(2**31) - 1, -(2**63), -(2**63) - 1, 10**30,
    0.0, -0.0, 1.5, 1e300, float("inf"), float("-inf"), float("nan"),
    "", "a", "x" * 31, "x" * 32, "x" * 255, "x" * 256, "x" * 65535, "x" * 65536, "é" * 20, "\U0001f600", "\ud800",
    b"", b"ab", b"x" * 256, b"x" * 65536, bytearray(b"ab"), memoryview(b"abc"),
    None, True, False,
]

CONTAINERS = [
    [], [1, "a"], list(range(15)), list(range(16)), list(range(65536)), (), (1, 2), {}, {"a": 1},
    {str(i): i for i in range(16)}, {1: 2, (1, 2): 3, None: 4, 1.5: 5, b"k": 6}, {1, 2, 3}, frozenset({"a"}),
    [[[]]], {"a": [{"b": (1, 2.5, None)}]},
]

DATETIMES = [
    datetime.datetime(2020, 1, 1),
    datetime.datetime(2020, 1, 1, 1, 2, 3, 456789),
    datetime.datetime(2020, 1, 1, tzinfo=UTC),
    datetime.datetime(2020, 1, 1, 0, 0, 0, 5, tzinfo=UTC),
    datetime.datetime(1970, 1, 1, tzinfo=UTC),
    datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    datetime.datetime(1900, 1, 1, tzinfo=UTC),
    datetime.datetime(2106, 2, 7, 6, 28, 15, tzinfo=UTC),
    datetime.datetime(2106, 2, 7, 6, 28, 16, tzinfo=UTC),
    datetime.datetime(2514, 5, 30, 1, 53, 3, tzinfo=UTC),
    datetime.datetime(2514, 5, 30, 1, 53, 4, 1, tzinfo=UTC),
    datetime.datetime(1, 1, 1, tzinfo=UTC),
    datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=5, minutes=30))),
    datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=-8))),
    datetime.date(2020, 1, 2),
    datetime.time(1, 2, 3),
    datetime.time(1, 2, 3, 4, tzinfo=UTC),
    datetime.timedelta(1, 2, 3),
    datetime.timedelta(-1),
    datetime.timedelta(0),
]


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    LOW = 1


SPECIAL = [uuid.UUID(int=5), uuid.uuid4(), decimal.Decimal("1.5"), decimal.Decimal("-0"), Color.RED, Level.LOW,
           boltwire.Raw(b"\x93\x01\x02\x03"), object(), boltwire.UNSET, 1j]


@pytest.mark.parametrize("value", SCALARS + CONTAINERS + DATETIMES + SPECIAL,
                         ids=lambda v: type(v).__name__ + ":" + repr(v)[:20])
def test_values_encode_like_msgspec(value):
    theirs = value
    if isinstance(value, boltwire.Raw):
        theirs = msgspec.Raw(bytes(value))
    elif value is boltwire.UNSET:
        theirs = msgspec.UNSET
    check_encode(value, theirs)


@pytest.mark.parametrize("code,size", [(5, 0), (5, 1), (-5, 2), (0, 3), (127, 4), (-128, 8), (1, 16), (1, 17),
                                       (1, 255), (1, 256), (1, 65536)])
def test_ext_encodes_like_msgspec(code, size):
    data = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    out = check_encode(bmsgpack.Ext(code, data), msgspec.msgpack.Ext(code, data))
    assert out.endswith(data)
    check_encode([bmsgpack.Ext(code, bytearray(data))], twin_value([bmsgpack.Ext(code, bytearray(data))]))


SOURCE = """
import dataclasses
from typing import Optional

class Point(lib.Struct):
    x: int
    y: float = 0.0

class Tagged(lib.Struct, tag=True):
    a: int

class IntTagged(lib.Struct, tag=7, tag_field="kind"):
    a: int

class Row(lib.Struct, array_like=True):
    a: int
    b: str = "z"

class TaggedRow(lib.Struct, array_like=True, tag="row"):
    a: int

class Sparse(lib.Struct, omit_defaults=True):
    a: int = 0
    b: list = []
    c: Optional[str] = None
    d: dict = lib.field(default_factory=dict)

class Renamed(lib.Struct, rename="camel"):
    field_one: int
    field_two: str = lib.field(name="second")

class Maybe(lib.Struct):
    a: int = 1
    b: int = lib.UNSET

@dataclasses.dataclass
class DC:
    a: int
    b: str = "x"

class Many(lib.Struct):
    f0: int = 0
    f1: int = 1
    f2: int = 2
    f3: int = 3
    f4: int = 4
    f5: int = 5
    f6: int = 6
    f7: int = 7
    f8: int = 8
    f9: int = 9
    f10: int = 10
    f11: int = 11
    f12: int = 12
    f13: int = 13
    f14: int = 14
    f15: int = 15
"""

OURS = module_with(boltwire, SOURCE)
THEIRS = module_with(msgspec, SOURCE)

STRUCT_VALUES = [
    ("Point", (1,), {}), ("Point", (1, 2.5), {}), ("Tagged", (1,), {}), ("IntTagged", (1,), {}), ("Row", (1,), {}),
    ("TaggedRow", (1,), {}), ("Sparse", (), {}), ("Sparse", (1, [1], "c", {"k": 1}), {}), ("Renamed", (1, "s"), {}),
    ("Maybe", (), {}), ("Maybe", (1, 2), {}), ("DC", (1,), {}), ("Many", (), {}),
]


@pytest.mark.parametrize("order", [None, "deterministic", "sorted"])
@pytest.mark.parametrize("name,args,kwargs", STRUCT_VALUES, ids=[f"{n}{a}" for n, a, _ in STRUCT_VALUES])
def test_structs_and_dataclasses_encode_like_msgspec(name, args, kwargs, order):
    ours = getattr(OURS, name)(*args, **kwargs)
    theirs = getattr(THEIRS, name)(*args, **kwargs)
    check_encode(ours, theirs, order=order)
    check_encode([ours, {"k": ours}], [theirs, {"k": theirs}], order=order)


@pytest.mark.parametrize("order", ["deterministic", "sorted"])
def test_order_sorts_dicts_and_sets(order):
    check_encode({"b": 1, "a": {"d": 2, "c": {3, 1, 2}}, "é": 0, "Z": None}, order=order)
    check_encode({1: 2}, order=order)  # non-str keys are refused under an order
    check_encode(frozenset({"b", "a"}), order=order)


def test_enc_hook_and_its_errors():
    check_encode(1j, enc_hook=lambda z: [z.real, z.imag])
    check_encode(object(), enc_hook=lambda o: 1 / 0)
    check_encode({"a": 1j}, enc_hook=str)
    check_encode(1, enc_hook=1)


@pytest.mark.parametrize(
    "options",
    [{}, {"uuid_format": "hex"}, {"uuid_format": "bytes"}, {"decimal_format": "number"},
     {"decimal_format": str}, {"decimal_format": lambda d: [str(d)]}, {"order": "sorted"}],
    ids=repr,
)
def test_encoder_options(options):
    value = [uuid.UUID(int=12345), decimal.Decimal("1.25"), {"b": 1, "a": 2}]
    ours = bmsgpack.Encoder(**options)
    theirs = msgspec.msgpack.Encoder(**options)
    assert ours.encode(value) == theirs.encode(value)
    for attr in ("uuid_format", "order"):
        assert getattr(ours, attr) == getattr(theirs, attr)
    assert ours.decimal_format == theirs.decimal_format


@pytest.mark.parametrize(
    "options",
    [{"uuid_format": "x"}, {"decimal_format": "x"}, {"order": "x"}, {"enc_hook": 1}, {"bogus": 1}],
    ids=repr,
)
def test_encoder_option_errors(options):
    with pytest.raises(Exception) as ours:
        bmsgpack.Encoder(**options)
    with pytest.raises(Exception) as theirs:
        msgspec.msgpack.Encoder(**options)
    assert type(ours.value) is type(theirs.value)
    if "bogus" not in options:
        assert str(ours.value) == str(theirs.value)


def test_non_finite_decimal_as_number():
    value = decimal.Decimal("nan")
    assert bmsgpack.Encoder(decimal_format="number").encode(value) == msgspec.msgpack.Encoder(
        decimal_format="number"
    ).encode(value)


@pytest.mark.parametrize("offset", [0, 2, 5, -1])
def test_encode_into(offset):
    ours_buf, theirs_buf = bytearray(b"xyz"), bytearray(b"xyz")
    value = {"a": [1, 2, "three"]}
    assert bmsgpack.Encoder().encode_into(value, ours_buf, offset) is None
    msgspec.msgpack.Encoder().encode_into(value, theirs_buf, offset)
    assert ours_buf == theirs_buf


def test_encode_into_errors():
    enc = bmsgpack.Encoder()
    with pytest.raises(TypeError, match="buffer must be a `bytearray`"):
        enc.encode_into(1, b"")
    with pytest.raises(ValueError, match="offset must be >= -1"):
        enc.encode_into(1, bytearray(), -2)
    with pytest.raises(TypeError, match="Encoding objects of type object is unsupported"):
        enc.encode_into([1, object()], bytearray(b"keep"))


def test_deep_nesting_is_a_recursion_error():
    value = []
    for _ in range(100_000):
        value = [value]
    with pytest.raises(RecursionError):
        bmsgpack.encode(value)


def test_encoder_attributes():
    enc = bmsgpack.Encoder()
    assert enc.enc_hook is None and enc.order is None
    assert enc.decimal_format == "string" and enc.uuid_format == "canonical"
    hook = str
    assert bmsgpack.Encoder(enc_hook=hook).enc_hook is hook


def test_subclasses_encode_as_their_base():
    class MyInt(int):
        pass

    class MyStr(str):
        pass

    class MyList(list):
        pass

    class MyDict(dict):
        pass

    # Containers encode as their base; int / str subclasses are refused (msgspec's msgpack rule) unless enc_hook.
    check_encode([MyList([1]), MyDict(a=1), (MyList(),)])
    check_encode(MyInt(5))
    check_encode(MyStr("s"))
    check_encode([MyInt(5), MyStr("s")], enc_hook=lambda v: ["hooked", type(v).__base__.__name__])
    check_encode(Optional)


@pytest.mark.parametrize("n_fields", [3, 15, 16, 17])
@pytest.mark.parametrize("unset", [(), (0,), (1, 2), "all"])
@pytest.mark.parametrize("tagged", [False, True])
def test_struct_with_unset_fields_patches_the_map_count(n_fields, unset, tagged):
    """UNSET fields are skipped in the one pass and the map's pair count is patched afterwards, in the header form
    chosen for the full field count (a map16 stays a map16 below 16 pairs), byte for byte as msgspec writes it."""
    def build(lib):
        fields = [(f"f{i}", int | lib.UnsetType, lib.UNSET) for i in range(n_fields)]
        cls = lib.defstruct("Wide", fields, tag=tagged or None)
        gone = range(n_fields) if unset == "all" else unset
        return cls(**{f"f{i}": (lib.UNSET if i in gone else i) for i in range(n_fields)})

    ours, theirs = bmsgpack.encode(build(boltwire)), msgspec.msgpack.encode(build(msgspec))
    assert ours == theirs
    assert bmsgpack.decode(ours) == msgspec.msgpack.decode(theirs)
