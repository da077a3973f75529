"""convert() on scalar targets: every scalar type against every kind of scalar input, strict and lax,
compared with msgspec.convert (same value, or same exception type and message)."""

import datetime
import decimal
import enum
import uuid
from typing import Annotated, Any, Final, Literal, NewType, Optional, Union

import pytest

from _convert_diff import assert_same

UTC = datetime.timezone.utc
PLUS2 = datetime.timezone(datetime.timedelta(hours=2))


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Num(enum.IntEnum):
    ONE = 1
    TWO = 2


class Mixed(enum.Enum):
    A = 1
    B = "b"


class Perm(enum.IntFlag):
    R = 4
    W = 2


class Strs(str, enum.Enum):
    X = "x"
    Y = "y"


UserId = NewType("UserId", int)
Name = NewType("Name", str)
NestedId = NewType("NestedId", UserId)


class Level(enum.StrEnum):
    LOW = "low"
    HIGH = "high"


class Bits(enum.Flag):
    A = 1
    B = 2

TARGETS = [
    Any,
    type(None),
    bool,
    int,
    float,
    str,
    bytes,
    bytearray,
    memoryview,
    datetime.datetime,
    datetime.date,
    datetime.time,
    datetime.timedelta,
    uuid.UUID,
    decimal.Decimal,
    Color,
    Num,
    Mixed,
    Strs,
    Perm,
    Literal["a", "b"],
    Literal[1, 2, 3],
    Literal["a", 1],
    Literal[None, "x"],
    UserId,
    Name,
    NestedId,
    Level,
    Bits,
    Final[int],
    Annotated[int, "just metadata"],
    Annotated[Optional[str], "x"],
    Optional[int],
    Optional[str],
    Union[int, str],
    Union[int, float],
    Union[float, str],
    Union[bool, int],
    Union[int, datetime.datetime],
    Union[str, datetime.date],
    Union[uuid.UUID, int],
    Union[bytes, str],
    Union[None, bool, int, float, str],
    Union[Color, int],
    Union[Num, str],
    Union[Literal["a"], int],
]

INPUTS = [
    None,
    True,
    False,
    0,
    1,
    2,
    -1,
    3,
    2**63,
    -(2**63) - 1,
    2**64,
    10**30,
    0.0,
    -0.0,
    1.0,
    1.5,
    -2.5,
    1e300,
    float("inf"),
    float("-inf"),
    float("nan"),
    1e16,
    "",
    "a",
    "b",
    "x",
    "red",
    "RED",
    "1",
    "-1",
    "1.5",
    "1e3",
    "nan",
    "inf",
    "true",
    "false",
    "null",
    " 1",
    "0x10",
    "1_000",
    "2021-01-02",
    "2021-01-02T03:04:05",
    "2021-01-02T03:04:05Z",
    "2021-01-02T03:04:05.123456+02:00",
    "2021-01-02T03:04:05.1234567Z",
    "2021-01-02 03:04:05Z",
    "2021-13-02",
    "03:04:05",
    "03:04:05.5Z",
    "25:00:00",
    "P1D",
    "PT1.5S",
    "-P1DT2H",
    "P1Y",
    "c0a80164-0000-4000-8000-00000000000a",
    "C0A80164-0000-4000-8000-00000000000A",
    "c0a8016400004000800000000000000a",
    "not-a-uuid",
    "1.10",
    "1e-7",
    "Infinity",
    "aGVsbG8=",
    "aGVsbG8",
    "%%%",
    b"",
    b"hello",
    b"0123456789abcdef",
    "1e400",
    "-0",
    "00",
    bytearray(b"ab"),
    memoryview(b"mv"),
    datetime.datetime(2021, 1, 2, 3, 4, 5),
    datetime.datetime(2021, 1, 2, 3, 4, 5, tzinfo=UTC),
    datetime.datetime(2021, 1, 2, 3, 4, 5, tzinfo=PLUS2),
    datetime.date(2021, 1, 2),
    datetime.time(3, 4, 5),
    datetime.time(3, 4, 5, tzinfo=UTC),
    datetime.timedelta(days=1, seconds=5),
    uuid.UUID("c0a80164-0000-4000-8000-00000000000a"),
    decimal.Decimal("1.25"),
    decimal.Decimal("3"),
    decimal.Decimal("nan"),
    Color.RED,
    Num.ONE,
    Mixed.B,
    Strs.X,
    Perm.R,
    Level.LOW,
    "low",
    "LOW",
    Bits.A,
    [],
    [1],
    (),
    {},
    {"a": 1},
    set(),
    frozenset(),
    object(),
    complex(1, 2),
]


def _id(v):
    r = repr(v)
    return r if len(r) < 40 else r[:37] + "..."


@pytest.mark.parametrize("target", TARGETS, ids=_id)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_scalar_matrix(target, strict):
    # One test per (target, mode) walking every input keeps the count sane while covering the whole matrix;
    # all mismatches are gathered so one failure shows every differing input.
    from _convert_diff import both

    mismatches = []
    for value in INPUTS:
        got, want = both(target, value, strict=strict)
        if got != want:
            mismatches.append(f"input={value!r}: boltwire={got!r} msgspec={want!r}")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize(
    "target,value",
    [
        (int, True),
        (float, 1),
        (float, 2**70),
        (int, 1.0),
        (str, b"x"),
        (bytes, "aGk="),
        (bytearray, "aGk="),
        (memoryview, "aGk="),
        (bool, 1),
        (datetime.datetime, "2021-01-02T03:04:05Z"),
        (datetime.datetime, 1609556645),
        (datetime.datetime, 1609556645.5),
        (datetime.timedelta, 90),
        (datetime.timedelta, 1.5),
        (decimal.Decimal, 1.1),
        (decimal.Decimal, 7),
        (float, decimal.Decimal("1.5")),
        (int, decimal.Decimal("1")),
        (Color, "red"),
        (Color, "blue"),
        (Num, 1),
        (Num, 7),
        (Num, "1"),
        (Literal["a", "b"], "c"),
        (Literal[1, 2], 3),
    ],
    ids=_id,
)
def test_scalar_spot(target, value):
    assert_same(target, value)
    assert_same(target, value, strict=False)


def test_passthrough_identity():
    import boltwire

    for value, target in [
        ("s", str),
        (10**40, int),
        (1.5, float),
        (b"x", bytes),
        (datetime.datetime(2020, 1, 1), datetime.datetime),
        (uuid.UUID(int=5), uuid.UUID),
        (decimal.Decimal("1.5"), decimal.Decimal),
        (Color.RED, Color),
        (Num.TWO, Num),
    ]:
        assert boltwire.convert(value, target) is value


class MyInt(int):
    pass


class MyStr(str):
    pass


class MyFloat(float):
    pass


class MyBytes(bytes):
    pass


@pytest.mark.parametrize(
    "target,value",
    [(int, MyInt(5)), (str, MyStr("q")), (float, MyFloat(2.5)), (float, MyInt(3)), (bytes, MyBytes(b"x")),
     (Color, MyStr("red")), (Num, MyInt(1)), (Literal["a"], MyStr("a"))],
    ids=_id,
)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_subclass_of_builtin_scalars(target, value, strict):
    assert_same(target, value, strict=strict)
