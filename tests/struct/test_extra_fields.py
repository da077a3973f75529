"""field(extra=True): a Struct keeps the object keys no other field matches, and writes them back after its
known fields. Every decode case runs through JSON, msgpack and convert; every encode case through JSON,
msgpack and to_builtins."""

import copy
import pickle
from typing import Any

import pytest

import boltwire as bw
from boltwire import Raw, Struct, ValidationError, field
from boltwire import json as bj
from boltwire import msgpack as bm
from boltwire.structs import asdict, replace


class Doc(Struct):
    id: int
    name: str = ""
    extra: dict[str, Any] = field(extra=True)


class Ints(Struct):
    id: int
    rest: dict[str, int] = field(extra=True)


class Passthrough(Struct):
    id: int
    rest: dict[str, Raw] = field(extra=True)


class Inner(Struct):
    v: int
    more: dict[str, Any] = field(extra=True)


class Outer(Struct):
    inner: Inner
    items: list[Inner] = []
    more: dict[str, Any] = field(extra=True)


def decode_all(data: dict, tp: Any) -> list:
    """`data` decoded as `tp` by the three readers (JSON text, msgpack bytes, builtins)."""
    return [bj.decode(bj.encode(data), type=tp), bm.decode(bm.encode(data), type=tp), bw.convert(data, tp)]


def encode_all(obj: Any) -> list:
    """`obj` written by the three writers, read back untyped."""
    return [bj.decode(bj.encode(obj)), bm.decode(bm.encode(obj)), bw.to_builtins(obj)]


# ---- decoding -------------------------------------------------------------------------------------------------


def test_unknown_keys_are_kept_in_input_order_by_every_reader():
    data = {"z": 1, "id": 3, "b": [1, {"x": None}], "name": "n", "a": "s"}
    for got in decode_all(data, Doc):
        assert got == Doc(3, "n", {"z": 1, "b": [1, {"x": None}], "a": "s"})
        assert list(got.extra) == ["z", "b", "a"]


def test_no_unknown_keys_gives_an_empty_dict_per_instance():
    a, b = bj.decode(b'{"id": 1}', type=Doc), bj.decode(b'{"id": 2}', type=Doc)
    assert a.extra == {} and b.extra == {}
    assert a.extra is not b.extra
    assert Doc(1).extra == {} and Doc(1).extra is not Doc(1).extra


def test_values_decode_as_the_dict_value_type_and_errors_name_the_key():
    for got in decode_all({"id": 1, "n": 5}, Ints):
        assert got == Ints(1, {"n": 5})
    with pytest.raises(ValidationError, match=r"Expected `int`, got `str` - at `\$.n`"):
        bj.decode(b'{"id": 1, "n": "x"}', type=Ints)
    with pytest.raises(ValidationError, match=r"Expected `int`, got `str` - at `\$.n`"):
        bw.convert({"id": 1, "n": "x"}, Ints)
    with pytest.raises(ValidationError, match=r"Expected `int`, got `str` - at `\$.n`"):
        bm.decode(bm.encode({"id": 1, "n": "x"}), type=Ints)


def test_unicode_and_escaped_keys_are_kept_as_text():
    raw = '{"id": 1, "caf\\u00e9": 1, "日本": 2, "a\\"b": 3, "tab\\t": 4}'.encode()
    got = bj.decode(raw, type=Doc)
    assert got.extra == {"café": 1, "日本": 2, 'a"b': 3, "tab\t": 4}
    assert bj.decode(bj.encode(got), type=Doc) == got
    assert bm.decode(bm.encode(got), type=Doc) == got


def test_a_key_that_is_not_utf8_is_a_decode_error():
    with pytest.raises(bw.DecodeError):
        bj.decode(b'{"id": 1, "\xff\xfe": 2}', type=Doc)


def test_a_repeated_unknown_key_keeps_its_first_place_and_last_value():
    got = bj.decode(b'{"a": 1, "id": 1, "b": 2, "a": 3}', type=Doc)
    assert list(got.extra.items()) == [("a", 3), ("b", 2)]


def test_the_extras_field_own_name_is_an_unknown_key_like_any_other():
    got = bj.decode(b'{"id": 1, "extra": {"x": 1}}', type=Doc)
    assert got.extra == {"extra": {"x": 1}}
    assert bw.convert({"id": 1, "extra": 5}, Doc).extra == {"extra": 5}
    assert bj.encode(got) == b'{"id":1,"name":"","extra":{"x":1}}'


def test_nested_structs_keep_their_own_extras():
    data = {"inner": {"v": 1, "i": "x"}, "items": [{"v": 2, "j": [1]}], "o": True}
    for got in decode_all(data, Outer):
        assert got == Outer(Inner(1, {"i": "x"}), [Inner(2, {"j": [1]})], {"o": True})
    assert bj.decode(bj.encode(data), type=Outer) == bj.decode(bj.encode(bj.decode(bj.encode(data), type=Outer)), type=Outer)


