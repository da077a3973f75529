"""convert() with Annotated[..., Meta(...)] constraints (every bound, on every kind that takes it), compared with
msgspec.convert; plus boltwire's own Meta(validator=...)."""

import datetime
from typing import Annotated, Any, Dict, FrozenSet, List, Optional, Set, Tuple, Union

import pytest

import boltwire
from _convert_diff import both, factory

UTC = datetime.timezone.utc


def A(tp, **meta):
    """A per-library Annotated[tp, lib.Meta(**meta)] factory."""

    def make(lib):
        return Annotated[tp, lib.Meta(**meta)]

    make.__qualname__ = f"{getattr(tp, '__name__', tp)}{meta}"
    return make


CASES = [
    (A(int, gt=0), [0, 1, -1, 2**70, True, 1.0, "1"]),
    (A(int, ge=0), [0, -1, 5]),
    (A(int, lt=10), [9, 10, 11, 2**70]),
    (A(int, le=10), [10, 11]),
    (A(int, ge=-5, le=5), [-6, -5, 5, 6, 0]),
    (A(int, multiple_of=3), [0, 3, 4, -9, 2**70, 3 * 2**70]),
    (A(int, gt=2**64), [2**64, 2**64 + 1]),
    (A(float, gt=0), [0.0, 0.1, -0.0, 1, float("nan"), float("inf")]),
    (A(float, ge=0.5), [0.5, 0.49]),
    (A(float, lt=1.5), [1.5, 1.49, 1]),
    (A(float, le=1.5), [1.5, 1.51]),
    (A(float, multiple_of=0.5), [1.0, 1.5, 1.2, 3]),
    (A(float, gt=0, lt=1), [0.5, 0, 1, 2]),
    (A(str, min_length=2), ["", "a", "ab", "é", "éé"]),
    (A(str, max_length=2), ["", "abc", "ab", "😀😀", "😀😀😀"]),
    (A(str, min_length=1, max_length=3), ["", "a", "abcd"]),
    (A(str, pattern="^[a-z]+$"), ["abc", "ABC", "", "ab1"]),
    (A(str, pattern="b"), ["abc", "xyz"]),
    (A(str, pattern="^x", min_length=3), ["xab", "xa", "yab"]),
    (A(bytes, min_length=2), [b"a", b"ab", "YWI=", "YQ=="]),
    (A(bytes, max_length=2), [b"abc", b"ab"]),
    (A(bytearray, min_length=1), [b"", bytearray(b"a")]),
    (A(List[int], min_length=1), [[], [1]]),
    (A(List[int], max_length=2), [[1, 2], [1, 2, 3]]),
    (A(Tuple[int, ...], min_length=2), [(1,), (1, 2)]),
    (A(Set[int], max_length=1), [{1}, {1, 2}, [1, 1]]),
    (A(FrozenSet[int], min_length=2), [[1], [1, 1], [1, 2]]),
    (A(Dict[str, int], min_length=1), [{}, {"a": 1}]),
    (A(Dict[str, int], max_length=1), [{"a": 1, "b": 2}]),
    (A(dict, max_length=1), [{"a": 1, "b": 2}, {}]),
    (A(datetime.datetime, tz=True), [datetime.datetime(2020, 1, 1), datetime.datetime(2020, 1, 1, tzinfo=UTC),
                                     "2020-01-01T00:00:00", "2020-01-01T00:00:00Z"]),
    (A(datetime.datetime, tz=False), [datetime.datetime(2020, 1, 1), datetime.datetime(2020, 1, 1, tzinfo=UTC),
                                      "2020-01-01T00:00:00", "2020-01-01T00:00:00+01:00"]),
    (A(datetime.time, tz=True), [datetime.time(1), datetime.time(1, tzinfo=UTC), "01:00:00", "01:00:00Z"]),
    (A(datetime.time, tz=False), [datetime.time(1), datetime.time(1, tzinfo=UTC), "01:00:00Z"]),
    (A(Optional[int], ge=0), [None, -1, 1]),
    (lambda lib: Optional[Annotated[int, lib.Meta(ge=0)]], [None, -1, 1]),
    (lambda lib: List[Annotated[int, lib.Meta(ge=0)]], [[1, 2], [1, -2]]),
    (lambda lib: Dict[Annotated[str, lib.Meta(min_length=2)], int], [{"ab": 1}, {"a": 1}]),
    (lambda lib: Dict[str, Annotated[int, lib.Meta(lt=0)]], [{"a": -1}, {"a": 1}]),
    (lambda lib: Union[Annotated[int, lib.Meta(ge=0)], Annotated[str, lib.Meta(min_length=1)]], [1, -1, "", "a"]),
    (lambda lib: Annotated[Annotated[int, lib.Meta(ge=0)], lib.Meta(le=5)], [-1, 3, 6]),
]


