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
    with pytest.raises(DecodeError, match="invalid utf-8"):
        decode_any(doc)


def test_escaped_surrogates_and_raw_neighbours_still_decode():
    assert decode_any(b'"\\ud800"') == "\ud800"
    assert decode_any(b'"\\n\xed\x9f\xbf"') == "\n\ud7ff"  # U+D7FF: the last code point before the surrogates
    assert decode_any(b'"\\n\xee\x80\x80"') == "\n\ue000"  # U+E000: the first after them
    assert decode_any(b'"\\ud83d\\ude00\xf0\x9f\x98\x80"') == "\U0001F600\U0001F600"


def test_integer_past_the_digit_limit_raises_decode_error():
    limit = sys.get_int_max_str_digits()
    if limit == 0:
        pytest.skip("int digit limit disabled in this interpreter")
    # It used to escape as a bare ValueError from int conversion.
    for doc in (b"1" * (limit + 1), b"[-" + b"9" * (limit + 1) + b"]"):
        with pytest.raises(DecodeError, match="too many digits"):
            decode_any(doc)
    assert decode_any(b"7" * limit) == int("7" * limit)
