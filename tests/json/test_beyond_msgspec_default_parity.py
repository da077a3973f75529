"""With field(extra=True) and tag_fallback=True unused, boltwire behaves byte for byte as msgspec: unknown keys
are skipped, unknown or missing tags fail with msgspec's error, encodings, configs and schemas are msgspec's.
Each case builds the same classes in both libraries and compares outcomes."""

import json as stdlib_json
from typing import Any, Union

import msgspec
import pytest
from typed_decode_diff import outcome

import boltwire

LIBS = [boltwire, msgspec]


def classes(lib):
    class Plain(lib.Struct):
        a: int
        b: str = ""

    class Forbid(lib.Struct, forbid_unknown_fields=True):
        a: int

    class Renamed(lib.Struct, rename="camel"):
        user_id: int
        extra: dict[str, Any] = {}

    class Click(lib.Struct, tag="click"):
        x: int

    class Key(lib.Struct, tag="key"):
        code: str

    class Arr(lib.Struct, array_like=True, tag="arr"):
        n: int

    return {"Plain": Plain, "Forbid": Forbid, "Renamed": Renamed, "Event": Union[Click, Key], "Arr": Arr,
            "Nested": list[Union[Click, Key]], "Instances": (Plain(1, "x"), Renamed(2, {"k": 1}), Click(3))}


TYPES = ["Plain", "Forbid", "Renamed", "Event", "Arr", "Nested"]
DOCS = [
    b'{"a": 1}',
    b'{"a": 1, "zz": [1, {"q": null}], "b": "x"}',
    b'{"userId": 1, "user_id": 2, "extra": {"k": 3}, "other": 4}',
    b'{"type": "click", "x": 1, "junk": true}',
    b'{"x": 1, "type": "key", "code": "c"}',
    b'{"type": "scroll", "x": 1}',
    b'{"x": 1}',
    b'{"type": 5}',
    b'["arr", 1, 2]',
    b'[{"type": "click", "x": 1}, {"type": "nope"}]',
    b'{"a": 1, "\xc3\xa9": 2}',
]


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("doc", DOCS)
def test_decoding_matches_msgspec(name, doc):
    ours, theirs = (classes(lib)[name] for lib in LIBS)
    got = outcome(lambda: boltwire.json.encode(boltwire.json.decode(doc, type=ours)))
    expected = outcome(lambda: msgspec.json.encode(msgspec.json.decode(doc, type=theirs)))
    assert got == expected


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("doc", DOCS)
def test_convert_and_msgpack_match_msgspec(name, doc):
    try:
        data = stdlib_json.loads(doc)
    except ValueError:
        return
    ours, theirs = (classes(lib)[name] for lib in LIBS)
    got = outcome(lambda: boltwire.to_builtins(boltwire.convert(data, ours)))
    expected = outcome(lambda: msgspec.to_builtins(msgspec.convert(data, theirs)))
    assert got == expected
    packed = msgspec.msgpack.encode(data)
    got = outcome(lambda: boltwire.msgpack.encode(boltwire.msgpack.decode(packed, type=ours)))
    expected = outcome(lambda: msgspec.msgpack.encode(msgspec.msgpack.decode(packed, type=theirs)))
    assert got == expected


def test_encodings_configs_and_schemas_match_msgspec():
    ours, theirs = classes(boltwire), classes(msgspec)
    for a, b in zip(ours["Instances"], theirs["Instances"]):
        assert boltwire.json.encode(a) == msgspec.json.encode(b)
        assert boltwire.msgpack.encode(a) == msgspec.msgpack.encode(b)
        assert boltwire.to_builtins(a) == msgspec.to_builtins(b)
        ca, cb = type(a).__struct_config__, type(b).__struct_config__
        names = [n for n in dir(cb) if not n.startswith("_")]
        assert [getattr(ca, n) for n in names] == [getattr(cb, n) for n in names]
        assert (ca.extra_field, ca.tag_fallback) == (None, False)
        assert "extra_field" not in repr(ca) and "tag_fallback" not in repr(ca)
    for name in TYPES:
        assert boltwire.json.schema(ours[name]) == msgspec.json.schema(theirs[name]), name
