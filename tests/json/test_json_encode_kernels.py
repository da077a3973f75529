"""json.encode's value kernels against msgspec, byte for byte, at the edges each kernel branches on.

Floats (number_format.cpp: 17 digits in registers, then one of three layouts): every count of significant digits
at every decimal exponent around the layouts' limits, digit counts on both sides of each power of ten, and the
floats of the bench documents. Strings (encode_string.cpp): runs of escapes (one reservation for the worst case,
one 8-byte store per escape) at every output offset, non-ASCII strings before and after CPython caches their
UTF-8 form (read inline from the cache), as values and as dict keys. true / false / null (one 8-byte store picked
without a branch) at every offset against the output buffer's end.
"""

import math
import os
import random

import msgspec
import pytest

from boltwire import json

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")


def same_as_msgspec(value):
    encoded = json.encode(value)
    assert encoded == msgspec.json.encode(value)
    return encoded


@pytest.mark.parametrize("exponent", range(-9, 24))
def test_float_every_digit_count_at_every_exponent(exponent):
    # 1 to 17 significant digits with the first digit at 10^exponent: plain with a point inside, plain integral
    # with ".0", "0.000ddd" and scientific, on both sides of each layout limit (-5 and 16).
    values = []
    for digits in range(1, 18):
        for text in ("1" * digits, "9" * digits, "1" + "0" * (digits - 2) + "1" if digits > 1 else "5"):
            for sign in ("", "-"):
                values.append(float(f"{sign}{text[0]}.{text[1:] or '0'}e{exponent}"))
    encoded = same_as_msgspec(values)
    assert json.decode(encoded) == values


def test_float_digit_counts_around_powers_of_ten():
    values = []
    for k in range(-320, 309):
        for m in ("1", "9.999999999999999", "9.9999999999999999", "1.0000000000000002", "5", "2.5"):
            v = float(f"{m}e{k}")
            if math.isfinite(v) and v != 0:
                values += [v, math.nextafter(v, 0), math.nextafter(v, math.inf), -v]
    values = [v for v in values if math.isfinite(v)]
    encoded = same_as_msgspec(values)
    assert [float(x) for x in encoded.decode()[1:-1].split(",")] == values


def test_float_zeros_subnormals_and_extremes():
    values = [0.0, -0.0, 5e-324, -5e-324, 1e-323, 2.2250738585072014e-308, 2.225073858507201e-308,
              1.7976931348623157e308, -1.7976931348623157e308, 1e16, 1e15, 9007199254740993.0, 123456789012345680.0,
              0.1, 0.2, 0.3, 1e-5, 1e-6, 1e21, 1e22, 1e23]
    encoded = same_as_msgspec(values)
    for value, text in zip(values, encoded.decode()[1:-1].split(",")):
        assert float(text) == value and math.copysign(1, float(text)) == math.copysign(1, value)


def test_float_random_magnitudes_match_repr_digits():
    rng = random.Random(20261202)
    values = [rng.random() * 10.0 ** rng.randint(-330, 308) for _ in range(50_000)]
    values += [round(rng.uniform(-1e6, 1e6), rng.randint(0, 9)) for _ in range(50_000)]
    values = [v for v in values if math.isfinite(v)]
    encoded = same_as_msgspec(values)
    for value, text in zip(values, encoded.decode()[1:-1].split(",")):
        assert float(text) == value
        mantissa = text.lstrip("-").split("e")[0].replace(".", "").strip("0") or "0"
        assert mantissa == (repr(value).lstrip("-").split("e")[0].replace(".", "").strip("0") or "0")


def test_bench_documents_match_msgspec(monkeypatch):
    monkeypatch.syspath_prepend(BENCH)
    import encode_data
    import json_documents

    same_as_msgspec(json_documents.make_document(200_000, 3))
    same_as_msgspec(encode_data.untyped_document(200_000, seed=4))


ESCAPED = '"\\\x00\x01\x08\t\n\x0b\x0c\r\x1e\x1f'


@pytest.mark.parametrize("prefix", range(0, 40))
def test_runs_of_escapes_at_every_offset(prefix):
    # Each string ends in escapes, is made only of escapes, or alternates escapes with clean runs of every length.
    values = ["p" * prefix]
    for n in range(0, 40):
        values.append(ESCAPED * (n // len(ESCAPED) + 1))
        values.append("x" * n + ESCAPED[n % len(ESCAPED)])
        values.append("".join(ESCAPED[i % len(ESCAPED)] + "y" * i for i in range(n)))
        values.append({"k" * n + ESCAPED[n % len(ESCAPED)]: "é" + ESCAPED[: n % 13]})
    same_as_msgspec(values)
    buf = bytearray()
    json.Encoder().encode_into(values, buf, prefix)
    assert bytes(buf[prefix:]) == msgspec.json.encode(values)


def test_every_control_character_and_escape_alone_and_together():
    for c in range(0x20):
        same_as_msgspec(chr(c))
        same_as_msgspec(chr(c) * 50)
        same_as_msgspec({chr(c): chr(c)})
    same_as_msgspec("".join(chr(c) for c in range(0x80)) * 20)


def fresh(text: str) -> str:
    """An equal str object made at run time (its UTF-8 form not cached yet)."""
    return "".join(list(text))


@pytest.mark.parametrize("text", ["é", "héllo wörld", "日本語テキスト", "emoji 🙂🚀", "Ελληνικά " * 20,
                                  'quo"te é\n', "\u2028\u2029", "\x7f\x80\xff"])
def test_non_ascii_before_and_after_the_utf8_cache(text):
    value, key = fresh(text), fresh(text)
    expected = msgspec.json.encode([text, {text: text}])
    assert json.encode([value, {key: value}]) == expected  # first: CPython fills the cache
    assert json.encode([value, {key: value}]) == expected  # then read from the cache


def test_lone_surrogate_key_and_value_still_raise():
    for doc in (["ok", "\ud800"], {"\udfff": 1}, {"a": "x\ud83d"}):
        with pytest.raises(UnicodeEncodeError):
            json.encode(doc)


@pytest.mark.parametrize("prefix", range(0, 24))
def test_literals_at_every_offset(prefix):
    rng = random.Random(prefix)
    values = ["q" * prefix] + [rng.choice((True, False, None)) for _ in range(3000)]
    encoded = same_as_msgspec(values)
    assert json.decode(encoded) == values
    for i in range(0, 40):
        same_as_msgspec(["a" * i, True])
        same_as_msgspec(["a" * i, False])
        same_as_msgspec(["a" * i, None])
    buf = bytearray()
    json.Encoder().encode_into(values, buf, prefix)
    assert bytes(buf[prefix:]) == encoded


@pytest.mark.parametrize("prefix", range(0, 20))
def test_short_strings_of_every_length_at_every_offset(prefix):
    # The inline short-string copy reads the 16 bytes ending at a str's last char and stores 16 bytes: every
    # length 0..16, cached one-char and empty strs among them, as values and keys at every output offset.
    words = [chr(c) for c in range(0x20, 0x7F)] + ["", "a" * 16] + ["".join(chr(97 + i % 26) for i in range(n))
                                                                   for n in range(17)]
    values = ["p" * prefix] + words + [{w: w} for w in words] + [{w: [w, w]} for w in words]
    encoded = same_as_msgspec(values)
    assert json.decode(encoded) == values
    buf = bytearray()
    json.Encoder().encode_into(values, buf, prefix)
    assert bytes(buf[prefix:]) == encoded
