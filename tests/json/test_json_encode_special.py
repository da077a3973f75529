"""json.encode of uuid.UUID, decimal.Decimal and enum members, with the Encoder's uuid/decimal formats."""

import decimal
import enum
import uuid

import msgspec
import pytest

from boltwire import json

U = uuid.UUID("12345678-9abc-def0-1234-56789abcdef0")


def test_uuid_canonical_and_hex():
    assert json.encode(U) == b'"12345678-9abc-def0-1234-56789abcdef0"'
    assert json.Encoder(uuid_format="hex").encode(U) == b'"123456789abcdef0123456789abcdef0"'
    assert json.Encoder(uuid_format="canonical").encode(U) == json.encode(U)
    for _ in range(100):
        u = uuid.uuid4()
        assert json.encode(u) == msgspec.json.encode(u)
    for u in (uuid.UUID(int=0), uuid.UUID(int=2**128 - 1)):
        for fmt in ("canonical", "hex"):
            assert json.Encoder(uuid_format=fmt).encode(u) == msgspec.json.Encoder(uuid_format=fmt).encode(u)


def test_uuid_subclass():
    Sub = type("Sub", (uuid.UUID,), {})
    assert json.encode(Sub(int=5)) == msgspec.json.encode(uuid.UUID(int=5))


@pytest.mark.parametrize("text", ["1.50", "-0", "1E+5", "0.000001", "NaN", "-Infinity", "123456789012345678901234567890"])
def test_decimal_string(text):
    value = decimal.Decimal(text)
    assert json.encode(value) == msgspec.json.encode(value) == b'"' + str(value).encode() + b'"'


def test_decimal_number():
    enc = json.Encoder(decimal_format="number")
    assert enc.encode(decimal.Decimal("1.5E+3")) == b"1.5E+3"
    assert enc.encode([decimal.Decimal("-0.10")]) == b"[-0.10]"
    with pytest.raises(ValueError, match="non-finite"):
        enc.encode(decimal.Decimal("nan"))
    with pytest.raises(ValueError, match="non-finite"):
        enc.encode(decimal.Decimal("-Infinity"))


class Color(enum.Enum):
    RED = "red"
    ONE = 1
    PAIR = (1, "x")


class Level(enum.IntEnum):
    LOW = 1


class Perm(enum.IntFlag):
    R = 4
    W = 2


class Flag(enum.Flag):
    A = 1


def test_enums_encode_their_value():
    value = [Color.RED, Color.ONE, Color.PAIR, Level.LOW, Perm.R | Perm.W, Flag.A]
    assert json.encode(value) == b'["red",1,[1,"x"],1,6,1]'
    assert json.encode(value) == msgspec.json.encode(value)


def test_str_enum():
    StrEnum = getattr(enum, "StrEnum", None)
    if StrEnum is None:
        pytest.skip("no StrEnum")
    S = StrEnum("S", {"A": "a"})
    assert json.encode(S.A) == b'"a"'
    assert json.encode({S.A: 1}) == b'{"a":1}'
