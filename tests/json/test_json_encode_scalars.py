"""json.encode of None, bool, int, float, str and bytes-likes: hand-written bytes and parity with msgspec."""

import random
import struct

import msgspec
import pytest

from boltwire import json

INTS = [0, 1, -1, 9, 10, 99, 100, 12345, -12345, 2**30 - 1, 2**30, -(2**30), 2**31, 2**53 + 1, 2**63 - 1,
        -(2**63), 2**63, -(2**63) - 1, 2**64 - 1, 2**64, 10**30, -(10**40), 7**200]
FLOATS = [0.0, -0.0, 1.0, -1.5, 0.1, 100.0, 1234567.0, 1e15, 1e16, 1.2345e16, 123456789012345680.0, 1e22,
          1e-5, 1e-6, 1.2345e-5, 2.5e-8, 5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 1 / 3]


@pytest.mark.parametrize(
    "value, expected",
    [
        (None, b"null"), (True, b"true"), (False, b"false"), (0, b"0"), (-7, b"-7"),
        (2**64, b"18446744073709551616"), (-(2**63), b"-9223372036854775808"),
        (1.0, b"1.0"), (1e16, b"1e16"), (1e15, b"1000000000000000.0"), (1e-7, b"1e-7"), (1e-5, b"0.00001"),
        (-0.0, b"-0.0"), (5e-324, b"5e-324"), (1.5e300, b"1.5e300"), (float("nan"), b"null"),
        (float("inf"), b"null"), (float("-inf"), b"null"),
        ("", b'""'), ("abc", b'"abc"'), ('a"b\\c', b'"a\\"b\\\\c"'), ("\n\t\r\b\f", b'"\\n\\t\\r\\b\\f"'),
        ("\x00\x1f", b'"\\u0000\\u001f"'), ("\x7f", b'"\x7f"'), ("é日\U0001F600", "\"é日\U0001F600\"".encode()),
        (b"", b'""'), (b"\x00\x01hello", b'"AAFoZWxsbw=="'), (bytearray(b"ab"), b'"YWI="'),
        (memoryview(b"abc"), b'"YWJj"'),
    ],
)
def test_hand_written(value, expected):
    assert json.encode(value) == expected


@pytest.mark.parametrize("value", INTS)
def test_ints_match_msgspec(value):
    assert json.encode(value) == msgspec.json.encode(value)
    assert json.encode(-value) == msgspec.json.encode(-value)


@pytest.mark.parametrize("value", FLOATS)
def test_floats_match_msgspec(value):
    assert json.encode(value) == msgspec.json.encode(value)
    assert json.encode(-value) == msgspec.json.encode(-value)


def test_random_bit_patterns_match_msgspec():
    rng = random.Random(1234)
    for _ in range(20000):
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        assert json.encode(value) == msgspec.json.encode(value), repr(value)


def test_float_decimal_exponents_match_msgspec():
    for exp in range(-30, 30):
        for mantissa in (1.0, 1.2345, 9.999999999999999, 5.0):
            value = mantissa * 10.0**exp
            assert json.encode(value) == msgspec.json.encode(value), repr(value)


@pytest.mark.parametrize("length", [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 100, 1000])
@pytest.mark.parametrize("position", [0, 1, 7, 8, 15, 16, 17, -1])
@pytest.mark.parametrize("special", ['"', "\\", "\x00", "\x1f", "\n", "\x7f", "é", "\u2028"])
def test_escape_at_every_position(length, position, special):
    chars = ["a"] * length
    if length:
        chars[min(position, length - 1) if position >= 0 else length - 1] = special
    s = "".join(chars)
    assert json.encode(s) == msgspec.json.encode(s)


def test_all_single_code_points_below_256():
    for c in range(256):
        s = chr(c) * 3 + "x" * 20 + chr(c)
        assert json.encode(s) == msgspec.json.encode(s), c


def test_lone_surrogate_raises_unicode_error():
    with pytest.raises(UnicodeEncodeError):
        json.encode("\ud800")


@pytest.mark.parametrize("n", range(0, 10))
def test_base64_lengths_match_msgspec(n):
    data = bytes(range(250, 250 - n, -1))
    assert json.encode(data) == msgspec.json.encode(data)


def test_large_string_and_bytes():
    s = ("abc\"def\n" * 10000) + "é" * 1000
    assert json.encode(s) == msgspec.json.encode(s)
    b = bytes(range(256)) * 100
    assert json.encode(b) == msgspec.json.encode(b)