def test_convert_keeps_the_unknown_keys_of_any_mapping_and_reads_objects_by_attribute():
    import types

    assert bw.convert(types.MappingProxyType({"id": 1, "x": 2}), Doc) == Doc(1, "", {"x": 2})

    class Obj:
        id = 1
        extra = {"y": 1}

    assert bw.convert(Obj(), Doc, from_attributes=True) == Doc(1, "", {"y": 1})


def test_decoder_level_forbid_unknown_fields_leaves_a_keeping_class_alone():
    dec = bj.Decoder(Outer, forbid_unknown_fields=True)
    assert dec.decode(b'{"inner": {"v": 1, "x": 2}}').inner.more == {"x": 2}


# ---- encoding -------------------------------------------------------------------------------------------------


def test_extras_are_written_after_the_known_fields_by_every_writer():
    doc = Doc(1, "n", {"z": 1, "a": [2]})
    assert bj.encode(doc) == b'{"id":1,"name":"n","z":1,"a":[2]}'
    for out in encode_all(doc):
        assert list(out.items()) == [("id", 1), ("name", "n"), ("z", 1), ("a", [2])]


def test_round_trip_is_exact_for_documents_with_known_fields_first():
    text = b'{"id":7,"name":"x","k1":{"deep":[1,2.5,"s",null,true]},"k2":"\xc3\xa9"}'
    assert bj.encode(bj.decode(text, type=Doc)) == text
    packed = bm.encode(bj.decode(text))
    assert bm.encode(bm.decode(packed, type=Doc)) == packed


def test_raw_values_reencode_byte_for_byte():
    text = b'{"id":1,"a":  [1, 2,3 ] ,"b":{"x" : 1.50e3, "y":"\\u00e9\\n"},"c":-0.0,"d":"\xe6\x97\xa5"}'
    got = bj.decode(text, type=Passthrough)
    assert [bytes(v) for v in got.rest.values()] == [b"[1, 2,3 ]", b'{"x" : 1.50e3, "y":"\\u00e9\\n"}', b"-0.0", b'"\xe6\x97\xa5"']
    assert bj.encode(got) == b'{"id":1,"a":[1, 2,3 ],"b":{"x" : 1.50e3, "y":"\\u00e9\\n"},"c":-0.0,"d":"\xe6\x97\xa5"}'


def test_order_sorted_sorts_extras_with_the_fields():
    doc = Doc(1, "n", {"zz": 1, "a": 2})
    assert bj.encode(doc, order="sorted") == b'{"a":2,"id":1,"name":"n","zz":1}'
    assert list(bw.to_builtins(doc, order="sorted")) == ["a", "id", "name", "zz"]


def test_omit_defaults_and_unset_apply_to_known_fields_only():
    class Sparse(Struct, omit_defaults=True):
        a: int = 0
        b: Any = bw.UNSET
        rest: dict[str, Any] = field(extra=True)

    assert bj.encode(Sparse()) == b"{}"
    assert bj.encode(Sparse(0, bw.UNSET, {"x": 0})) == b'{"x":0}'
    assert bm.decode(bm.encode(Sparse(1, 2, {"x": 0}))) == {"a": 1, "b": 2, "x": 0}


def test_a_key_that_would_repeat_a_written_key_is_refused():
    class Tagged(Struct, tag="t"):
        a: int
        rest: dict[str, Any] = field(extra=True)

    for bad in ({"a": 2}, {"type": "u"}):
        for encode in (bj.encode, bm.encode, bw.to_builtins):
            with pytest.raises(ValueError, match="written twice"):
                encode(Tagged(1, bad))
    with pytest.raises(TypeError, match="must be str"):
        bj.encode(Doc(1, "", {1: 2}))
    with pytest.raises(TypeError, match="must hold a dict"):
        bj.encode(Doc(1, "", [1]))


# ---- options and the rest of the Struct API ---------------------------------------------------------------


def test_tagged_class_consumes_its_tag_and_keeps_the_rest():
    class Ev(Struct, tag="ev"):
        n: int
        rest: dict[str, Any] = field(extra=True)

    got = bj.decode(b'{"x": 1, "type": "ev", "n": 2}', type=Ev)
    assert got == Ev(2, {"x": 1})
    assert bj.encode(got) == b'{"type":"ev","n":2,"x":1}'
    with pytest.raises(ValidationError, match="Invalid value 'no'"):
        bj.decode(b'{"type": "no", "n": 2}', type=Ev)


def test_rename_applies_to_fields_and_leaves_kept_keys_verbatim():
    class Camel(Struct, rename="camel"):
        user_id: int
        rest: dict[str, Any] = field(extra=True)

    for got in decode_all({"userId": 1, "user_id": 2, "other_key": 3}, Camel):
        assert got == Camel(1, {"user_id": 2, "other_key": 3})
    assert bj.encode(Camel(1, {"user_id": 2})) == b'{"userId":1,"user_id":2}'


