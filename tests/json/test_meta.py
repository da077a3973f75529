"""boltwire.Meta: arguments, checks and messages as msgspec.Meta; immutability, equality, hash, repr; validator."""

from __future__ import annotations

import copy
import pickle
import re
from typing import Annotated

import pytest

import boltwire
from boltwire import Meta

msgspec = pytest.importorskip("msgspec")

ALL_FIELDS = [
    "gt",
    "ge",
    "lt",
    "le",
    "multiple_of",
    "pattern",
    "min_length",
    "max_length",
    "tz",
    "title",
    "description",
    "examples",
    "extra_json_schema",
    "extra",
]


class IntSub(int):
    pass


class StrSub(str):
    pass


class ListSub(list):
    pass


class DictSub(dict):
    pass


VALID = [
    {},
    {"gt": 1},
    {"ge": -2.5},
    {"lt": 2**70},
    {"le": 0},
    {"gt": 1.5, "lt": 2},
    {"ge": 5, "le": 1},  # msgspec does not compare bounds with each other
    {"multiple_of": 2.5},
    {"multiple_of": 3},
    {"pattern": "a+"},
    {"pattern": "a'b"},
    {"min_length": 0, "max_length": 0},
    {"min_length": 3, "max_length": 1},
    {"max_length": 2**63 - 1},
    {"tz": True},
    {"tz": False, "pattern": "x", "min_length": 1},
    {"title": ""},
    {"description": "d"},
    {"examples": []},
    {"examples": [1, "a"]},
    {"extra_json_schema": {}},
    {"extra_json_schema": {"x": 1}},
    {"extra": {1: 2}},
    {"gt": 1, "title": "x", "examples": [2], "extra_json_schema": {"a": 1}, "extra": {"b": 2}},
    {"gt": 1, "ge": None, "lt": None, "tz": None},
]

INVALID = [
    {"gt": True},
    {"gt": "a"},
    {"ge": IntSub(1)},
    {"lt": None, "le": [1]},
    {"gt": float("nan")},
    {"lt": float("inf")},
    {"le": -float("inf")},
    {"gt": 1, "ge": 2},
    {"lt": 1, "le": 2},
    {"multiple_of": 0},
    {"multiple_of": -1},
    {"multiple_of": -0.5},
    {"multiple_of": "x"},
    {"multiple_of": True},
    {"multiple_of": float("nan")},
    {"multiple_of": float("inf")},
    {"pattern": 1},
    {"pattern": StrSub("a")},
    {"min_length": -1},
    {"min_length": 1.0},
    {"min_length": True},
    {"min_length": IntSub(1)},
    {"max_length": -1},
    {"max_length": 2**63},
    {"min_length": 2**70},
    {"gt": 1, "min_length": 1},
    {"gt": 1, "pattern": "x"},
    {"multiple_of": 2, "max_length": 3},
    {"tz": False, "gt": 1},
    {"tz": 1},
    {"title": 1},
    {"description": b"x"},
    {"examples": (1,)},
    {"examples": ListSub([1])},
    {"extra_json_schema": []},
    {"extra": []},
    {"extra": DictSub()},
]


@pytest.mark.parametrize("kwargs", VALID, ids=repr)
def test_valid_arguments_match_msgspec(kwargs):
    ours, theirs = Meta(**kwargs), msgspec.Meta(**kwargs)
    for name in ALL_FIELDS:
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.validator is None
    assert repr(ours) == repr(theirs).replace("msgspec.Meta", "boltwire.Meta")
    assert ours.__rich_repr__() == theirs.__rich_repr__()


@pytest.mark.parametrize("kwargs", INVALID, ids=repr)
def test_invalid_arguments_raise_as_msgspec(kwargs):
    with pytest.raises(Exception) as theirs:
        msgspec.Meta(**kwargs)
    with pytest.raises(type(theirs.value)) as ours:
        Meta(**kwargs)
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