def _cases():
    for make, inputs in CASES:
        name = getattr(make, "__qualname__", "lambda")
        for i, v in enumerate(inputs):
            yield pytest.param(make, v, id=f"{name}-{i}")


@pytest.mark.parametrize("make,value", list(_cases()))
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_constraint(make, value, strict):
    got, want = both(make, value, strict=strict)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"


@factory
def Constrained(lib):
    class Item(lib.Struct):
        price: Annotated[float, lib.Meta(gt=0)]
        name: Annotated[str, lib.Meta(min_length=1, max_length=5)] = "x"

    class Order(lib.Struct):
        items: Annotated[List[Item], lib.Meta(min_length=1)]
        counts: Dict[str, Annotated[int, lib.Meta(ge=0)]] = {}

    return Order


@pytest.mark.parametrize(
    "value",
    [
        {"items": [{"price": 1}]},
        {"items": []},
        {"items": [{"price": 1}, {"price": 0}]},
        {"items": [{"price": 1, "name": ""}]},
        {"items": [{"price": 1, "name": "toolong"}]},
        {"items": [{"price": 1}], "counts": {"a": 1, "b": -1}},
    ],
)
def test_constraints_inside_structs(value):
    got, want = both(Constrained, value)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"


# ---------------------------------------------------------------- Meta(validator=...) (boltwire only)


def _positive_even(v):
    if v % 2:
        raise ValueError("must be even")


def _type_error(v):
    raise TypeError(f"bad value {v!r}")


def _assertion(v):
    assert v != "no", "must not be no"


def _runtime(v):
    raise RuntimeError("propagates")


def test_validator_passes_value_through():
    T = Annotated[int, boltwire.Meta(validator=_positive_even)]
    assert boltwire.convert(4, T) == 4


def test_validator_value_error_becomes_validation_error():
    T = Annotated[int, boltwire.Meta(validator=_positive_even)]
    with pytest.raises(boltwire.ValidationError) as info:
        boltwire.convert(3, T)
    assert str(info.value) == "must be even"
    assert isinstance(info.value.__cause__, ValueError)


def test_validator_type_error_becomes_validation_error_with_path():
    class S(boltwire.Struct):
        xs: List[Annotated[str, boltwire.Meta(validator=_type_error)]]

    with pytest.raises(boltwire.ValidationError) as info:
        boltwire.convert({"xs": ["a"]}, S)
    assert str(info.value) == "bad value 'a' - at `$.xs[0]`"


def test_validator_assertion_error_becomes_validation_error():
    # Documented in boltwire.Meta: ValueError, TypeError or AssertionError become a ValidationError.
    T = Dict[str, Annotated[str, boltwire.Meta(validator=_assertion)]]
    with pytest.raises(boltwire.ValidationError) as info:
        boltwire.convert({"k": "no"}, T)
    assert str(info.value) == "must not be no - at `$[...]`"


def test_validator_other_exceptions_propagate():
    T = Annotated[int, boltwire.Meta(validator=_runtime)]
    with pytest.raises(RuntimeError, match="propagates"):
        boltwire.convert(1, T)


def test_validator_runs_after_type_and_constraints():
    calls = []
    T = Annotated[int, boltwire.Meta(ge=0, validator=calls.append)]
    with pytest.raises(boltwire.ValidationError, match="Expected `int` >= 0"):
        boltwire.convert(-1, T)
    with pytest.raises(boltwire.ValidationError, match="Expected `int`, got `str`"):
        boltwire.convert("x", T)
    assert calls == []
    assert boltwire.convert(5, T) == 5
    assert calls == [5]


def test_validator_sees_converted_value():
    seen = []
    T = Annotated[datetime.date, boltwire.Meta(validator=seen.append)]
    assert boltwire.convert("2021-01-02", T) == datetime.date(2021, 1, 2)
    assert seen == [datetime.date(2021, 1, 2)]


def test_validator_on_struct_type():
    class P(boltwire.Struct):
        lo: int
        hi: int

    def ordered(p):
        if p.lo > p.hi:
            raise ValueError("lo > hi")

    class Holder(boltwire.Struct):
        range: Annotated[P, boltwire.Meta(validator=ordered)]

    assert boltwire.convert({"range": {"lo": 1, "hi": 2}}, Holder).range == P(1, 2)
    with pytest.raises(boltwire.ValidationError) as info:
        boltwire.convert({"range": {"lo": 3, "hi": 2}}, Holder)
    assert str(info.value) == "lo > hi - at `$.range`"


def test_validator_on_any_and_optional():
    seen = []
    T = Optional[Annotated[Any, boltwire.Meta(validator=seen.append)]]
    assert boltwire.convert(None, T) is None
    assert boltwire.convert([1], T) == [1]
    assert [1] in seen
