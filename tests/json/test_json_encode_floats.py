"""json.encode of floats (csrc/json/shortest_double.cpp, number_format.cpp) and of short strings (the inline path).

Floats: the text reads back as the same double and has as many significant digits as repr() (the shortest
round-trip form), and the bytes equal msgspec's over bulk random bit patterns and the edges of every binary
exponent. Short strings: every length the two-overlapping-moves path handles, with a special character at every
position.
"""

import math
import random
import struct

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boltwire import json


def significant_digits(text: str) -> str:
    """The digits of a decimal float text without sign, point, exponent and leading / trailing zeros."""
    mantissa = text.lower().lstrip("-").split("e")[0].replace(".", "")
    return mantissa.strip("0") or "0"


@settings(max_examples=3000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_round_trip_and_shortest(value):
    text = json.encode(value).decode()
    assert float(text) == value and math.copysign(1, float(text)) == math.copysign(1, value)
    assert significant_digits(text) == significant_digits(repr(value))


def from_bits(bits: int) -> float:
    return struct.unpack("<d", bits.to_bytes(8, "little"))[0]


def test_bulk_random_bit_patterns_match_msgspec():
    rng = random.Random(20261201)
    values = [from_bits(rng.getrandbits(64)) for _ in range(200_000)]
    values = [v for v in values if math.isfinite(v)]
    assert json.encode(values) == msgspec.json.encode(values)


def test_every_binary_exponent_edge_matches_msgspec():
    values = []
    for exponent in range(2047):
        for fraction in (0, 1, 2, 3, (1 << 51), (1 << 52) - 2, (1 << 52) - 1):
            values.append(from_bits((exponent << 52) | fraction))
    values = [v for v in values if math.isfinite(v)]
    encoded = json.encode(values)
    assert encoded == msgspec.json.encode(values)
    assert json.decode(encoded) == values


def test_short_decimals_and_integers_match_msgspec():
    values = [m * 10.0**e for e in range(-25, 25) for m in (1, 3, 7, 12, 125, 999, 123456789)]
    values += [i / 1000 for i in range(-3000, 3000)] + [float(2**k) for k in range(0, 64)]
    values += [float(2**k + 1) for k in range(50, 64)] + [0.1 + 0.2, 1 / 3, 2 / 3, 5e-324, 1.7976931348623157e308]
    assert json.encode(values) == msgspec.json.encode(values)


@pytest.mark.parametrize("length", range(0, 18))
def test_short_strings_with_a_special_at_every_position(length):
    for special in ('"', "\\", "\x00", "\x1f", "\n", "\x7f", "é", "\u2028", "\U0001f680"):
        for position in range(length):
            chars = ["k"] * length
            chars[position] = special
            s = "".join(chars)
            assert json.encode(s) == msgspec.json.encode(s), (length, position, special)
            assert json.encode({s: s}) == msgspec.json.encode({s: s}), (length, position, special)
    plain = "abcdefghijklmnopq"[:length]
    assert json.encode([plain, {plain: plain}]) == msgspec.json.encode([plain, {plain: plain}])
