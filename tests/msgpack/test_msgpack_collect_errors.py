"""collect_errors=True through msgpack.decode and msgpack.Decoder: the same errors, types and locs as JSON's
collect mode (tests/json/test_json_collect_errors.py, whose documents and types this reuses), MessagePack's own
cases (non-str keys of objects, bin values, truncated input after errors), and the single-error case raising
exactly the fail-fast exception."""

from typing import Any

import msgpack_diff  # noqa: F401 - puts tests/json on sys.path
import pytest
import test_json_collect_errors as jc

import boltwire as bw
from boltwire import msgpack as bm


# MessagePack decodes an untyped array inside a set item as a tuple (msgspec does: it must be hashable), so the
# JSON document's unhashable set item `[1]` is valid here; every other error is the same.
UNHASHABLE_IN_JSON = ("not_hashable", ("bag", 0))
EXPECTED = [e for e in jc.EXPECTED if e != UNHASHABLE_IN_JSON]
assert len(EXPECTED) == len(jc.EXPECTED) - 1


def collect(obj, tp, **kw):
    return bm.decode(bm.encode(obj), type=tp, collect_errors=True, **kw)


def fail_fast(obj, tp):
    return bm.decode(bm.encode(obj), type=tp)


def errors_of(fn, *args, **kw):
    with pytest.raises(bw.ValidationError) as info:
        fn(*args, **kw)
    return info.value, info.value.errors()


def test_every_error_type_is_collected_with_its_loc_in_input_order():
    exc, errors = errors_of(collect, jc.BAD_ORDER, jc.Order)
    assert [(e.type, e.loc) for e in errors] == EXPECTED
    lines = str(exc).split("\n")
    assert len(lines) == len(EXPECTED)
    ff, first = errors_of(fail_fast, jc.BAD_ORDER, jc.Order)
    assert lines[0] == str(ff)
    assert errors[0] == first[0]


def test_messages_are_the_json_collect_messages():
    # MessagePack words its errors as JSON does (msgspec's msgpack adds the length it got to a length error).
    _, mp = errors_of(collect, jc.BAD_ORDER, jc.Order)
    _, js = errors_of(jc.json_collect, jc.BAD_ORDER, jc.Order)
    js = [j for j in js if (j.type, j.loc) != UNHASHABLE_IN_JSON]
    assert [(e.type, e.loc) for e in mp] == [(e.type, e.loc) for e in js]
    assert all(m.msg.startswith(j.msg) for m, j in zip(mp, js))
    assert [e.msg for e in mp if e.msg != [j.msg for j in js if j.loc == e.loc][0]] == ["Expected `array` of length 2, got 3"]


def test_decoder_collects_and_reports_its_options():
    dec = bm.Decoder(jc.Order, collect_errors=True, max_errors=3)
    assert dec.collect_errors is True and dec.max_errors == 3
    with pytest.raises(bw.ValidationError) as info:
        dec.decode(bm.encode(jc.BAD_ORDER))
    assert [(e.type, e.loc) for e in info.value.errors()] == EXPECTED[:3]
    plain = bm.Decoder(jc.Order)
    assert plain.collect_errors is False and plain.max_errors == 100
    with pytest.raises(TypeError):
        bm.Decoder(jc.Order, max_errors="3")
    with pytest.raises(ValueError):
        bm.decode(b"\x80", type=jc.Order, collect_errors=True, max_errors=0)


def test_an_array_in_a_set_item_is_a_tuple_in_collect_mode_too():
    doc = {"id": 1, "items": [], "bag": [[1, 2]]}
    assert collect(doc, jc.Order).bag == fail_fast(doc, jc.Order).bag == {(1, 2)}


def test_valid_input_decodes_the_same():
    good = {"id": 1, "items": [{"name": "a", "price": 1.5}], "counts": {"x": 2}, "point": [3, 4]}
    assert collect(good, jc.Order) == fail_fast(good, jc.Order)


def test_a_single_error_raises_exactly_the_fail_fast_exception():
    doc = {"id": 1, "items": [{"name": "a", "price": "free"}]}
    ff, ff_errors = errors_of(fail_fast, doc, jc.Order)
    col, col_errors = errors_of(collect, doc, jc.Order)
    assert type(col) is type(ff) and str(col) == str(ff) == "Expected `float`, got `str` - at `$.items[0].price`"
    assert col_errors == ff_errors


