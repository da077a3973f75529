"""convert() into list / tuple / set / frozenset / fixed tuples / dicts, from every array-like input,
compared with msgspec.convert."""

import collections.abc
import datetime
import decimal
import enum
import typing
import uuid
from typing import Any, Dict, FrozenSet, List, Literal, Optional, Set, Tuple, Union

import pytest

import boltwire
from _convert_diff import both

UUID1 = uuid.UUID("c0a80164-0000-4000-8000-00000000000a")


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Num(enum.IntEnum):
    ONE = 1
    TWO = 2


ARRAY_TARGETS = [
    list,
    tuple,
    set,
    frozenset,
    List[int],
    list[str],
    List[Any],
    Tuple[int, ...],
    tuple[str, ...],
    Set[int],
    set[str],
    FrozenSet[int],
    frozenset[str],
    Tuple[int, str],
    Tuple[int, str, float],
    Tuple[()],
    tuple[int],
    List[List[int]],
    List[Tuple[int, int]],
    List[Optional[int]],
    List[Union[int, str]],
    Set[Tuple[int, str]],
    collections.abc.Sequence[int],
    collections.abc.MutableSequence[int],
    collections.abc.Set[int],
    collections.abc.MutableSet[int],
    typing.Sequence[int],
    typing.AbstractSet[int],
    List[uuid.UUID],
    List[datetime.date],
    List[Color],
    List[Literal[1, 2]],
]

ARRAY_INPUTS = [
    [],
    (),
    set(),
    frozenset(),
    [1, 2, 3],
    (1, 2, 3),
    {1, 2, 3},
    frozenset({1, 2}),
    [1, "a"],
    (1, "a"),
    [1, "a", 1.5],
    (1, "a", 1.5),
    ["a", "b"],
    ["a", 1],
    [1, None],
    [[1, 2], [3]],
    [[1, 2], [3, 4]],
    [(1, "a")],
    [[1, "a"], [2, "b"]],
    [1, 1],
    [1.5],
    [True],
    ["red", "blue"],
    ["green"],
    [1, 2, 7],
    [str(UUID1)],
    [UUID1],
    ["2021-01-02"],
    [datetime.date(2021, 1, 2)],
    [[1, 2], "x"],
    [[]],
    [{}],
    {"a": 1},
    "abc",
    b"abc",
    1,
    None,
    [[[1]]],
    list(range(20)),
]


def _id(v):
    r = repr(v)
    return r if len(r) < 40 else r[:37] + "..."


def _matrix(targets, inputs, **kw):
    mismatches = []
    for target in targets:
        for value in inputs:
            got, want = both(target, value, **kw)
            if got != want:
                mismatches.append(f"type={target!r} input={value!r}: boltwire={got!r} msgspec={want!r}")
    return mismatches


@pytest.mark.parametrize("target", ARRAY_TARGETS, ids=_id)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_array_matrix(target, strict):
    mismatches = _matrix([target], ARRAY_INPUTS, strict=strict)
    assert not mismatches, "\n".join(mismatches)


def test_list_result_is_new_list_and_tuple_is_tuple():
    src = [1, 2]
    out = boltwire.convert(src, List[int])
    assert out == [1, 2] and type(out) is list
    out = boltwire.convert([1, 2], Tuple[int, ...])
    assert out == (1, 2) and type(out) is tuple
    out = boltwire.convert((1, 2), Set[int])
    assert out == {1, 2} and type(out) is set
    out = boltwire.convert([1, 2], FrozenSet[int])
    assert out == frozenset({1, 2}) and type(out) is frozenset


def test_unhashable_items_into_set():
    for target, value in [(Set[Any], [[1]]), (Set[List[int]], [[1]]), (FrozenSet[Dict[str, int]], [{}])]:
        got, want = both(target, value)
        assert got == want


