"""Struct(tag_fallback=True): a tagged union's variant for tags no member claims (and for objects without a
tag). The fallback is untagged and holds the tag value in a field of its own. Every case runs through JSON,
msgpack and convert."""

from typing import Any, Union

import pytest

import boltwire as bw
from boltwire import Struct, ValidationError, field
from boltwire import json as bj
from boltwire import msgpack as bm


class Click(Struct, tag="click"):
    x: int


class Key(Struct, tag="key"):
    code: str


class Other(Struct, tag_fallback=True):
    type: str | None = None
    rest: dict[str, Any] = field(extra=True)


Event = Union[Click, Key, Other]


def decode_all(data: dict, tp: Any) -> list:
    return [bj.decode(bj.encode(data), type=tp), bm.decode(bm.encode(data), type=tp), bw.convert(data, tp)]


@pytest.mark.parametrize(
    "data, expected",
    [
        ({"type": "click", "x": 1}, Click(1)),
        ({"code": "a", "type": "key"}, Key("a")),
        ({"type": "scroll", "dy": 3}, Other("scroll", {"dy": 3})),
        ({"dy": 3, "type": "zoom"}, Other("zoom", {"dy": 3})),
        ({"dy": 3}, Other(None, {"dy": 3})),
        ({}, Other(None, {})),
        ({"type": None}, Other(None, {})),
    ],
)
def test_known_tags_pick_their_class_and_the_rest_fall_back(data, expected):
    for got in decode_all(data, Event):
        assert got == expected and type(got) is type(expected)


def test_the_tag_value_stays_readable_and_round_trips():
    got = bj.decode(b'{"type":"scroll","dy":3,"dx":[1]}', type=Event)
    assert got.type == "scroll"
    assert bj.encode(got) == b'{"type":"scroll","dy":3,"dx":[1]}'
    assert bj.decode(bj.encode(got), type=Event) == got
    assert bm.decode(bm.encode(got), type=Event) == got


def test_the_fallback_field_type_still_validates_the_tag():
    for decode in (lambda d: bj.decode(bj.encode(d), type=Event), lambda d: bw.convert(d, Event)):
        with pytest.raises(ValidationError, match=r"Expected `str \| null`, got `int` - at `\$.type`"):
            decode({"type": 5})


def test_without_a_default_a_missing_tag_is_a_missing_field():
    class Strict(Struct, tag_fallback=True):
        type: str

    with pytest.raises(ValidationError, match="Object missing required field `type`"):
        bj.decode(b'{"x": 1}', type=Union[Click, Strict])
    assert bj.decode(b'{"type": "q", "x": 1}', type=Union[Click, Strict]) == Strict("q")


def test_the_fallback_may_come_first_and_a_lone_fallback_is_a_plain_struct():
    assert bj.decode(b'{"type": "click", "x": 1}', type=Union[Other, Click]) == Click(1)
    assert bj.decode(b'{"type": "nope"}', type=Union[Other, Click]) == Other("nope")
    assert bj.decode(b'{"type": "click", "x": 1}', type=Other) == Other("click", {"x": 1})
    assert bj.decode(b"null", type=Union[Click, Other, None]) is None


def test_int_tags_and_a_renamed_tag_field():
    class One(Struct, tag=1, tag_field="kind"):
        a: int

    class Rest(Struct, tag_fallback=True, rename={"kind_": "kind"}):
        kind_: int
        rest: dict[str, Any] = field(extra=True)

    tp = Union[One, Rest]
    for got in decode_all({"kind": 1, "a": 2}, tp):
        assert got == One(2)
    for got in decode_all({"kind": 9, "a": 2}, tp):
        assert got == Rest(9, {"a": 2})
    assert bj.encode(Rest(9, {"a": 2})) == b'{"kind":9,"a":2}'


def test_a_fallback_under_a_tagged_base_is_untagged():
    class Base(Struct, tag_field="kind"):
        pass

    class A(Base, tag="a"):
        n: int

    class Unknown(Base, tag_fallback=True):
        kind: str

    assert Unknown.__struct_config__.tag is None and Unknown.__struct_config__.tag_fallback
    assert bj.decode(b'{"kind": "b", "n": 1}', type=Union[A, Unknown]) == Unknown("b")
    assert bj.decode(b'{"kind": "a", "n": 1}', type=Union[A, Unknown]) == A(1)

    class Sub(Unknown):  # the option names one class: subclasses are not fallbacks
        pass

    assert not Sub.__struct_config__.tag_fallback


def test_convert_passes_a_fallback_instance_through():
    other = Other("x", {})
    assert bw.convert(other, Event) is other


def test_malformed_json_after_an_unknown_tag_is_still_malformed():
    with pytest.raises(bw.DecodeError, match="malformed"):
        bj.decode(b'{"type": "zz", "a": tru}', type=Event)


@pytest.mark.parametrize(
    "body, message",
    [
        ("class F(Struct, tag_fallback=True, tag='x'):\n type: str", "cannot also set `tag`"),
        ("class F(Struct, tag_fallback=True, tag_field='k'):\n type: str", "cannot also set `tag_field`"),
        ("class F(Struct, tag_fallback=True, array_like=True):\n type: str", "array_like"),
    ],
)
def test_bad_fallback_classes_are_refused(body, message):
    with pytest.raises(TypeError, match=message):
        exec(body, {"Struct": Struct})


def test_bad_fallback_unions_are_refused():
    class NoTagField(Struct, tag_fallback=True):
        y: int = 0

    class Second(Struct, tag_fallback=True):
        type: str = ""

    with pytest.raises(TypeError, match="must have a field named 'type'"):
        bj.decode(b"{}", type=Union[Click, NoTagField])
    with pytest.raises(TypeError, match="only one `tag_fallback=True`"):
        bj.decode(b"{}", type=Union[Click, Other, Second])
    with pytest.raises(TypeError, match="must be tagged"):
        bj.decode(b"{}", type=Union[Click, Other, bw.inspect.Field])


def test_schema_lists_the_fallback_without_an_exhaustive_discriminator():
    schema = bj.schema(Event)
    assert schema["anyOf"] == [{"$ref": "#/$defs/Click"}, {"$ref": "#/$defs/Key"}, {"$ref": "#/$defs/Other"}]
    assert "discriminator" not in schema
    assert schema["$defs"]["Other"]["properties"] == {"type": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}}
    assert schema["$defs"]["Other"]["additionalProperties"] is True
    # without a fallback the union keeps msgspec's discriminator
    assert "discriminator" in bj.schema(Union[Click, Key])


def test_inspect_and_config_show_the_option():
    assert bw.inspect.type_info(Other).tag_fallback is True
    assert "tag_fallback=True" in repr(Other.__struct_config__)
    assert Click.__struct_config__.tag_fallback is False


def test_fallback_decoding_leaks_nothing():
    from test_leaks import RSS_NOISE, UNDER_ASAN, measure

    docs = [b'{"type":"zz","k":1}', b'{"k":1}', b'{"type":"click","x":1}']

    def op():
        for doc in docs:
            bj.decode(doc, type=Event), bw.convert(bj.decode(doc), Event), bm.decode(bm.encode(bj.decode(doc)), type=Event)
        with pytest.raises(ValidationError):
            bj.decode(b'{"type":5}', type=Event)

    growth, refs = measure(op, [Click, Other], iterations=20_000, warmup=2_000)
    assert refs == [0, 0]
    assert UNDER_ASAN or growth < RSS_NOISE, f"RSS grew by {growth} bytes"
