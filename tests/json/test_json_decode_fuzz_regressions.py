"""Regressions found by fuzz/fuzz_json_untyped (make fuzz): each input once crashed a property of the decoder."""

import sys

import pytest

from boltwire import DecodeError
from boltwire._core import _json_decode_any as decode_any

# A raw UTF-8-encoded surrogate (ED A0..BF xx) is invalid UTF-8. It was accepted when the same string also held an
# escape, because the escape path decodes its buffer with "surrogatepass" (for \ud800 escapes).
RAW_SURROGATE_AFTER_ESCAPE = [
    b'"\\n\xed\xa0\x80"',
    b'"\xed\xbf\xbf\\n"',
    b'"e  \\t E\\"r\xed\xa0\x80t\\tE\\"ude15"',  # the fuzzer's find
    b'"esc \\ud83d\xed\xa0\x80e00"',
    b'{"k\\n\xed\xb0\x80": 1}',
]


@pytest.mark.parametrize("doc", RAW_SURROGATE_AFTER_ESCAPE)
def test_raw_surrogate_is_invalid_utf8_even_after_an_escape(doc):
    # Invalid UTF-8 (or, for the \ud83d case, the unpaired escape before it): always a DecodeError.
    with pytest.raises(DecodeError, match="(?i)utf-8|utf-16"):
        decode_any(doc)


def test_escaped_surrogates_and_raw_neighbours_still_decode():
    # A lone escaped surrogate is malformed, as msgspec reads it; its neighbours decode.
    with pytest.raises(DecodeError):
        decode_any(b'"\\ud800"')
    assert decode_any(b'"\\n\xed\x9f\xbf"') == "\n\ud7ff"  # U+D7FF: the last code point before the surrogates
    assert decode_any(b'"\\n\xee\x80\x80"') == "\n\ue000"  # U+E000: the first after them
    assert decode_any(b'"\\ud83d\\ude00\xf0\x9f\x98\x80"') == "\U0001F600\U0001F600"


def test_integer_past_the_digit_limit_raises_decode_error():
    limit = sys.get_int_max_str_digits()
    if limit == 0:
        pytest.skip("int digit limit disabled in this interpreter")
    # It used to escape as a bare ValueError from int conversion.
    for doc in (b"1" * (limit + 1), b"[-" + b"9" * (limit + 1) + b"]"):
        with pytest.raises(DecodeError, match="Integer value out of range"):  # a ValidationError, as msgspec
            decode_any(doc)
    assert decode_any(b"7" * limit) == int("7" * limit)


# ---- found by fuzz/fuzz_json_typed -------------------------------------------------------------------------------

from typing import Annotated  # noqa: E402

from boltwire import Meta, ValidationError, convert, json  # noqa: E402

MULTIPLE_OF_3 = Annotated[int, Meta(multiple_of=3)]


@pytest.mark.parametrize("number", [1e20, 1e54, -1e30, 2.0**53 + 2])
def test_lax_integral_floats_past_2_53_are_refused_like_msgspec(number):
    # strict=False reads an integral float as int only while it is exact (|x| <= 2**53), as msgspec does; past
    # int64 the constraints used to be skipped (found by fuzz_json_typed), now such floats never become ints.
    doc = repr(number).encode()
    with pytest.raises(ValidationError, match="Expected `int`, got `float`"):
        json.decode(doc, type=MULTIPLE_OF_3, strict=False)
    with pytest.raises(ValidationError, match="Expected `int`, got `float`"):
        convert(number, MULTIPLE_OF_3, strict=False)


def test_lax_integral_floats_within_2_53_check_the_int_constraints():
    assert json.decode(b"[6.0, 9e15]", type=list[MULTIPLE_OF_3], strict=False) == [6, 9 * 10**15]
    assert convert(3e15, MULTIPLE_OF_3, strict=False) == 3 * 10**15
    with pytest.raises(ValidationError, match="multiple of 3"):
        json.decode(b"1e15", type=MULTIPLE_OF_3, strict=False)
    with pytest.raises(ValidationError, match=">= 0"):
        json.decode(b"-1e10", type=Annotated[int, Meta(ge=0)], strict=False)


@pytest.mark.parametrize(
    ("meta", "error", "message"),
    [
        (Meta(le=10**54), ValueError, "don't fit in an int64"),
        (Meta(ge=-(2**64)), ValueError, "don't fit in an int64"),
        (Meta(le=1e30), TypeError, "'float' object cannot be interpreted as an integer"),
        (Meta(multiple_of=2**70), ValueError, "don't fit in an int64"),
        (Meta(gt=2**63 - 1), ValueError, r"gt >= 2\*\*63 - 1 is not supported"),
        (Meta(lt=-(2**63)), ValueError, r"lt <= -2\*\*63 is not supported"),
    ],
)
def test_int_bounds_past_int64_are_rejected_not_ignored(meta, error, message):
    # They used to be dropped silently (le=10**54 accepted 10**54 + 1), or cast with undefined behaviour;
    # now refused with msgspec's errors.
    with pytest.raises(error, match=message):
        json.decode(b"1", type=Annotated[int, meta])


def test_int_bounds_at_the_int64_edges_still_work():
    edges = Annotated[int, Meta(ge=-(2**63), le=2**63 - 1)]
    assert json.decode(b"-9223372036854775808", type=edges) == -(2**63)
    with pytest.raises(ValidationError):
        json.decode(b"9223372036854775808", type=edges)


# A lone surrogate from a "\ud800" escape has no UTF-8 form: the typed decoder and convert used to leak
# UnicodeEncodeError where they match keys or parse str-encoded values byte-wise.
import uuid  # noqa: E402

from boltwire import Struct  # noqa: E402


class Fields(Struct, forbid_unknown_fields=False):
    name: str = ""
    n: int = 0


class Closed(Struct, forbid_unknown_fields=True):
    name: str = ""


class Cat(Struct, tag="cat"):
    name: str = ""


class Dog(Struct, tag="dog"):
    name: str = ""


def test_lone_surrogate_keys_are_malformed_not_unicode_errors():
    # They used to leak UnicodeEncodeError where keys are matched byte-wise; msgspec reads a lone escaped
    # surrogate as malformed JSON, and so does boltwire now, in keys and values alike.
    for doc, tp in [
        (b'{"na\\ud800me": 1, "name": "x"}', Fields),
        (b'{"\\udc00": 1}', Fields),
        (b'[{"type": "cat", "ty\\ud800pe": 1}]', list[Cat | Dog]),
        (b'{"\\ud800": 1}', Closed),
        (b'{"\\ud800": 1}', dict[str, int]),
    ]:
        with pytest.raises(DecodeError, match="utf-16|truncated"):
            json.decode(doc, type=tp)
    # convert gets real str keys, which may hold surrogates: they match no field.
    assert convert({"na\ud800me": 1, "name": "x"}, Fields) == Fields(name="x")


def test_lone_surrogates_in_str_encoded_values_are_malformed():
    for doc, tp in [
        (b'"c232ab00-9414-11ec-b3c8-9e6bdeced8\\ud800"', uuid.UUID),
        (b'"\\ud800"', bytes),
        (b'{"\\ud800": 1}', dict[int, int]),
        (b'"\\ud800"', str),
    ]:
        with pytest.raises(DecodeError):
            json.decode(doc, type=tp)
