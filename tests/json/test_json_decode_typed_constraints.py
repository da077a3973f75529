"""Annotated[..., Meta(...)] constraints on decode, compared with msgspec: every bound on int / float / str /
bytes / list / dict / datetime tz, nested Annotated, constraints inside containers and Struct fields; plus the
boltwire-only Meta(validator=fn)."""

import datetime
from typing import Annotated, Optional, Union

import pytest

from typed_decode_diff import check, check_type

INT_METAS = [dict(gt=0), dict(ge=0), dict(lt=10), dict(le=10), dict(gt=0, lt=10), dict(ge=-5, le=5),
             dict(multiple_of=3), dict(multiple_of=2, ge=0)]
# msgspec refuses these on int (bounds beyond int64, float bounds): checked once each, with one input.
ODD_INT_METAS = [dict(gt=2**64), dict(lt=-(2**64)), dict(ge=1.5), dict(le=9.5), dict(multiple_of=1.5)]
INT_INPUTS = [b"-10", b"-5", b"-1", b"0", b"1", b"3", b"5", b"6", b"9", b"10", b"11", b"18446744073709551617",
              b"-18446744073709551617", b"1.0", b'"3"']

FLOAT_METAS = [dict(gt=0), dict(ge=0.5), dict(lt=1.5), dict(le=-0.5), dict(multiple_of=0.5), dict(multiple_of=0.1),
               dict(gt=0, le=1), dict(multiple_of=3)]
FLOAT_INPUTS = [b"-1", b"0", b"0.5", b"1", b"1.5", b"0.3", b"1e300", b"-0.0", b"3", b"9.0", b"1e400"]

STR_METAS = [dict(min_length=2), dict(max_length=3), dict(min_length=1, max_length=1), dict(pattern="^a+$"),
             dict(pattern="b"), dict(pattern="^\\d{3}$", min_length=3)]
STR_INPUTS = [b'""', b'"a"', b'"aa"', b'"aaaa"', b'"ab"', b'"b"', b'"123"', b'"1234"', b'"\\u00e9"', b'"\xc3\xa9\xc3\xa9"',
              "\"😀😀\"".encode(), b'"a\\nb"']

LEN_METAS = [dict(min_length=1), dict(max_length=2), dict(min_length=2, max_length=2)]


def ann(tp, meta_kwargs):
    return lambda lib: Annotated[tp, lib.Meta(**meta_kwargs)]


def build_error_or_check(make, buf, **kw):
    check(make, buf, **kw)


@pytest.mark.parametrize("meta", INT_METAS, ids=repr)
@pytest.mark.parametrize("buf", INT_INPUTS, ids=repr)
def test_int_bounds_match_msgspec(meta, buf):
    check(ann(int, meta), buf)
    check(ann(int, meta), buf, strict=False)


@pytest.mark.parametrize("meta", ODD_INT_METAS, ids=repr)
def test_odd_int_bounds_refused_like_msgspec(meta):
    check(ann(int, meta), b"3")


@pytest.mark.parametrize("meta", FLOAT_METAS, ids=repr)
@pytest.mark.parametrize("buf", FLOAT_INPUTS, ids=repr)
def test_float_bounds_match_msgspec(meta, buf):
    check(ann(float, meta), buf)


@pytest.mark.parametrize("meta", STR_METAS, ids=repr)
@pytest.mark.parametrize("buf", STR_INPUTS, ids=repr)
def test_str_constraints_match_msgspec(meta, buf):
    check(ann(str, meta), buf)


@pytest.mark.parametrize("meta", LEN_METAS, ids=repr)
@pytest.mark.parametrize("tp, bufs", [
    (bytes, [b'""', b'"AA=="', b'"AAE="', b'"AAEC"']),
    (bytearray, [b'""', b'"AA=="', b'"AAEC"']),
    (list[int], [b"[]", b"[1]", b"[1,2]", b"[1,2,3]"]),
    (tuple[int, ...], [b"[]", b"[1]", b"[1,2,3]"]),
    (set[int], [b"[]", b"[1,1]", b"[1,2,3]"]),
    (frozenset[str], [b'["a","a","b"]']),
    (dict[str, int], [b"{}", b'{"a":1}', b'{"a":1,"b":2,"c":3}', b'{"a":1,"a":2}']),
], ids=repr)
def test_length_constraints_match_msgspec(meta, tp, bufs):
    for buf in bufs:
        check(ann(tp, meta), buf)


@pytest.mark.parametrize("tp", [datetime.datetime, datetime.time], ids=repr)
@pytest.mark.parametrize("tz", [True, False], ids=repr)
@pytest.mark.parametrize("buf", [b'"2020-01-02T03:04:05Z"', b'"2020-01-02T03:04:05"', b'"03:04:05"',
                                 b'"03:04:05+01:00"', b"1577836800"], ids=repr)
def test_tz_constraint_matches_msgspec(tp, tz, buf):
    check(ann(tp, dict(tz=tz)), buf)
    check(ann(tp, dict(tz=tz)), buf, strict=False)


