"""Typed decoding of datetime / date / time (RFC 3339: offsets, fraction rounding, invalid inputs), timedelta
(ISO 8601 durations), UUID, Decimal and bytes / bytearray / memoryview (base64), compared with msgspec, strict
and lax."""

import datetime
import decimal
import uuid

import pytest

from typed_decode_diff import check_type

DATETIMES = [
    "2020-01-02T03:04:05Z", "2020-01-02T03:04:05z", "2020-01-02t03:04:05Z", "2020-01-02 03:04:05Z",
    "2020-01-02T03:04:05", "2020-01-02T03:04:05+00:00", "2020-01-02T03:04:05-00:00", "2020-01-02T03:04:05+05:30",
    "2020-01-02T03:04:05-08:00", "2020-01-02T03:04:05+23:59", "2020-01-02T03:04:05+24:00", "2020-01-02T03:04:05+0530",
    "2020-01-02T03:04:05+05", "2020-01-02T03:04:05.1Z", "2020-01-02T03:04:05.123456Z", "2020-01-02T03:04:05.1234567Z",
    "2020-01-02T03:04:05.9999995Z", "2020-01-02T03:04:05.9999994Z", "2020-12-31T23:59:59.9999999Z",
    "9999-12-31T23:59:59.9999999Z", "2020-01-02T03:04:05.000000001Z", "2020-01-02T03:04:05.Z", "2020-01-02T03:04Z",
    "2020-01-02T03:04:60Z", "2020-01-02T24:00:00Z", "2020-02-29T00:00:00Z", "2019-02-29T00:00:00Z",
    "2020-13-01T00:00:00Z", "2020-00-01T00:00:00Z", "2020-01-32T00:00:00Z", "2020-04-31T00:00:00Z",
    "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00",
    "20200102T030405Z", "2020-1-02T03:04:05Z", "2020-01-02T03:04:05ZZ", "2020-01-02T03:04:05 Z", "",
    "2020-01-02", "2020-01-02T", "2020-01-02T03:04:05.123+01:00", "2020-01-02T03:04:05,123Z",
    "２０２０-01-02T03:04:05Z", "2020-01-02T03:04:05.1234567890123456789Z", "2020-01-02T03:04:05+05:60",
]
DATES = ["2020-01-02", "2020-02-29", "2019-02-29", "0000-01-01", "0001-01-01", "9999-12-31", "2020-1-2",
         "2020-01-02T00:00:00", "20200102", "2020-01-02 ", "", "2020-13-01", "2020-12-32", "2020-06-31"]
TIMES = ["03:04:05", "03:04:05Z", "03:04:05+01:00", "03:04:05-01:30", "03:04:05.123", "03:04:05.1234567",
         "23:59:59.9999999", "03:04", "24:00:00", "03:60:00", "03:04:60", "3:04:05", "03:04:05.", "03:04:05+25:00",
         "03:04:05.000001Z", "", "03:04:05 ", "03:04:05z"]
DURATIONS = ["P1D", "PT1S", "PT1.5S", "PT0.000001S", "PT0.0000001S", "P1DT2H3M4S", "-P1D", "+P1D", "P1W", "PT36H",
             "P1Y", "P1M", "PT1M", "PT", "P", "", "P1.5D", "PT1.5M", "P1DT", "P-1D", "P999999999D",
             "P1000000000D", "PT86400S", "P0D", "pt1s", "P1H", "PT1S1M", "P1DT1H1M1.123456S", "PT1e3S", "P1D2D",
             "P10675199DT2H48M5.4775807S"]
UUIDS = ["c1c2a1d4-8a4c-4a3e-9b1a-1f0e2d3c4b5a", "C1C2A1D4-8A4C-4A3E-9B1A-1F0E2D3C4B5A",
         "c1c2a1d48a4c4a3e9b1a1f0e2d3c4b5a", "{c1c2a1d4-8a4c-4a3e-9b1a-1f0e2d3c4b5a}",
         "urn:uuid:c1c2a1d4-8a4c-4a3e-9b1a-1f0e2d3c4b5a", "c1c2a1d4-8a4c-4a3e-9b1a-1f0e2d3c4b5", "",
         "g1c2a1d4-8a4c-4a3e-9b1a-1f0e2d3c4b5a", "c1c2a1d4-8a4c4a3e-9b1a-1f0e2d3c4b5a", "00000000-0000-0000-0000-000000000000"]