def test_bad_pattern_raises_re_error():
    with pytest.raises(re.error):
        Meta(pattern="[")


def test_no_positional_or_unknown_arguments():
    with pytest.raises(TypeError):
        Meta(1)
    with pytest.raises(TypeError, match="foo"):
        Meta(foo=1)


def test_immutable():
    m = Meta(gt=1, title="t")
    for name in ALL_FIELDS + ["validator"]:
        with pytest.raises(AttributeError, match="readonly attribute"):
            setattr(m, name, 2)
        with pytest.raises(AttributeError, match="readonly attribute"):
            delattr(m, name)
    with pytest.raises(AttributeError, match="no attribute 'foo'"):
        m.foo = 1
    assert m.gt == 1 and m.title == "t"
    assert not hasattr(m, "__dict__")


def test_not_subclassable():
    with pytest.raises(TypeError, match="not an acceptable base type"):

        class Sub(Meta):  # noqa: F841
            pass


def test_equality_over_all_fields():
    assert Meta() == Meta()
    assert Meta(gt=1) == Meta(gt=1)
    assert Meta(gt=1) == Meta(gt=1.0)
    assert Meta(gt=1) != Meta(ge=1)
    assert Meta(title="a") != Meta(title="b")
    assert Meta(examples=[1]) != Meta(examples=[2])
    assert Meta(extra={"a": 1}) == Meta(extra={"a": 1})
    assert Meta(extra={"a": 1}) != Meta(extra={"a": 2})
    assert Meta(extra_json_schema={"a": 1}) != Meta()
    assert Meta(gt=1) != 1
    assert Meta().__eq__(msgspec.Meta()) is NotImplemented
    with pytest.raises(TypeError):
        Meta(gt=1) < Meta(gt=2)  # noqa: B015


def test_hash_consistent_with_equality_and_ignores_unhashable_fields():
    assert hash(Meta(gt=1)) == hash(Meta(gt=1))
    assert hash(Meta(gt=1)) == hash(Meta(gt=1.0))
    # examples / extra_json_schema / extra are lists and dicts: like msgspec, they are left out of the hash.
    assert hash(Meta(examples=[1])) == hash(Meta())
    assert hash(Meta(extra={"a": [1]}, extra_json_schema={"b": {}})) == hash(Meta())
    assert len({Meta(gt=1), Meta(gt=1), Meta(lt=1), Meta(title="x")}) == 3


def test_copy_and_pickle_round_trip():
    m = Meta(ge=0, title="n", examples=[1], extra={"k": 1})
    assert copy.copy(m) is m
    assert copy.deepcopy(m) is m
    back = pickle.loads(pickle.dumps(m))
    assert back == m and type(back) is Meta


def test_validator_argument():
    def check(x):
        return None

    m = Meta(ge=0, validator=check)
    assert m.validator is check
    assert repr(m) == f"boltwire.Meta(ge=0, validator={check!r})"
    assert m == Meta(ge=0, validator=check)
    assert m != Meta(ge=0)
    assert m != Meta(ge=0, validator=len)
    assert hash(m) == hash(Meta(ge=0, validator=check))
    # Any callable, with any other constraint kind.
    assert Meta(pattern="a", validator=str.isupper).validator is str.isupper
    with pytest.raises(TypeError, match="`validator` must be callable, got int"):
        Meta(validator=1)

    class UnhashableCheck:
        __hash__ = None

        def __call__(self, value):
            return None

    unhashable = UnhashableCheck()
    assert hash(Meta(validator=unhashable)) == hash(Meta(validator=unhashable))


def test_exported_and_usable_in_annotated():
    assert boltwire.Meta is Meta
    assert "Meta" in boltwire.__all__
    assert Meta.__module__ == "boltwire" and Meta.__name__ == "Meta"
    alias = Annotated[int, Meta(ge=0)]
    assert alias.__metadata__ == (Meta(ge=0),)
    assert Meta.__doc__ and "validator" in Meta.__doc__
