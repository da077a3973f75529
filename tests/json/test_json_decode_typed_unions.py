"""Typed decoding of Optional / Union (msgspec's union rules and the TypeErrors it raises for invalid unions),
Literal, Enum / IntEnum / StrEnum / Flag, NewType, Final and type aliases, compared with msgspec."""

import datetime
import decimal
import enum
import typing
import uuid
from typing import Final, Literal, NewType, Optional, TypeAlias, Union

import pytest

from typed_decode_diff import check_build_error, check_type


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 10
    NEG = -5


class Mode(enum.StrEnum):
    READ = "r"
    WRITE = "w"


class Perm(enum.Flag):
    R = 4
    W = 2
    X = 1


class IntPerm(enum.IntFlag):
    R = 4
    W = 2


class Mixed(enum.Enum):
    A = 1
    B = "b"


class BigInts(enum.Enum):
    BIG = 2**70
    SMALL = 3


class Empty(enum.Enum):
    pass


class FloatEnum(enum.Enum):
    A = 1.5


UserId = NewType("UserId", int)
Name = NewType("Name", str)
NestedNew = NewType("NestedNew", UserId)
ListAlias: TypeAlias = list[int]

INPUTS = [b"null", b"true", b"false", b"0", b"1", b"-5", b"10", b"4", b"7", b"3", b"2", b"1.5", b"1.0",
          b"1180591620717411303424", b'""', b'"red"', b'"RED"', b'"green"', b'"r"', b'"w"', b'"b"', b'"x"', b'"1"',
          b"[]", b"[1]", b'{"a":1}', b'"2020-01-01"', b'"c1c2a1d4-8a4c-4a3e-9b1a-1f0e2d3c4b5a"', b'"1.5"']

TYPES = [
    Optional[int], Union[int, None], int | None, Union[int, str], Union[int, float], Union[float, int],
    Union[bool, int], Union[str, bytes], Union[int, str, None], Union[list[int], dict[str, int]],
    Union[list[int], None, str], Union[int, list[str]], Union[datetime.date, int], Union[uuid.UUID, int],
    Union[decimal.Decimal, int], Union[str, datetime.datetime], Union[Color, int], Union[Color, Level],
    Union[Level, str], Union[Literal["a", "b"], int], Union[Literal[1, 2], str], Optional[Literal["red"]],
    Union[bool, None], Union[float, None], Union[typing.Any, int],
    Literal["red", "green"], Literal[1, 10, -5], Literal["a", 1], Literal["a", None], Literal[None],
    Literal[True] if False else Literal[1], Literal[Literal["x"], "y"], Literal[2**70, 3], Literal[""],
    Color, Level, Mode, Perm, IntPerm, Mixed, BigInts, UserId, Name, NestedNew, Final[int], ListAlias,
    Optional[UserId], list[Color], dict[str, Level],
]


@pytest.mark.parametrize("tp", TYPES, ids=repr)
@pytest.mark.parametrize("buf", INPUTS, ids=repr)
def test_unions_literals_enums_match_msgspec(tp, buf):
    check_type(tp, buf)


@pytest.mark.parametrize("tp", [Union[int, float, None], Union[bool, str], Union[int, str], Union[float, str],
                                Union[datetime.datetime, int], Union[Color, int], Level, Literal[1, 2],
                                Union[int, bool, None], Union[decimal.Decimal, float], Optional[datetime.date]],
                         ids=repr)
@pytest.mark.parametrize("buf", [b'"1"', b'"1.5"', b'"true"', b'"null"', b'"red"', b'"10"', b'"x"', b"1.0",
                                 b"1", b'"1e2"', b'"2020-01-01"', b"1577836800"], ids=repr)
def test_lax_unions_match_msgspec(tp, buf):
    check_type(tp, buf, strict=False)


INVALID = {
    "two_dicts": Union[dict[str, int], dict[str, str]],
    "two_lists": Union[list[int], tuple[int, ...]],
    "list_set": Union[list[int], set[int]],
    "two_strlike": Union[datetime.datetime, uuid.UUID],
    "str_and_date": Union[str, datetime.date] if False else Union[datetime.date, datetime.time],
    "two_enums_str": Union[Color, Mode],
    "enum_and_literal_str": Union[Color, Literal["x"]],
    "bytes_and_str_like": Union[bytes, datetime.datetime],
    "empty_enum": Empty,
    "float_enum": FloatEnum,
    "two_int_enums": Union[Level, IntPerm],
    "dict_and_typeddict": Union[dict, typing.TypedDict("TD", {"a": int})],
    "str_and_enum": Union[str, Color],
    "decimal_and_str": Union[decimal.Decimal, str],
    "timedelta_and_str": Union[datetime.timedelta, str],
}


@pytest.mark.parametrize("tp", list(INVALID.values()), ids=list(INVALID))
def test_invalid_unions_raise_same_error(tp):
    check_build_error(lambda lib: tp)


def test_literal_of_float_is_refused_like_msgspec():
    import msgspec

    from boltwire import json

    for bad in (Literal[1.5], Literal[b"x"]):
        with pytest.raises(TypeError) as theirs:
            msgspec.json.decode(b"1", type=bad)
        with pytest.raises(TypeError) as ours:
            json.decode(b"1", type=bad)
        assert str(ours.value) == str(theirs.value)


def test_enum_members_are_identical_objects():
    from boltwire import json

    assert json.decode(b'"red"', type=Color) is Color.RED
    assert json.decode(b"10", type=Level) is Level.HIGH
    assert json.decode(b'["r","w"]', type=list[Mode]) == [Mode.READ, Mode.WRITE]


def test_union_error_paths_match_msgspec():
    check_type(list[Union[int, str]], b'[1, "a", null]')
    check_type(dict[str, Optional[Color]], b'{"a": null, "b": "blue"}')
    check_type(dict[str, Literal["x", "y"]], b'{"k": "z"}')
    check_type(list[Level], b"[1, 10, 11]")


def test_union_of_int_and_int_newtype_collapses_like_msgspec():
    # msgspec accepts Union[int, UserId] (the NewType is an int): no TypeError.
    for buf in (b"1", b"null", b'"x"'):
        check_type(Union[int, UserId], buf)