def test_max_errors_caps_the_list():
    _, errors = errors_of(collect, jc.BAD_ORDER, jc.Order, max_errors=2)
    assert [(e.type, e.loc) for e in errors] == EXPECTED[:2]


def test_deep_nesting_array_like_tagged_and_dict_keyed():
    doc = jc.nested(60, 10)
    _, errors = errors_of(collect, doc, jc.Node)
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", ("children", 1) * (10 * n) + ("value",)) for n in range(1, 6)]
    _, errors = errors_of(collect, [[1, "y"], ["x", 2]], list[jc.Point])
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", (0, 1)), ("wrong_type", (1, 0))]
    _, errors = errors_of(collect, [{"kind": "circle", "r": "x"}, {"kind": "hexagon"}, {"kind": "square", "side": "y"}],
                          list[jc.Circle | jc.Square])
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", (0, "r")), ("invalid_tag", (1, "kind")),
                                                  ("wrong_type", (2, "side"))]
    _, errors = errors_of(collect, {1: "a", "x": "b", 3: 4}, dict[int, str])
    # a key that failed to decode has no value to name in the loc
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", ("[key]",)), ("wrong_type", (3,))]


def test_non_str_keys_of_an_object_are_stepped_over_with_their_value():
    # {1: "a", "id": "x", 2: [1, 2]} for a Struct: both int keys and the bad id are reported, in input order.
    buf = b"\x83\x01\xa1a\xa2id\xa1x\x02\x92\x01\x02"
    with pytest.raises(bw.ValidationError) as info:
        bm.decode(buf, type=jc.Order, collect_errors=True)
    types = [(e.type, e.loc) for e in info.value.errors()]
    assert types[:3] == [("wrong_type", ("[key]",)), ("wrong_type", ("id",)), ("wrong_type", ("[key]",))]
    assert ("missing", ()) in types
    with pytest.raises(bw.ValidationError) as ff:
        bm.decode(buf, type=jc.Order)
    assert info.value.errors()[0] == ff.value.errors()[0]


def test_truncated_input_after_errors_is_reported_last():
    buf = bm.encode([{"name": 1, "price": 1.0}, {"name": "b", "price": 2.0}])[:-3]
    with pytest.raises(bw.ValidationError) as info:
        bm.decode(buf, type=list[jc.Item], collect_errors=True)
    errors = info.value.errors()
    assert [e.type for e in errors] == ["wrong_type", "malformed"]
    assert str(info.value).split("\n")[1] == "Input data was truncated"
    with pytest.raises(bw.DecodeError) as ff:  # truncation before any error: fail-fast's DecodeError as is
        bm.decode(bm.encode([{"name": "a", "price": 1.0}])[:-3], type=list[jc.Item], collect_errors=True)
    assert type(ff.value) is bw.DecodeError


def test_bin_and_ext_values_of_the_wrong_type_are_stepped_over():
    _, errors = errors_of(collect, [b"xyz", "ok", bm.Ext(1, b"ab"), 4], list[str])
    assert [(e.type, e.loc, e.msg) for e in errors] == [
        ("wrong_type", (0,), "Expected `str`, got `bytes`"),
        ("wrong_type", (2,), "Expected `str`, got `ext`"),
        ("wrong_type", (3,), "Expected `str`, got `int`"),
    ]


def test_hook_errors_are_collected_and_other_exceptions_propagate():
    class Money:
        def __init__(self, v):
            self.v = v

    def hook(tp, obj):
        if obj == "boom":
            raise RuntimeError("boom")
        if not isinstance(obj, int):
            raise ValueError(f"bad money {obj!r}")
        return Money(obj)

    with pytest.raises(bw.ValidationError) as info:
        bm.decode(bm.encode(["a", 1, "b"]), type=list[Money], dec_hook=hook, collect_errors=True)
    assert [(e.type, e.loc, e.msg) for e in info.value.errors()] == [
        ("validator", (0,), "bad money 'a'"), ("validator", (2,), "bad money 'b'")]
    with pytest.raises(RuntimeError, match="boom"):
        bm.decode(bm.encode(["a", "boom"]), type=list[Money], dec_hook=hook, collect_errors=True)


def test_untyped_decoding_ignores_collect_errors():
    assert bm.decode(bm.encode({"a": [1, 2]}), collect_errors=True) == {"a": [1, 2]}
    assert bm.decode(bm.encode([1]), type=Any, collect_errors=True) == [1]
