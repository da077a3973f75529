"""Dict iteration in encode / to_builtins (a direct entry reader on 3.11-3.12): every dict shape, and dicts
changed by an enc_hook while they are walked."""

import collections
import json as stdlib_json

import msgspec
import pytest

from boltwire import json, to_builtins


class Obj:
    pass


def shapes():
    deleted = {f"k{i}": i for i in range(50)}
    for i in range(0, 50, 3):
        del deleted[f"k{i}"]
    big = {f"key{i}": i for i in range(70000)}
    mixed = {1: "a", 2.5: "b", "c": 3}

    class Attrs:
        def __init__(self):
            self.a, self.b = 1, 2

    split = Attrs().__dict__  # a split-table (shared keys) dict
    return [{}, {"a": 1}, deleted, big, mixed, {i: i for i in range(300)}, collections.OrderedDict(b=1, a=2),
            split, dict(split)]


@pytest.mark.parametrize("index", range(9))
def test_shapes_match_msgspec(index):
    value = shapes()[index]
    assert json.encode(value) == msgspec.json.encode(value)
    assert to_builtins(value) == msgspec.to_builtins(value)
    assert list(to_builtins(value)) == list(msgspec.to_builtins(value))


def test_hook_growing_the_dict_is_followed_without_crashing():
    d = {"a": Obj(), "b": 1}

    def hook(obj):
        for i in range(1000):
            d[f"k{i}"] = i
        return "x"

    out = stdlib_json.loads(json.encode(d, enc_hook=hook))
    assert out["a"] == "x" and out["b"] == 1
    d2 = {"a": Obj(), "b": 1}

    def hook2(obj):
        for i in range(1000):
            d2[f"k{i}"] = i
        return "x"

    out2 = to_builtins(d2, enc_hook=hook2)
    assert out2["a"] == "x" and out2["b"] == 1


def test_hook_clearing_the_dict_stops_the_walk():
    d = {"a": Obj(), "b": 1, "c": 2}

    def hook(obj):
        d.clear()
        return "y"

    assert json.encode(d, enc_hook=hook) == b'{"a":"y"}'


def test_hook_resizing_the_dict_after_plain_values_is_followed():
    # Plain values (str, int, float, bool, None) keep the walk on the slots it read; a value that runs Python code
    # makes it read them again, so a resize by the hook after several plain values is still followed.
    d = {"a": 1, "b": "s", "c": 2.5, "d": True, "e": None, "f": Obj(), "g": 7}

    def hook(obj):
        for i in range(1000):
            d[f"k{i}"] = i
        return "x"

    out = stdlib_json.loads(json.encode(d, enc_hook=hook))
    assert out["a"] == 1 and out["b"] == "s" and out["c"] == 2.5 and out["d"] is True and out["e"] is None
    assert out["f"] == "x" and out["g"] == 7
    assert out["k999"] == 999 and len(out) == 1007


def test_hook_clearing_the_dict_after_plain_values_stops_the_walk():
    d = {"a": 1, "b": "s", "c": Obj(), "d": 2, "e": 3}

    def hook(obj):
        d.clear()
        return "y"

    assert json.encode(d, enc_hook=hook) == b'{"a":1,"b":"s","c":"y"}'
