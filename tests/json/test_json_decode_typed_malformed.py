"""Typed decoding of malformed input compared with msgspec (strict RFC 8259: trailing commas, leading zeros,
NaN / Infinity, control characters, invalid escapes and UTF-8, trailing garbage, truncation), deep nesting
(DecodeError, never a crash), dec_hook for custom types and Decoder.decode_lines."""

import typing

import pytest

from typed_decode_diff import check, check_decoder, check_type

MALFORMED = [
    b"", b" ", b"[1,]", b'{"a":1,}', b"[,1]", b"01", b"-01", b"00", b"1.", b".5", b"-", b"+1", b"1e", b"1e+",
    b"0x10", b"NaN", b"-NaN", b"Infinity", b"-Infinity", b"nan", b"inf", b"tru", b"nul", b"True", b"None",
    b'"\x01"', b'"\x1f"', b'"a\tb"', b'"a\nb"', b'"\\x41"', b'"\\u12"', b'"\\u12G4"', b'"\\ud800"', b'"\\udc00"',
    b'"\\ud800\\u0041"', b'"\\', b'"abc', b"\"\xff\"", b"\"\xc3\"", b"\"\xc0\xaf\"", b"\"\xed\xa0\x80\"",
    b"\"\xf4\x90\x80\x80\"", b"\"\xe2\x82\"", b"1 2", b"[1] x", b'{"a":1}}', b"[1]]", b"null null", b"[1 2]",
    b'{"a" 1}', b'{"a":1 "b":2}', b"{'a':1}", b"[\x00]", b"\x00", b"\xef\xbb\xbf1", b"[1,2", b'{"a":', b'{"a"',
    b"{", b"[", b"[[[", b"/*c*/1", b"1//c", b"\t\n\r 1 \t\n\r", b"\x0b1", b"\x0c1", b"1e999999999999999999",
    b"-0.e1", b"2.e3", b"1.5e", b"--1", b"[-]", b'["a" "b"]', b'{"a":1,,"b":2}', b"\"\x7f\"",
]


@pytest.mark.parametrize("tp", [typing.Any, int, float, str, list[int], dict[str, int], list[str],
                                typing.Optional[list[typing.Any]]], ids=repr)
@pytest.mark.parametrize("buf", MALFORMED, ids=repr)
def test_malformed_matches_msgspec(tp, buf):
    check_type(tp, buf)


def point(lib):
    class Point(lib.Struct):
        x: int
        y: list[int] = []

    return Point


@pytest.mark.parametrize("buf", [b'{"x":1,}', b'{"x":01}', b'{"x":NaN}', b'{"x":1} x', b'{"x":1,"y":[1,]}',
                                 b'{"x":1,"unknown":[1,]}', b'{"x":1,"unknown":{"a":tru}}', b'{"x":1,"unknown":"\x01"}',
                                 b'{"x":1,"unknown":"\\q"}', b'{"\xff":1}', b'{"x":1', b'{"x"', b'{x:1}',
                                 b'{"x":1,"unknown":' + b"[" * 300 + b"]" * 300 + b"}"], ids=lambda b: repr(b[:40]))
def test_malformed_inside_struct_matches_msgspec(buf):
    check(point, buf)


# Deep nesting: boltwire's own contract (msgspec raises RecursionError depending on the interpreter's recursion
# limit, so it is not a reference here): up to 1024 levels decode, deeper input is a DecodeError, never a crash.

def _depth(v):
    n = 0
    while isinstance(v, (list, dict)) and v:
        v = v[0] if isinstance(v, list) else next(iter(v.values()))
        n += 1
    return n + (1 if isinstance(v, (list, dict)) else 0)


@pytest.mark.parametrize("depth", [1000, 1023, 1024], ids=str)
@pytest.mark.parametrize("tp", [typing.Any, list, list[typing.Any], typing.Union[list, int], object], ids=repr)
def test_nesting_up_to_1024_decodes(depth, tp):
    from boltwire import json

    assert _depth(json.decode(b"[" * depth + b"]" * depth, type=tp)) == depth


@pytest.mark.parametrize("depth", [1025, 1100, 5000, 100000, 1000000], ids=str)
@pytest.mark.parametrize("tp", [typing.Any, list, list[typing.Any], typing.Union[list, int], object, dict,
                                dict[str, typing.Any]], ids=repr)