def test_invalid_meta_combinations_match_msgspec():
    from typed_decode_diff import check_build_error

    check_build_error(ann(int, dict(pattern="a")), b"1")
    check_build_error(ann(str, dict(gt=1)), b'"a"')
    check_build_error(ann(list[int], dict(tz=True)), b"[]")
    check_build_error(ann(bool, dict(ge=0)), b"true")
    check_build_error(ann(datetime.date, dict(tz=True)), b'"2020-01-01"')


def test_stacked_and_nested_annotated_match_msgspec():
    def make(lib):
        Pos = Annotated[int, lib.Meta(ge=0)]
        Small = Annotated[Pos, lib.Meta(le=10)]

        class S(lib.Struct):
            price: Annotated[float, lib.Meta(gt=0)]
            tags: Annotated[list[Annotated[str, lib.Meta(min_length=1)]], lib.Meta(max_length=2)] = []
            counts: dict[Annotated[str, lib.Meta(pattern="^k")], Small] = {}
            maybe: Optional[Annotated[int, lib.Meta(multiple_of=5)]] = None
            either: Union[Annotated[int, lib.Meta(lt=0)], Annotated[str, lib.Meta(max_length=1)], None] = None

        return S

    for buf in [b'{"price":1}', b'{"price":0}', b'{"price":1,"tags":["a",""]}', b'{"price":1,"tags":["a","b","c"]}',
                b'{"price":1,"counts":{"k1":3}}', b'{"price":1,"counts":{"x":3}}', b'{"price":1,"counts":{"k":11}}',
                b'{"price":1,"counts":{"k":-1}}', b'{"price":1,"maybe":null}', b'{"price":1,"maybe":7}',
                b'{"price":1,"either":-1}', b'{"price":1,"either":1}', b'{"price":1,"either":"ab"}']:
        check(make, buf)
        check(make, buf, strict=False)


def test_order_item_price_path():
    def make(lib):
        class Item(lib.Struct):
            price: Annotated[float, lib.Meta(ge=0)]

        class Order(lib.Struct):
            items: list[Item]

        return Order

    out = check(make, b'{"items":[{"price":1},{"price":-1}]}')
    assert out == ("error", "ValidationError", "Expected `float` >= 0.0 - at `$.items[1].price`")


# ---- Meta(validator=fn): boltwire only, so checked directly -------------------------------------------------

def _even(v):
    if v % 2:
        raise ValueError(f"{v} is odd")


def test_validator_accepts_and_rejects_with_path():
    from boltwire import Meta, Struct, ValidationError, json

    Even = Annotated[int, Meta(validator=_even)]

    class S(Struct):
        xs: list[Even]

    assert json.decode(b'{"xs":[2,4]}', type=S).xs == [2, 4]
    with pytest.raises(ValidationError) as ei:
        json.decode(b'{"xs":[2,3]}', type=S)
    assert "3 is odd" in str(ei.value)
    assert str(ei.value).endswith("- at `$.xs[1]`")


@pytest.mark.parametrize("exc", [ValueError, TypeError, AssertionError])
def test_validator_errors_become_validation_error(exc):
    from boltwire import Meta, ValidationError, json

    def bad(v):
        raise exc("nope")

    with pytest.raises(ValidationError) as ei:
        json.decode(b'{"a": 1}', type=dict[str, Annotated[int, Meta(validator=bad)]])
    # dict values are reported as `$[...]`, as msgspec does
    assert str(ei.value) == "nope - at `$[...]`"


def test_validator_other_exceptions_propagate():
    from boltwire import Meta, json

    def boom(v):
        raise KeyError("k")

    with pytest.raises(KeyError):
        json.decode(b"1", type=Annotated[int, Meta(validator=boom)])


def test_validator_runs_after_other_constraints_and_return_value_ignored():
    from boltwire import Meta, ValidationError, json

    seen = []

    def record(v):
        seen.append(v)
        return "ignored"

    T = Annotated[int, Meta(ge=0, validator=record)]
    assert json.decode(b"5", type=T) == 5
    with pytest.raises(ValidationError, match=">= 0"):
        json.decode(b"-1", type=T)
    assert seen == [5]


def test_validator_on_struct_field_and_str():
    from boltwire import Meta, Struct, ValidationError, json

    def no_spaces(s):
        if " " in s:
            raise ValueError("spaces not allowed")

    class U(Struct):
        name: Annotated[str, Meta(min_length=1, validator=no_spaces)]

    assert json.decode(b'{"name":"bob"}', type=U).name == "bob"
    with pytest.raises(ValidationError, match=r"spaces not allowed - at `\$.name`"):
        json.decode(b'{"name":"b b"}', type=U)


def test_validator_not_callable_is_type_error():
    from boltwire import Meta

    with pytest.raises(TypeError):
        Meta(validator=5)


def test_bad_pattern_raises_like_msgspec():
    import re

    import msgspec

    from boltwire import Meta

    with pytest.raises(re.error) as theirs:
        msgspec.Meta(pattern="[")
    with pytest.raises(re.error) as ours:
        Meta(pattern="[")
    assert str(ours.value) == str(theirs.value)
