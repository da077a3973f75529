"""Typed decoding of scalars (None, bool, int, float, str, Any) compared with msgspec: values, strict and lax
mode, big integers, and every accepted input buffer type."""

import math
import sys

import msgspec
import pytest

from boltwire import json
from boltwire import DecodeError, ValidationError
from typed_decode_diff import check_type, check_decoder

import typing

SCALAR_INPUTS = [
    b"null", b"true", b"false", b"0", b"-0", b"1", b"-1", b"123456789", b"9223372036854775807",
    b"9223372036854775808", b"-9223372036854775808", b"-9223372036854775809", b"18446744073709551615",
    b"18446744073709551616", b"123456789012345678901234567890", b"-123456789012345678901234567890",
    b"1.0", b"-1.5", b"0.0", b"-0.0", b"1e3", b"1E3", b"1e-3", b"1.5e+10", b"1e400", b"-1e400", b"1e-400",
    b"2.2250738585072014e-308", b"1.7976931348623157e308", b"0.1", b"5e-324", b"123456789012345678901234567890.5",
    b'""', b'"a"', b'"hello world"', b'"\\u00e9"', b'"\\ud83d\\ude00"', "\"é€😀\"".encode(), b'"\\n\\t\\"\\\\\\/"',
    b'"1"', b'"1.5"', b'"true"', b'"null"', b"[]", b"{}", b"[1]", b'{"a": 1}',
]

SCALAR_TYPES = [None, type(None), bool, int, float, str, typing.Any, object]


@pytest.mark.parametrize("tp", SCALAR_TYPES, ids=repr)
@pytest.mark.parametrize("buf", SCALAR_INPUTS, ids=repr)
def test_scalar_strict_matches_msgspec(tp, buf):
    check_type(tp, buf)


LAX_INPUTS = [
    b'"1"', b'"-1"', b'"0"', b'"+1"', b'"1.0"', b'"1.5"', b'"1e3"', b'"-0"', b'"  1"', b'"1 "', b'"0x10"',
    b'"123456789012345678901234567890"', b'"nan"', b'"NaN"', b'"inf"', b'"-inf"', b'"Infinity"', b'"1_000"',
    b'"true"', b'"false"', b'"True"', b'"1"', b'"0"', b'"null"', b'""', b'"abc"', b"1.0", b"1.5", b"-2.0",
    b"1e3", b"1e30", b"1e400", b"0", b"1", b"2", b"true", b"null", b'"9223372036854775808"', b"1.0000000001",
]


@pytest.mark.parametrize("tp", [bool, int, float, str, type(None)], ids=repr)
@pytest.mark.parametrize("buf", LAX_INPUTS, ids=repr)
def test_scalar_lax_matches_msgspec(tp, buf):
    check_type(tp, buf, strict=False)


@pytest.mark.parametrize("buf", LAX_INPUTS + SCALAR_INPUTS[:20], ids=repr)
def test_lax_union_of_scalars(buf):
    check_type(typing.Union[int, float, bool, None], buf, strict=False)


@pytest.mark.parametrize("wrap", [bytes, bytearray, memoryview, lambda b: b.decode()], ids=["bytes", "bytearray",
                                                                                        "memoryview", "str"])
@pytest.mark.parametrize("buf", [b"1", b'"x"', b"[1,2]", b'{"a":[1.5,null]}', b"bad", b"1 2"], ids=repr)
def test_input_buffer_types(wrap, buf):
    check_type(typing.Any, wrap(buf))
    check_type(list[int] | int, wrap(buf))


def test_memoryview_of_slice_is_respected():
    data = b'xx[1,2]yy'
    assert json.decode(memoryview(data)[2:7], type=list[int]) == [1, 2]


def test_noncontiguous_memoryview():
    mv = memoryview(b"[1,2,3]")[::2]
    ours = None
    try:
        json.decode(mv, type=typing.Any)
    except Exception as e:
        ours = type(e).__name__
    try:
        msgspec.json.decode(mv)
        theirs = None
    except Exception as e:
        theirs = type(e).__name__
    assert ours == theirs


@pytest.mark.parametrize("bad", [1, None, 1.5, [b"1"], object()], ids=repr)
def test_bad_buffer_argument_is_type_error(bad):
    with pytest.raises(TypeError) as ours:
        json.decode(bad, type=int)
    with pytest.raises(TypeError) as theirs:
        msgspec.json.decode(bad, type=int)
    assert str(ours.value) == str(theirs.value)


def test_big_integers_exact():
    for n in (2**64, -(2**64), 10**100, -(10**100) + 1, 2**63, -(2**63) - 1):
        assert json.decode(str(n).encode(), type=int) == n
        assert type(json.decode(str(n).encode(), type=int)) is int


def test_int_beyond_int_max_str_digits():
    buf = b"1" * 5000
    check_type(int, buf)
    check_type(typing.Any, buf)
    check_type(float, buf)


def test_float_accepts_int_and_returns_float():
    v = json.decode(b"3", type=float)
    assert v == 3.0 and type(v) is float


def test_bool_is_not_int():
    with pytest.raises(ValidationError, match=r"Expected `int`, got `bool`"):
        json.decode(b"true", type=int)


def test_float_hook_matches_msgspec():
    import decimal

    for buf in (b"1.5", b"[1.5, 2, 1e3]", b'{"a": 0.1}', b"1e400"):
        ours = json.Decoder(float_hook=decimal.Decimal).decode(buf)
        theirs = msgspec.json.Decoder(float_hook=decimal.Decimal).decode(buf)
        assert repr(ours) == repr(theirs)


def test_decoder_attributes_match_msgspec():
    ours = json.Decoder(list[int], strict=False)
    theirs = msgspec.json.Decoder(list[int], strict=False)
    assert ours.type == theirs.type
    assert ours.strict is False and theirs.strict is False
    assert ours.dec_hook is None and ours.float_hook is None


def test_decode_keyword_only():
    with pytest.raises(TypeError):
        json.decode(b"1", int)


def test_validation_error_is_decode_error():
    with pytest.raises(DecodeError):
        json.decode(b'"x"', type=int)
    assert issubclass(ValidationError, DecodeError)