DECIMALS = ["1", "1.5", "-0", "1e3", "1E-3", "0.1000", "NaN", "nan", "Infinity", "-Infinity", "inf", "sNaN", "",
            " 1", "1_000", "1.2.3", "abc", "123456789012345678901234567890.123456789"]
B64 = ["", "AA==", "AAE=", "AAEC", "aGVsbG8=", "aGVsbG8", "aGVsbG8==", "aGV sbG8=", "aGVsbG8=\n", "!!!!", "A",
       "AA", "AAA", "AAAA", "-_-_", "+/+/", "AA=A"]


def strings(xs):
    import json as std

    return [std.dumps(x).encode() for x in xs]


OTHER = [b"null", b"1", b"1.5", b"true", b"[]", b"{}", b"-1", b"1577836800", b"1577836800.5", b"1e3", b"0"]


@pytest.mark.parametrize("tp", [datetime.datetime, datetime.date, datetime.time], ids=repr)
@pytest.mark.parametrize("buf", strings(DATETIMES + DATES + TIMES) + OTHER, ids=repr)
def test_datetimes_match_msgspec(tp, buf):
    check_type(tp, buf)


@pytest.mark.parametrize("tp", [datetime.datetime, datetime.date, datetime.time, datetime.timedelta], ids=repr)
@pytest.mark.parametrize("buf", OTHER + [b"-62135596800", b"253402300800", b"1e20", b"-1.5", b'"1577836800"',
                                         b'"1.5"', b'"-1"', b'"nan"', b"86400", b"1.0000005", b"-0.0000005"], ids=repr)
def test_datetimes_lax_numbers_match_msgspec(tp, buf):
    check_type(tp, buf, strict=False)


@pytest.mark.parametrize("buf", strings(DURATIONS) + OTHER, ids=repr)
def test_timedelta_matches_msgspec(buf):
    check_type(datetime.timedelta, buf)


@pytest.mark.parametrize("buf", strings(UUIDS) + OTHER, ids=repr)
def test_uuid_matches_msgspec(buf):
    check_type(uuid.UUID, buf)


@pytest.mark.parametrize("buf", strings(DECIMALS) + OTHER + [b"1.10", b"-0.0", b"123456789012345678901234567890",
                                                              b"1e400", b"1.5e-10"], ids=repr)
def test_decimal_matches_msgspec(buf):
    check_type(decimal.Decimal, buf)
    check_type(decimal.Decimal, buf, strict=False)


@pytest.mark.parametrize("tp", [bytes, bytearray, memoryview], ids=repr)
@pytest.mark.parametrize("buf", strings(B64) + OTHER, ids=repr)
def test_base64_matches_msgspec(tp, buf):
    check_type(tp, buf)


def test_datetime_values_exact():
    from boltwire import json

    dt = json.decode(b'"2020-01-02T03:04:05.5+05:30"', type=datetime.datetime)
    assert dt == datetime.datetime(2020, 1, 2, 3, 4, 5, 500000,
                                   tzinfo=datetime.timezone(datetime.timedelta(hours=5, minutes=30)))
    assert json.decode(b'"2020-01-02T03:04:05Z"', type=datetime.datetime).tzinfo is datetime.timezone.utc
    assert json.decode(b'"2020-01-02T03:04:05"', type=datetime.datetime).tzinfo is None
    # 7th fractional digit rounds half-even like msgspec; carry ripples into the seconds
    assert json.decode(b'"2020-01-02T03:04:05.9999995Z"', type=datetime.datetime).second == 6


@pytest.mark.parametrize("tp", [list[datetime.datetime], dict[str, uuid.UUID], list[bytes], list[datetime.timedelta],
                                dict[str, decimal.Decimal]], ids=repr)
def test_special_error_paths_match_msgspec(tp):
    check_type(tp, b'["2020-01-02T03:04:05Z", "nope"]')
    check_type(tp, b'{"a": "nope"}')