def test_inheritance_keeps_the_extras_field_and_a_redefinition_drops_its_role():
    class Base(Struct):
        a: int
        rest: dict[str, Any] = field(extra=True)

    class Child(Base):
        b: int = 0

    class Plain(Base):
        rest: dict[str, Any] = {}

    assert Child.__struct_config__.extra_field == "rest"
    assert bj.decode(b'{"a": 1, "b": 2, "c": 3}', type=Child) == Child(1, {"c": 3}, 2)
    assert Plain.__struct_config__.extra_field is None
    assert bj.decode(b'{"a": 1, "rest": {"x": 1}, "c": 3}', type=Plain) == Plain(1, {"x": 1})


def test_eq_repr_copy_replace_pickle_and_asdict_treat_it_as_a_field():
    doc = Doc(1, "n", {"k": [1]})
    assert doc == Doc(1, "n", {"k": [1]}) and doc != Doc(1, "n", {})
    assert repr(doc) == "Doc(id=1, name='n', extra={'k': [1]})"
    assert copy.copy(doc) == doc and copy.deepcopy(doc).extra["k"] is not doc.extra["k"]
    assert replace(doc, extra={"q": 1}) == Doc(1, "n", {"q": 1})
    assert pickle.loads(pickle.dumps(doc)) == doc
    assert asdict(doc) == {"id": 1, "name": "n", "extra": {"k": [1]}}  # asdict is per field; to_builtins is the wire
    assert bw.to_builtins(doc) == {"id": 1, "name": "n", "k": [1]}


def test_validate_on_init_checks_the_extras_values():
    class Checked(Struct, validate_on_init=True):
        a: int
        rest: dict[str, int] = field(extra=True)

    assert Checked(1, {"x": 2}).rest == {"x": 2}
    with pytest.raises(ValidationError):
        Checked(1, {"x": "no"})


def test_config_and_field_spec_show_the_option():
    assert Doc.__struct_config__.extra_field == "extra"
    assert "extra_field='extra'" in repr(Doc.__struct_config__)
    assert bw.field(extra=True).extra is True and bw.field().extra is False
    assert "extra=True" in repr(bw.field(extra=True))


@pytest.mark.parametrize(
    "body, message",
    [
        ("class X(Struct, forbid_unknown_fields=True):\n e: dict[str, Any] = field(extra=True)", "forbid_unknown_fields"),
        ("class X(Struct, array_like=True):\n e: dict[str, Any] = field(extra=True)", "array_like"),
        ("class X(Struct):\n e: dict[str, Any] = field(extra=True)\n f: dict[str, Any] = field(extra=True)", "only one"),
        ("X = field(extra=True, name='x')", "no `name`"),
        ("X = field(extra=True, aliases=['x'])", "no `name`"),
    ],
)
def test_bad_definitions_are_refused(body, message):
    with pytest.raises(TypeError, match=message):
        exec(body, {"Struct": Struct, "field": field, "Any": Any})


@pytest.mark.parametrize("annotation", ["list[int]", "dict[int, int]", "dict[str, int] | None", "Any"])
def test_the_extras_field_must_be_a_str_keyed_dict(annotation):
    ns: dict = {"Struct": Struct, "field": field, "Any": Any}
    exec(f"class X(Struct):\n e: {annotation} = field(extra=True)", ns)
    with pytest.raises(TypeError, match=r"must be annotated `dict\[str, V\]`"):
        bj.decode(b"{}", type=ns["X"])


# ---- JSON Schema and inspect ------------------------------------------------------------------------------


def test_schema_lists_known_fields_and_types_the_rest_as_additional_properties():
    schema = bj.schema(Ints)["$defs"]["Ints"]
    assert schema["properties"] == {"id": {"type": "integer"}}
    assert schema["additionalProperties"] == {"type": "integer"}
    assert bj.schema(Doc)["$defs"]["Doc"]["additionalProperties"] is True


def test_inspect_reports_the_extras_field():
    info = bw.inspect.type_info(Doc)
    assert info.extra_field == "extra" and info.tag_fallback is False
    assert [f.name for f in info.fields] == ["id", "name", "extra"]


# ---- leaks ------------------------------------------------------------------------------------------------


def test_kept_fields_and_their_errors_leak_nothing():
    from test_leaks import RSS_NOISE, UNDER_ASAN, measure

    doc = b'{"id":1,"a":[1,{"b":2}],"\\u00e9":"x","c":3}'
    packed, data = bm.encode(bj.decode(doc)), bj.decode(doc)

    def op():
        d = bj.decode(doc, type=Doc)
        bj.encode(d), bm.encode(d), bw.to_builtins(d), bj.encode(d, order="sorted")
        bm.decode(packed, type=Doc), bw.convert(data, Doc), bj.encode(bj.decode(doc, type=Passthrough))
        for bad in (b'{"id":1,"q":"x"}', b'{"id":1,"\xff":1}'):
            with pytest.raises((ValidationError, bw.DecodeError)):
                bj.decode(bad, type=Ints)
        for encode in (bj.encode, bm.encode, bw.to_builtins):
            with pytest.raises(ValueError):
                encode(Doc(1, "", {"id": 2}))

    growth, refs = measure(op, [Doc, Ints, Passthrough], iterations=20_000, warmup=2_000)
    assert refs == [0, 0, 0]
    assert UNDER_ASAN or growth < RSS_NOISE, f"RSS grew by {growth} bytes"
