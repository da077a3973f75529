"""json.encode of datetime, date, time (RFC 3339) and timedelta (ISO 8601 duration), as msgspec writes them."""

import datetime as dt

import msgspec
import pytest

from boltwire import json

UTC = dt.timezone.utc


def tz(**kwargs):
    return dt.timezone(dt.timedelta(**kwargs))


@pytest.mark.parametrize(
    "value, expected",
    [
        (dt.datetime(2020, 1, 2, 3, 4, 5), b'"2020-01-02T03:04:05"'),
        (dt.datetime(2020, 1, 2, 3, 4, 5, 123000), b'"2020-01-02T03:04:05.123000"'),
        (dt.datetime(2020, 1, 2, 3, 4, 5, 123456, tzinfo=UTC), b'"2020-01-02T03:04:05.123456Z"'),
        (dt.datetime(2020, 1, 2, 3, 4, 5, tzinfo=tz(hours=-5, minutes=-30)), b'"2020-01-02T03:04:05-05:30"'),
        (dt.datetime(2020, 1, 2, 3, 4, 5, tzinfo=tz(hours=14)), b'"2020-01-02T03:04:05+14:00"'),
        (dt.datetime(2020, 1, 2, 3, 4, 5, tzinfo=tz(hours=0)), b'"2020-01-02T03:04:05Z"'),
        (dt.datetime(5, 1, 1), b'"0005-01-01T00:00:00"'),
        (dt.date(2020, 1, 2), b'"2020-01-02"'),
        (dt.time(1, 2, 3), b'"01:02:03"'),
        (dt.time(1, 2, 3, 400, tzinfo=UTC), b'"01:02:03.000400Z"'),
        (dt.timedelta(0), b'"P0D"'),
        (dt.timedelta(days=1, seconds=2, microseconds=500000), b'"P1DT2.5S"'),
        (dt.timedelta(days=-1), b'"-P1D"'),
        (dt.timedelta(seconds=-1), b'"-PT1S"'),
        (dt.timedelta(microseconds=1), b'"PT0.000001S"'),
        (dt.timedelta(days=3, seconds=18061), b'"P3DT18061S"'),
    ],
)
def test_hand_written(value, expected):
    assert json.encode(value) == expected
    assert msgspec.json.encode(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        dt.datetime.min, dt.datetime.max, dt.datetime(2020, 1, 2, 3, 4, 5, tzinfo=tz(seconds=30)),
        dt.datetime(2020, 1, 2, 3, 4, 5, tzinfo=tz(seconds=-30)), dt.datetime(2020, 6, 1, 12, tzinfo=tz(hours=5, seconds=-30)),
        dt.date.min, dt.date.max, dt.time.min, dt.time.max, dt.time(1, tzinfo=tz(hours=-2)),
        dt.timedelta.min, dt.timedelta.max, dt.timedelta(seconds=0.5), dt.timedelta(microseconds=-1500000),
        dt.timedelta(days=10**6, microseconds=10),
    ],
)
def test_match_msgspec(value):
    assert json.encode(value) == msgspec.json.encode(value)


def test_zoneinfo_and_subclass():
    zoneinfo = pytest.importorskip("zoneinfo")
    try:
        zone = zoneinfo.ZoneInfo("America/New_York")
    except zoneinfo.ZoneInfoNotFoundError:
        pytest.skip("no tz database")
    for value in [dt.datetime(2020, 1, 1, tzinfo=zone), dt.datetime(2020, 7, 1, tzinfo=zone)]:
        assert json.encode(value) == msgspec.json.encode(value)


def test_datetime_subclass_encodes_like_datetime():
    Sub = type("Sub", (dt.datetime,), {})
    assert json.encode(Sub(2020, 1, 1)) == b'"2020-01-01T00:00:00"'


def test_utcoffset_error_propagates():
    class Bad(dt.tzinfo):
        def utcoffset(self, d):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        json.encode(dt.datetime(2020, 1, 1, tzinfo=Bad()))
