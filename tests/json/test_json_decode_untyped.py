"""Untyped JSON decoding (type=Any): values, strict RFC 8259 rules, error messages, and robustness."""

import json
import math
import random
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boltwire._core import _json_decode_any as decode
from boltwire._errors import DecodeError

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_round_trip_matches_stdlib(value):
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, indent=1)):
        assert decode(text) == json.loads(text)
        assert decode(text.encode()) == json.loads(text)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0", 0),
        ("-0", 0),
        ("-0.0", -0.0),
        ("9223372036854775807", 2**63 - 1),
        ("-9223372036854775809", -(2**63) - 1),
        ("123456789012345678901234567890", 123456789012345678901234567890),
        ("1.5e3", 1500.0),
        ("1E-2", 0.01),
        ("0.1", 0.1),
        ("5e-324", 5e-324),
        ('"\\u00e9\\ud83d\\ude00"', "é😀"),
        ('"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\/\b\f\n\r\t'),
        ('"\\ud800\\udc00"', "\U00010000"),
        ("18446744073709551616", 2**64),  # past uint64: still an exact int, as msgspec
        ("1e-400", 0.0),
        (' \t\r\n{"a" : [ true , false , null ] } \n', {"a": [True, False, None]}),
        ('"日本語"', "日本語"),
    ],
)
def test_values(text, expected):
    result = decode(text)
    assert result == expected and type(result) is type(expected)
    if isinstance(expected, float):
        assert math.copysign(1, result) == math.copysign(1, expected)


@pytest.mark.parametrize(
    "text, message",
    [
        ("1e400", "Number out of range"),
        ("-1e400", "Number out of range"),
        ("1" * 400 + ".0", "Number out of range"),
        ("[1, 1e400]", "Number out of range - at `$[1]`"),
        ('{"a": [{"b": 1e400}]}', "Number out of range - at `$[...][0][...]`"),
        ("1" * 5000, "Integer value out of range"),  # past sys.get_int_max_str_digits(): never a ValueError
        ("[" + "1" * 5000 + "]", "Integer value out of range - at `$[0]`"),
    ],
)
def test_out_of_range_numbers_are_validation_errors(text, message):
    from boltwire._errors import ValidationError

    with pytest.raises(ValidationError) as info:
        decode(text)
    assert str(info.value) == message


def test_input_kinds():
    doc = b'{"k": [1, "v"]}'
    expected = {"k": [1, "v"]}
    assert decode(doc) == expected
    assert decode(bytearray(doc)) == expected
    assert decode(memoryview(doc)) == expected
    assert decode(memoryview(b"xx" + doc)[2:]) == expected
    assert decode(doc.decode()) == expected
    with pytest.raises(TypeError, match="a bytes-like object is required, not 'int'"):
        decode(1)
    with pytest.raises(BufferError, match="not C-contiguous"):
        decode(memoryview(b"[1,2]")[::2])


@pytest.mark.parametrize(
    "text, message",
    [
        ('[1,]', 'JSON is malformed: trailing comma in array (byte 3)'),
        ('{"a":1,}', 'JSON is malformed: trailing comma in object (byte 7)'),
        ('01', 'JSON is malformed: invalid number (byte 1)'),
        ('-01', 'JSON is malformed: invalid number (byte 2)'),
        ('[1 2]', "JSON is malformed: expected ',' or ']' (byte 3)"),
        ('{"a":1 "b":2}', "JSON is malformed: expected ',' or '}' (byte 7)"),
        ('{"a" 1}', "JSON is malformed: expected ':' (byte 5)"),
        ('{1: 2}', 'JSON is malformed: object keys must be strings (byte 1)'),
        ('"a\x01"', 'JSON is malformed: invalid character (byte 2)'),
        ('"\\x"', 'JSON is malformed: invalid escape character in string (byte 3)'),
        ('"\\u12g4"', 'JSON is malformed: invalid character in unicode escape (byte 6)'),
        ('1 x', 'JSON is malformed: trailing characters (byte 3)'),  # msgspec points past the offending byte
        ('[1] [2]', 'JSON is malformed: trailing characters (byte 5)'),
        ('[1]\n x', 'JSON is malformed: trailing characters (byte 6)'),
        ('NaN', 'JSON is malformed: invalid character (byte 0)'),
        ('Infinity', 'JSON is malformed: invalid character (byte 0)'),
        ('-Infinity', 'JSON is malformed: invalid character (byte 1)'),
        ('+1', 'JSON is malformed: invalid character (byte 0)'),
        ('.5', 'JSON is malformed: invalid character (byte 0)'),
        ('1.e5', 'JSON is malformed: invalid number (byte 2)'),
        ('-', 'JSON is malformed: invalid number (byte 1)'),  # number errors never read as truncation
        ('1.', 'JSON is malformed: invalid number (byte 2)'),
        ('1e', 'JSON is malformed: invalid number (byte 2)'),
        ('nul', 'Input data was truncated'),
        ('tx', 'Input data was truncated'),
        ('nulx', 'JSON is malformed: invalid character (byte 4)'),
        ('falsx', 'JSON is malformed: invalid character (byte 5)'),
        ('"abc', 'Input data was truncated'),
        ('[1, 2', 'Input data was truncated'),
        ('', 'Input data was truncated'),
        ('   ', 'Input data was truncated'),
        ('"\\u12"', 'Input data was truncated'),
        ('"\\ud800"', 'Input data was truncated'),  # a lone high surrogate needs 6 more bytes
        ('"\\ud800x"', 'Input data was truncated'),
        ('"\\udc00"', 'JSON is malformed: invalid utf-16 surrogate pair (byte 7)'),
        ('"\\ud800\\u0041"', 'JSON is malformed: invalid utf-16 surrogate pair (byte 13)'),
        ('"\\ud800\\x0041"', 'JSON is malformed: unexpected end of escaped utf-16 surrogate pair (byte 7)'),
        (b'"\xff"', 'Invalid UTF-8 encoded string'),
        (b'"\xed\xa0\x80"', 'Invalid UTF-8 encoded string'),  # encoded surrogate
        (b'"\xc3"', 'Invalid UTF-8 encoded string'),
        (b'{"\xff": 1}', 'Invalid UTF-8 encoded string'),
    ],
)
def test_malformed_messages(text, message):
    with pytest.raises(DecodeError) as info:
        decode(text)
    assert str(info.value) == message


