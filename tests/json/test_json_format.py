"""boltwire.json.format against msgspec.json.format: layouts for every indent, str/bytes in and out, errors."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boltwire
from boltwire import json

msgspec = pytest.importorskip("msgspec")

DOCS = [
    b'{"a": [1, 2, {"b": null}], "c": {}, "d": [], "e": "x\\"y , : [", "f": [[]], "g": [{}]}',
    b"  1  ",
    b"[ ]",
    b" { } ",
    b'"just a string with \\u00e9 and \\n"',
    b"[true, false, null, -0, 1.5e10, 1E-3, 12345678901234567890123]",
    b'{"nested": {"deeper": {"deepest": [1, [2, [3, []]]]}}}',
    '{"unicode": "h\u00e9llo \u65e5\u672c \U0001f600"}'.encode(),
    b'\n\t{\r\n"a"\t:\n1 ,"b":[ 1 ,2 ] }\n',
]
INDENTS = [2, 0, -1, 4, 1, -5, 8]


@pytest.mark.parametrize("indent", INDENTS)
@pytest.mark.parametrize("doc", DOCS)
def test_matches_msgspec_bytes(doc, indent):
    assert json.format(doc, indent=indent) == msgspec.json.format(doc, indent=indent)


@pytest.mark.parametrize("doc", DOCS)
def test_default_indent_and_input_types(doc):
    expected = msgspec.json.format(doc)
    assert json.format(doc) == expected
    assert json.format(bytearray(doc)) == expected
    assert json.format(memoryview(doc)) == expected
    text = json.format(doc.decode())
    assert isinstance(text, str) and text == expected.decode()


def test_exact_layouts():
    doc = b'{"a":[1,{"b":2}],"c":[]}'
    assert json.format(doc, indent=2) == b'{\n  "a": [\n    1,\n    {\n      "b": 2\n    }\n  ],\n  "c": []\n}'
    assert json.format(doc, indent=0) == b'{"a": [1, {"b": 2}], "c": []}'
    assert json.format(doc, indent=-1) == b'{"a":[1,{"b":2}],"c":[]}'
    assert json.format(b" [1 , 2] ", indent=True) == b"[\n 1,\n 2\n]"


BAD = [
    (b"[1,", "Input data was truncated"),
    (b'{"a" 1}', "expected ':'"),
    (b"", "Input data was truncated"),
    (b"[1] 2", "trailing characters"),
    (b"nul", "Input data was truncated"),
    (b"nulx", "invalid character"),
    (b"[01]", "invalid number"),
    (b'"\\x"', "invalid escape"),
    (b"[1,]", "trailing comma in array"),
    (b'{"a":1,}', "trailing comma in object"),
    (b"[1 2]", "expected ',' or ']'"),
    (b'{"a":1 "b":2}', "expected ',' or '}'"),
    (b"{1:2}", "expected '\"'"),
    (b"@", "invalid character"),
    (b'"\x01"', "character"),
]


@pytest.mark.parametrize("doc,message", BAD)
def test_malformed_raises_decode_error(doc, message):
    with pytest.raises(boltwire.DecodeError, match=message):
        json.format(doc)
    with pytest.raises(msgspec.DecodeError):
        msgspec.json.format(doc)


def test_invalid_utf8_is_rejected():
    # Stricter than msgspec.json.format, which copies the bytes through: the decoder's RFC 8259 rules apply.
    with pytest.raises(boltwire.DecodeError):
        json.format(b'"\xff"')
    with pytest.raises(boltwire.DecodeError):
        json.format(b'["\xc3"]')


def test_depth_limit():
    with pytest.raises(boltwire.DecodeError, match="depth"):
        json.format(b"[" * 100000 + b"]" * 100000)


def test_argument_errors():
    with pytest.raises(TypeError):
        json.format(1)
    with pytest.raises(TypeError):
        json.format(b"[]", indent=None)
    with pytest.raises(TypeError):
        json.format(b"[]", 2)
    with pytest.raises(TypeError):
        json.format(b"[]", spaces=2)
    with pytest.raises(TypeError):
        json.format()
    assert json.format(buf=b"[1]", indent=-1) == b"[1]"


def test_roundtrip_with_encoder():
    value = {"a": [1, 2.5, "x", None, True, {"b": []}], "c": {"d": "é"}}
    for indent in INDENTS:
        assert json.format(json.encode(value), indent=indent) == msgspec.json.format(msgspec.json.encode(value), indent=indent)


documents = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(), children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(documents, st.sampled_from(INDENTS))
def test_hypothesis_matches_msgspec(value, indent):
    try:
        doc = msgspec.json.encode(value)
    except UnicodeEncodeError:
        return
    spaced = msgspec.json.format(doc, indent=indent)
    assert json.format(doc, indent=indent) == spaced
    assert json.format(spaced, indent=indent) == spaced
