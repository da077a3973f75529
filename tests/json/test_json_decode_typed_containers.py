"""Typed decoding of containers (list, tuple, set, frozenset, dict and their key types, collections.abc types)
compared with msgspec, including error paths like `$[1]` and `$[...]` and "`key` in `$`"."""

import collections.abc as cabc
import datetime
import decimal
import enum
import typing
import uuid

import pytest

from typed_decode_diff import check_type


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Num(enum.IntEnum):
    ONE = 1
    TWO = 2


LIST_INPUTS = [b"[]", b"[1]", b"[1,2,3]", b" [ 1 , 2 ] ", b'[1,"a"]', b"[1,2,", b"[1,,2]", b"[,]", b"[1 2]",
               b"null", b"{}", b'"abc"', b"[[1]]", b"[1.0]", b"[true]", b"[" + b"1," * 1000 + b"1]"]


@pytest.mark.parametrize(
    "tp",
    [list, list[int], list[str], list[typing.Any], typing.List[int], cabc.Sequence[int], cabc.MutableSequence[int],
     cabc.Collection[int], cabc.Iterable[int], tuple, tuple[int, ...], tuple[int], tuple[int, int],
     tuple[int, str], tuple[()], typing.Tuple[int, int, int], set[int], frozenset[int], set, frozenset,
     cabc.Set[int], cabc.MutableSet[int], list[list[int]], list[int | None], list[float]],
    ids=repr,
)
@pytest.mark.parametrize("buf", LIST_INPUTS, ids=lambda b: repr(b[:30]))
def test_sequences_match_msgspec(tp, buf):
    check_type(tp, buf)


SET_INPUTS = [b"[1,1,2]", b"[[1],[1]]", b'["a","a"]', b"[1, 1.0]"]


@pytest.mark.parametrize("tp", [set, frozenset, set[int], frozenset[str], set[tuple[int, ...]], set[list[int]]],
                         ids=repr)
@pytest.mark.parametrize("buf", SET_INPUTS, ids=repr)
def test_sets_match_msgspec(tp, buf):
    check_type(tp, buf)


DICT_INPUTS = [
    b"{}", b'{"a":1}', b'{"a":1,"b":2}', b'{"a":1,"a":2}', b'{"1":1,"-2":2}', b'{"01":1}', b'{"1.5":1}',
    b'{"x":1}', b'{"red":1}', b'{"blue":1}', b'{"2":1}', b'{"3":"x"}', b'{"a":"x"}', b'{"a":null}',
    b'{"c1c2a1d4-8a4c-4a3e-9b1a-1f0e2d3c4b5a":1}', b'{"2020-01-01":1}', b'{"2020-01-01T00:00:00Z":1}',
    b'{"a":1,}', b'{"a" 1}', b'{"a":1 "b":2}', b"{1:2}", b'{"a":}', b"[]", b"null", b'{"":1}',
    b'{"9223372036854775808":1}', b'{"18446744073709551616":1}', b'{"true":1}', b'{"null":1}',
    b'{"\\u0061":1}', b'{"a":1', b'{"a"', b"{",
]


@pytest.mark.parametrize(
    "tp",
    [dict, dict[str, int], dict[str, typing.Any], dict[int, int], dict[int, str], dict[Color, int], dict[Num, int],
     dict[uuid.UUID, int], dict[datetime.date, int], dict[datetime.datetime, int], dict[str, list[int]],
     dict[typing.Literal["a", "b"], int], dict[typing.Literal[1, 2], int], dict[float, int],
     dict[decimal.Decimal, int], dict[bytes, int], typing.Dict[str, int], cabc.Mapping[str, int],
     cabc.MutableMapping[str, int], dict[str, dict[str, int]], dict[bool, int], dict[typing.NewType("K", str), int],
     dict[str | None, int], dict[tuple[int, int], int], dict[frozenset[int], int], dict[datetime.timedelta, int]],
    ids=repr,
)
@pytest.mark.parametrize("buf", DICT_INPUTS, ids=repr)
def test_dicts_match_msgspec(tp, buf):
    check_type(tp, buf)


@pytest.mark.parametrize(
    "tp, buf",
    [
        (list[int], b'[1, 2, "x"]'),
        (list[list[int]], b'[[1], [2, "x"]]'),
        (tuple[int, str], b'[1, 2]'),
        (tuple[int, str], b'[1, "a", 3]'),
        (tuple[int, str], b'[1]'),
        (tuple[int, ...], b'[1, null]'),
        (dict[str, int], b'{"a": 1, "b": "x"}'),
        (dict[str, list[int]], b'{"a": [1, "x"]}'),
        (dict[int, int], b'{"x": 1}'),
        (dict[Color, int], b'{"blue": 1}'),
        (list[dict[str, list[float]]], b'[{}, {"k": [1.5, true]}]'),
        (set[int], b'[1, "x"]'),
        (frozenset[Color], b'["red", "nope"]'),
        (dict[str, dict[str, tuple[int, int]]], b'{"a": {"b c": [1, "z"]}}'),
        (dict[str, int], b'{"we`ird": "x"}'),
        (dict[str, int], b'{"\\u00e9": "x"}'),
    ],
    ids=repr,
)
def test_error_paths_match_msgspec(tp, buf):
    out = check_type(tp, buf)
    assert out[0] == "error"


def test_long_and_nested_lists():
    check_type(list[int], b"[" + b",".join(str(i).encode() for i in range(10000)) + b"]")
    check_type(list[list[list[int]]], b"[[[1,2],[3]],[[4]],[]]")
    check_type(list[str], b'["' + b'","'.join(b"x" * i for i in range(200)) + b'"]')


@pytest.mark.parametrize(
    "tp, buf, message",
    [
        (list[int], b'[1, "x"]', "Expected `int`, got `str` - at `$[1]`"),
        (dict[str, int], b'{"a": "x"}', "Expected `int`, got `str` - at `$[...]`"),
        (dict[int, int], b'{"x": 1}', "Expected `int`, got `str` - at `key` in `$`"),
        (dict[str, dict[int, str]], b'{"a": {"b": "c"}}', "Expected `int`, got `str` - at `key` in `$[...]`"),
        (list[dict[str, list[int]]], b'[{"a": [1, null]}]', "Expected `int`, got `null` - at `$[0][...][1]`"),
        (tuple[int, str], b"[1]", "Expected `array` of length 2"),
        (list[tuple[int, str]], b'[[1, "a"], [1, "a", 2]]', "Expected `array` of length 2 - at `$[1]`"),
    ],
    ids=repr,
)
def test_exact_error_messages(tp, buf, message):
    out = check_type(tp, buf)
    assert out == ("error", "ValidationError", message)