def test_deep_nesting_is_decode_error_not_crash(depth, tp):
    from boltwire import DecodeError, ValidationError, json

    for buf in (b"[" * depth + b"]" * depth, b"[" * depth, b'{"a":' * depth + b"1" + b"}" * depth,
                b'{"a":[' * ((depth + 1) // 2) + b"1" + b"]}" * ((depth + 1) // 2)):
        with pytest.raises(DecodeError) as ei:
            json.decode(buf, type=tp)
        assert not isinstance(ei.value, ValidationError) or "Expected" in str(ei.value)


def test_deep_unknown_field_value_is_decode_error():
    import boltwire
    from boltwire import DecodeError, json

    P = point(boltwire)
    with pytest.raises(DecodeError, match="maximum nesting depth"):
        json.decode(b'{"x":1,"unknown":' + b"[" * 2000 + b"]" * 2000 + b"}", type=P)
    assert json.decode(b'{"x":1,"unknown":' + b"[" * 1000 + b"]" * 1000 + b"}", type=P).x == 1


@pytest.mark.parametrize("depth", [1024, 1025, 100000], ids=str)
def test_deep_recursive_struct_is_decode_error_not_crash(depth):
    import boltwire
    from boltwire import DecodeError, json
    from typed_decode_diff import module_with

    Node = module_with(boltwire, """
        from typing import Optional

        class Node(lib.Struct):
            next: "Optional[Node]" = None
    """).Node
    buf = b'{"next":' * depth + b"null" + b"}" * depth
    if depth <= 1024:
        v = json.decode(buf, type=Node)
        n = 0
        while v is not None:
            v, n = v.next, n + 1
        assert n == depth
    else:
        with pytest.raises(DecodeError, match="maximum nesting depth"):
            json.decode(buf, type=Node)


# ---- dec_hook --------------------------------------------------------------------------------------------------

class Point2:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __eq__(self, other):
        return type(other) is Point2 and (self.x, self.y) == (other.x, other.y)

    def __repr__(self):
        return f"Point2({self.x}, {self.y})"


class Celsius(float):
    pass


def hook(tp, obj):
    if tp is Point2:
        if not isinstance(obj, list) or len(obj) != 2:
            raise ValueError("need [x, y]")
        return Point2(*obj)
    if tp is Celsius:
        if isinstance(obj, str):
            raise TypeError("numbers only")
        return Celsius(obj)
    raise NotImplementedError(f"no hook for {tp}")


@pytest.mark.parametrize("tp", [Point2, list[Point2], dict[str, Point2], typing.Optional[Point2], Celsius,
                                list[Celsius], complex], ids=repr)
@pytest.mark.parametrize("buf", [b"[1,2]", b"[[1,2],[3,4]]", b'{"a":[1,2]}', b"null", b"1.5", b"[1.5,2]", b'"x"',
                                 b'[1,2,3]', b'{"a":[1]}'], ids=repr)
def test_dec_hook_matches_msgspec(tp, buf):
    check_type(tp, buf, dec_hook=hook)
    check_decoder(lambda lib: tp, buf, dec_hook=hook)


def test_custom_type_without_hook_matches_msgspec():
    check_type(Point2, b"[1,2]")
    check_type(list[Point2], b"[[1,2]]")


def test_dec_hook_struct_field_path_matches_msgspec():
    def make(lib):
        class S(lib.Struct):
            p: Point2
            ps: list[Point2] = []

        return S

    for buf in (b'{"p":[1,2]}', b'{"p":[1,2],"ps":[[3,4],[5]]}', b'{"p":"x"}'):
        check(make, buf, dec_hook=hook)


def test_dec_hook_exception_other_than_type_value_error_propagates():
    from boltwire import json

    def bad(tp, obj):
        raise KeyError("boom")

    with pytest.raises(KeyError):
        json.decode(b"[1,2]", type=Point2, dec_hook=bad)


def test_dec_hook_must_be_callable():
    import msgspec

    from boltwire import json

    with pytest.raises(TypeError) as theirs:
        msgspec.json.Decoder(int, dec_hook=5)
    with pytest.raises(TypeError) as ours:
        json.Decoder(int, dec_hook=5)
    assert str(ours.value) == str(theirs.value)


# ---- decode_lines -----------------------------------------------------------------------------------------------

LINES = [b"", b"\n", b"1\n2\n3", b"1\n2\n3\n", b"1\r\n2\r\n", b"\n\n1\n\n2\n\n", b"1\n\"x\"\n3", b"1\nbad\n3",
         b"[1,2]\n[3]", b"  1  \n  2  ", b"1 2\n3", b"1\n[", b'{"x":1}\n{"x":2}', b'{"x":1}\n{"x":"a"}', b"1\n\n",
         b"1\n2 \n"]


@pytest.mark.parametrize("tp", [typing.Any, int, list[int]], ids=repr)
@pytest.mark.parametrize("buf", LINES, ids=repr)
def test_decode_lines_matches_msgspec(tp, buf):
    check_decoder(lambda lib: tp, buf, method="decode_lines")


@pytest.mark.parametrize("buf", LINES, ids=repr)
def test_decode_lines_struct_matches_msgspec(buf):
    check_decoder(point, buf, method="decode_lines")


@pytest.mark.parametrize("wrap", [bytes, bytearray, memoryview, lambda b: b.decode()], ids=["b", "ba", "mv", "s"])
def test_decode_lines_input_types(wrap):
    check_decoder(lambda lib: int, wrap(b"1\n2\n"), method="decode_lines")


def test_decoder_reuse_and_strict_flag_match_msgspec():
    for strict in (True, False):
        for buf in (b'"1"', b"1", b'{"x":"1"}'):
            check_decoder(lambda lib: int, buf, strict=strict)
            check_decoder(point, buf, strict=strict)
