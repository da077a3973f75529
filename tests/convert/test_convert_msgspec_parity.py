"""convert() behaviours fixed for msgspec parity, each compared with msgspec on the same input."""

import datetime
from typing import Annotated, Literal

import msgspec
import pytest

import boltwire


def outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 (compared across the two libraries)
        return (type(e).__name__, str(e))


def same(fn_of_lib):
    ours, theirs = outcome(lambda: fn_of_lib(boltwire)), outcome(lambda: fn_of_lib(msgspec))
    assert ours == theirs
    return ours


@pytest.mark.parametrize("seconds", [-86399999999999, -86399999913601, 86399999999999.5, 1e300, -1e20, 123.456])
def test_lax_timedelta_out_of_range_is_a_validation_error(seconds):
    result = same(lambda lib: lib.convert(seconds, datetime.timedelta, strict=False))
    assert result[0] in ("ok", "ValidationError")  # never OverflowError
    same(lambda lib: lib.json.decode(str(seconds).encode(), type=datetime.timedelta, strict=False))


@pytest.mark.parametrize("text", ["P-1000000000D", "P999999999DT86399.999999S", "P1000000000D"])
def test_iso_duration_range(text):
    same(lambda lib: lib.convert(text, datetime.timedelta))


@pytest.mark.parametrize("value", ["null", "Null", "nUll", "NULL", "xull", "nul"])
def test_lax_null_is_case_insensitive(value):
    same(lambda lib: lib.convert(value, None, strict=False))


@pytest.mark.parametrize("value", [123, -123, 123.456, "123.456"])
def test_lax_timestamp_checks_tz_constraint(value):
    for tz in (False, True):
        typ = Annotated[datetime.datetime, boltwire.Meta(tz=tz)]
        mtyp = Annotated[datetime.datetime, msgspec.Meta(tz=tz)]
        ours = outcome(lambda: boltwire.convert(value, typ, strict=False))
        theirs = outcome(lambda: msgspec.convert(value, mtyp, strict=False))
        assert ours == theirs


@pytest.mark.parametrize("value", ["true", "false", "1", 0, 1, True, False])
def test_bool_literals_take_no_lax_values(value):
    for typ in (Literal[True], Literal[False], bool):
        same(lambda lib: lib.convert(value, typ, strict=False))