def test_decode_error_is_a_value_error():
    with pytest.raises(ValueError):
        decode("[")


def test_nesting_is_bounded_without_stack_overflow():
    assert decode("[" * 1000 + "]" * 1000) is not None
    for opener, closer in (("[", "]"), ('{"a":', "}")):
        with pytest.raises(DecodeError, match="maximum nesting depth exceeded"):
            decode(opener * 100_000 + "1" + closer * 100_000)


def test_random_mutations_only_raise_decode_error():
    # Every byte-level mutation of valid documents either decodes like the stdlib or raises DecodeError.
    rng = random.Random(20261129)
    seeds = [
        b'{"name": "x\\u00e9", "items": [1, -2.5e3, true, null, {"k": []}], "big": 123456789012345678901}',
        '{"ключ": ["значение", 1.0, false]}'.encode(),
    ]
    for _ in range(20_000):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 4)):
            op = rng.randrange(3)
            i = rng.randrange(len(data) + (op == 1))
            if op == 0 and data:
                data[min(i, len(data) - 1)] = rng.randrange(256)
            elif op == 1:
                data.insert(i, rng.randrange(256))
            elif data:
                del data[min(i, len(data) - 1)]
        try:
            result = decode(bytes(data))
        except DecodeError:
            continue
        assert result == json.loads(bytes(data))


def test_error_paths_do_not_leak():
    bad = [b'{"a": [1, 2, {"b": "c"', b'[1, 2, 3,]', b'{"k": "\\ud83d\\ude00", "v": 01}', b'"\xff"']
    good = b'{"a": [1, 2.5, "three", {"b": null}], "c": "\\u00e9"}'
    # Repeated objects (stamped from the shape of the first, test_json_decode_untyped_shapes.py) failing part-way.
    shaped = b'[{"a": [1, 2], "b": {"c": "d"}, "e": 1.5}, {"a": [1, 2], "b": {"c": "d"}, "e": 1.5}]'
    bad += [shaped[:i] for i in range(44, len(shaped), 7)] + [shaped.replace(b"1.5}]", b"1.5,}]")]

    def run(n):
        for _ in range(n):
            decode(good)
            for doc in bad:
                try:
                    decode(doc)
                except DecodeError:
                    pass

    run(2_000)
    tracemalloc.start()
    run(2_000)
    first, _ = tracemalloc.get_traced_memory()
    run(20_000)
    second, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert second - first < 64 * 1024, (first, second)


# Decoder.decode_lines reads a stream of whitespace-separated values (msgspec's semantics, checked against
# msgspec 0.23): paths start at the value's index and byte offsets count from the start of the buffer.
@pytest.mark.parametrize(
    "buf, expected",
    [
        (b"", []),
        (b"\n\n", []),
        (b"1\n2\n\n", [1, 2]),
        (b"1 2\n3", [1, 2, 3]),
        (b"  1  \n\n  2  ", [1, 2]),
        (b"[1,\n2]\n3", [[1, 2], 3]),
        (b"\r\n{}\r\n[]\r\n", [{}, []]),
    ],
)
def test_decode_lines_values(buf, expected):
    from boltwire.json import Decoder

    assert Decoder().decode_lines(buf) == expected
    assert Decoder().decode_lines(memoryview(b"x" + buf)[1:]) == expected


@pytest.mark.parametrize(
    "buf, error, message",
    [
        (b"1\nx", "DecodeError", "JSON is malformed: invalid character (byte 2)"),
        (b"1,2", "DecodeError", "JSON is malformed: invalid character (byte 1)"),
        (b'"a"\n[1,]', "DecodeError", "JSON is malformed: trailing comma in array (byte 7)"),
        (b"1\n[", "DecodeError", "Input data was truncated"),
        (b"1\n1e400", "ValidationError", "Number out of range - at `$[1]`"),
        (b'1\n{"a": [1e400]}', "ValidationError", "Number out of range - at `$[1][...][0]`"),
    ],
)
def test_decode_lines_errors(buf, error, message):
    import boltwire
    from boltwire.json import Decoder

    with pytest.raises(getattr(boltwire, error)) as info:
        Decoder().decode_lines(buf)
    assert str(info.value) == message


def test_decode_lines_typed_paths_carry_the_line_index():
    import boltwire
    from boltwire.json import Decoder

    class Point(boltwire.Struct):
        x: int

    assert Decoder(Point).decode_lines(b'{"x":1}\n{"x":2}') == [Point(1), Point(2)]
    with pytest.raises(boltwire.ValidationError) as info:
        Decoder(Point).decode_lines(b'{"x":1}\n{"x":"a"}')
    assert str(info.value) == "Expected `int`, got `str` - at `$[1].x`"
    with pytest.raises(boltwire.ValidationError) as info:
        Decoder(list[int]).decode_lines(b"[1]\n[2, 3]\n4")
    assert str(info.value) == "Expected `array`, got `int` - at `$[2]`"
