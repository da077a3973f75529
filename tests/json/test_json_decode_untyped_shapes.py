"""Untyped JSON decoding of repeated objects: the decoder stamps an object from the keys of the last object seen in
its place (csrc/json/decode_any.cpp, "object shapes"). Every way a later object can differ from that shape must
decode exactly as the standard library does, key order, duplicate keys, GC tracking and errors included."""

import gc
import json
import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boltwire
from boltwire._core import _json_decode_any as decode
from boltwire._errors import DecodeError


def ordered(value):
    """The value with every dict as its list of items, so that comparisons see key order."""
    if isinstance(value, dict):
        return [(k, ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [ordered(v) for v in value]
    return value


def check(text):
    for data in (text, text.encode()):
        assert ordered(decode(data)) == ordered(json.loads(data))


RECORD = '{"id": 1, "name": "x", "tags": [1, 2], "loc": {"lat": 1.5, "lon": 2.5}}'


@pytest.mark.parametrize(
    "variant",
    [
        RECORD,  # the shape itself
        '{"id": 1, "name": "x", "tags": [1, 2]}',  # fewer members
        '{"id": 1}',
        '{"id": 1, "name": "x", "tags": [1, 2], "loc": {"lat": 1.5, "lon": 2.5}, "extra": null}',  # more
        '{"name": "x", "id": 1, "tags": [], "loc": {}}',  # another order
        '{"id": 1, "name": "x", "tags": [1, 2], "id": 7}',  # a repeated key after matched members
        '{"id": 1, "id": 2, "name": "x", "tags": [1, 2], "loc": null}',
        '{"i\\u0064": 1, "name": "x", "tags": [1, 2], "loc": {"lat": 1.5, "lon": 2.5}}',  # an escaped equal key
        '{"id": 1, "n\\u0061me": "x", "tags": [1, 2], "loc": {"lat": 1.5, "lon": 2.5}}',
        '{"id": 1, "nam": "x", "tags": [1, 2], "loc": {"lat": 1.5, "lon": 2.5}}',  # a prefix of a key
        '{"id": 1, "namex": "x", "tags": [1, 2], "loc": {"lat": 1.5, "lon": 2.5}}',  # a longer key
        '{"id": 1, "name": "x", "tags": [1, 2], "loc": {"lat": 1.5, "lat": 2.5}}',
        '{ "id" : 1 ,\n "name":"x","tags":[1,2],"loc":{"lat":1.5,"lon":2.5} }',  # whitespace everywhere
        '{"id": {"id": {"id": 1}}, "name": [{"name": 1}], "tags": {"tags": []}, "loc": [{"lat": 1}]}',
        "{}",
        "[]",
        "1",
    ],
)
def test_objects_differing_from_the_shape_decode_as_the_stdlib(variant):
    # The first records teach the shape; the variant comes after them, then the shape again.
    check(f"[{RECORD}, {RECORD}, {variant}, {RECORD}, {variant}, {variant}, {RECORD}]")


@pytest.mark.parametrize(
    "key",
    ['a\\"b', "a\\\\b", "a\\nb", "a\\u0000b", "\u00e9t\u00e9", "\u65e5\u672c", "\U0001f680", "k" * 30, "k" * 300, ""],
)
def test_keys_that_cannot_be_compared_raw_decode_as_the_stdlib(key):
    # Keys needing an escape or outside ASCII never become part of a shape; long and empty keys may.
    record = f'{{"a": 1, "{key}": [2], "b": 3}}'
    plain = json.loads(record)
    lookalike = json.dumps(plain, ensure_ascii=True)  # the same keys written another way
    check(f"[{record}, {record}, {lookalike}, {record}, {lookalike}]")


def test_many_keys_and_wide_objects():
    wide = json.dumps({f"k{i}": i for i in range(200)})
    narrow = json.dumps({f"k{i}": i for i in range(64)})
    check(f"[{wide}, {wide}, {narrow}, {narrow}, {narrow}, {wide}]")


def test_alternating_and_changing_shapes():
    a = '{"x": 1, "y": [2]}'
    b = '{"p": "q", "r": {"s": 1}}'
    c = '{"x": 1, "z": 2}'  # shares the first key with `a`
    items = [a, b] * 5 + [a, c] * 5 + [c] * 5 + [a] * 3
    check("[" + ", ".join(items) + "]")
    check('{"one": ' + a + ', "two": ' + b + ', "three": [' + ", ".join(items) + "]}")


def test_shapes_carry_across_calls_and_results_stay_private():
    first = decode(b'[{"a": 1, "b": 2}, {"a": 3, "b": 4}]')
    for d in first:
        d["a"] = "changed"
        d["new"] = 1
        del d["b"]
    second = decode(b'[{"a": 5, "b": 6}, {"a": 7, "b": 8}]')
    assert ordered(second) == [[("a", 5), ("b", 6)], [("a", 7), ("b", 8)]]
    assert first[0] == {"a": "changed", "new": 1}


def test_gc_tracking_matches_the_stdlib():
    # A dict is tracked by the collector exactly when it holds a container, as CPython's own inserts leave it.
    text = '[{"a": 1, "b": "s"}, {"a": [1], "b": "s"}, {"a": 1, "b": {}}, {"a": 1, "b": "s"}, {"a": 1, "b": null}]'
    for _ in range(3):
        got, expected = decode(text), json.loads(text)
        assert [gc.is_tracked(d) for d in got] == [gc.is_tracked(d) for d in expected] == [
            False, True, True, False, False]


def test_a_collection_while_a_shaped_object_fills_is_safe():
    # Each record holds lists, so allocations while it fills run the collector (threshold 1).
    thresholds = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    try:
        text = "[" + ", ".join('{"a": [1, [2]], "b": {"c": [3]}, "d": "e"}' for _ in range(200)) + "]"
        for _ in range(5):
            assert decode(text) == json.loads(text)
    finally:
        gc.set_threshold(*thresholds)


def test_a_float_hook_decoding_the_same_shapes_from_inside():
    inner = b'[{"a": 1, "b": [2]}, {"a": 3, "b": [4]}]'
    seen = []

    def hook(text):
        seen.append(decode(inner))
        return float(text)

    dec = boltwire.json.Decoder(float_hook=hook)
    text = b'[{"a": 1.5, "b": [2]}, {"a": 2.5, "b": [4]}, {"a": 1, "b": [3.5]}]'
    assert ordered(dec.decode(text)) == ordered(json.loads(text))
    assert [ordered(s) for s in seen] == [ordered(json.loads(inner))] * 3


def test_malformed_shaped_objects_raise_msgspecs_errors():
    # Every truncation and many byte mutations of the records after the first: msgspec's message and offset.
    record = '{"id": 12, "name": "x\\u00e9", "tags": [1, 2.5], "loc": {"lat": 1.5, "ok": true}}'
    doc = f"[{record}, {record}, {record}]".encode()
    start = len(record) + 3
    rng = random.Random(20261202)
    cases = [doc[:i] for i in range(start, len(doc))]
    for _ in range(3000):
        data = bytearray(doc)
        i = rng.randrange(start, len(data))
        data[i] = rng.choice(b'"{}[],: \\x1aeE.-+0\xff')
        cases.append(bytes(data))
    for data in cases:
        try:
            expected = msgspec.json.decode(data)
        except msgspec.DecodeError as e:
            with pytest.raises(DecodeError) as info:
                decode(data)
            assert str(info.value) == str(e), data
        else:
            assert ordered(decode(data)) == ordered(expected), data


keys = st.sampled_from(["a", "b", "c", "id", "name", "a\\u0062", 'q"', "\u00e9"])
records = st.recursive(
    st.none() | st.integers(-5, 5) | st.text(max_size=3),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(records, max_size=12), st.randoms(use_true_random=False))
def test_lists_of_similar_records_decode_as_the_stdlib(items, rng):
    # Records drawn from few keys repeat each other's shapes, whole or in part.
    items = items + [rng.choice(items) for _ in range(len(items))] if items else items
    check(json.dumps(items))
    check(json.dumps({"k": items, "m": [items, items]}))