DICT_TARGETS = [
    dict,
    Dict[str, int],
    dict[str, Any],
    Dict[int, str],
    Dict[float, int],
    Dict[Color, int],
    Dict[Num, int],
    Dict[uuid.UUID, int],
    Dict[Literal["a", "b"], int],
    Dict[Literal[1, 2], int],
    Dict[datetime.date, int],
    Dict[datetime.datetime, int],
    Dict[decimal.Decimal, int],
    Dict[bool, int],
    Dict[bytes, int],
    Dict[Tuple[int, int], int],
    Dict[Union[int, str], int],
    Dict[str, List[int]],
    Dict[str, Dict[str, int]],
    collections.abc.Mapping[str, int],
    collections.abc.MutableMapping[str, int],
    typing.Mapping[str, int],
]

DICT_INPUTS = [
    {},
    {"a": 1},
    {"a": "x"},
    {"b": 2, "a": 1},
    {1: "x"},
    {1: 1},
    {"1": 1},
    {"-5": 1},
    {"1.5": 1},
    {1.5: 1},
    {"red": 1},
    {Color.RED: 1},
    {"one": 1},
    {Num.ONE: 1},
    {str(UUID1): 1},
    {UUID1: 1},
    {UUID1.hex: 1},
    {"2021-01-02": 1},
    {datetime.date(2021, 1, 2): 1},
    {"2021-01-02T03:04:05Z": 1},
    {"1.25": 1},
    {decimal.Decimal("1.25"): 1},
    {True: 1},
    {"true": 1},
    {b"k": 1},
    {(1, 2): 1},
    {None: 1},
    {"a": [1, 2]},
    {"a": [1, "x"]},
    {"a": {"b": 1}},
    {"a": {"b": "x"}},
    [("a", 1)],
    [],
    "a",
    None,
]


@pytest.mark.parametrize("target", DICT_TARGETS, ids=_id)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_dict_matrix(target, strict):
    mismatches = _matrix([target], DICT_INPUTS, strict=strict)
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("target", DICT_TARGETS, ids=_id)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_dict_matrix_str_keys(target, strict):
    mismatches = _matrix([target], DICT_INPUTS, strict=strict, str_keys=True)
    assert not mismatches, "\n".join(mismatches)


def test_dict_result_is_a_new_dict():
    src = {"a": 1}
    out = boltwire.convert(src, Dict[str, int])
    assert out == src and type(out) is dict


def test_dict_subclass_input():
    class D(dict):
        pass

    for target in (dict, Dict[str, int], Any):
        got, want = both(target, D(a=1))
        assert got == want


def test_list_and_tuple_subclass_input():
    class L(list):
        pass

    class T(tuple):
        pass

    for target in (List[int], Tuple[int, ...], Tuple[int, int], Set[int]):
        for value in (L([1, 2]), T((1, 2))):
            got, want = both(target, value)
            assert got == want, (target, value)


def test_generator_and_range_are_not_arrays():
    for target in (List[int], Tuple[int, ...], Set[int]):
        for value in (range(3), iter([1]), (i for i in [1]), b"ab", bytearray(b"ab")):
            got, want = both(target, value)
            assert got == want, (target, value)


def test_dict_views_are_not_arrays():
    d = {"a": 1}
    for target in (List[str], Tuple[str, ...], Set[str]):
        for value in (d.keys(), d.values(), d.items()):
            got, want = both(target, value)
            assert got == want, (target, value)


@pytest.mark.parametrize(
    "value",
    [
        {"counts": {"1": 2}, "ids": {"c0a80164-0000-4000-8000-00000000000a": "x"}},
        {"counts": {"x": 2}},
        {"counts": {"1": "2"}},
        {"ids": {"nope": "x"}},
        {"levels": {"1": [1]}},
        {"levels": {"3": [1]}},
    ],
)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_str_keys_inside_struct_fields(value, strict):
    def make(lib):
        class Holder(lib.Struct):
            counts: Dict[int, int] = {}
            ids: Dict[uuid.UUID, str] = {}
            levels: Dict[Num, List[int]] = {}

        return Holder

    got, want = both(make, value, str_keys=True, strict=strict)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"
