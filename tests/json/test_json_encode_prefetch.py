"""The encoder's container walks prefetch items 8 places ahead (csrc/py/prefetch.hpp): containers of every size
around that window, dicts with deleted entries near it, containers an enc_hook changes while the window points
past their new end or at values it freed, errors inside the window, and a large nested document."""

import gc
import json as stdlib_json
import random
import sys

import msgspec
import pytest

from boltwire import json

AHEAD = 8  # py::kPrefetchAhead
SIZES = list(range(0, 2 * AHEAD + 3)) + [63, 64, 65, 1000]


class Obj:
    pass


class Unsupported:
    pass


def values(n, seed):
    rng = random.Random(seed)
    pool = [lambda: rng.randint(-10**12, 10**12), lambda: rng.random() * 1e6, lambda: f"s{rng.random()}",
            lambda: "é" * rng.randint(1, 30), lambda: None, lambda: True, lambda: [rng.random()],
            lambda: {"k": rng.randint(0, 9)}]
    return [rng.choice(pool)() for _ in range(n)]


@pytest.mark.parametrize("n", SIZES)
def test_containers_of_every_size_around_the_window(n):
    items = values(n, n)
    for value in (items, tuple(items), {f"k{i}": v for i, v in enumerate(items)}):
        assert json.encode(value) == msgspec.json.encode(value)


@pytest.mark.parametrize("n", range(1, 2 * AHEAD + 3))
@pytest.mark.parametrize("pattern", ["first", "last", "odd", "all_but_one"])
def test_dicts_with_deleted_entries_near_the_window(n, pattern):
    d = {f"k{i}": v for i, v in enumerate(values(n, 100 + n))}
    doomed = {
        "first": range(min(n, AHEAD)),
        "last": range(max(0, n - AHEAD), n),
        "odd": range(1, n, 2),
        "all_but_one": range(1, n),
    }[pattern]
    for i in doomed:
        del d[f"k{i}"]  # the entry stays in the table with a null value until a resize
    out = json.encode(d)
    assert out == msgspec.json.encode(d)
    assert list(stdlib_json.loads(out)) == list(d)


def test_hook_shrinking_a_list_below_the_window():
    items = [1, Obj()] + list(range(2, 40))

    def hook(obj):
        del items[3:]  # the window already pointed at items 3..9
        return "x"

    assert json.encode(items, enc_hook=hook) == b'[1,"x",2]'


def test_hook_replacing_the_items_the_window_prefetched():
    # The window points at the old items, which the hook frees; the walk reads the new ones.
    items = [Obj()] + [float(i) for i in range(30)]

    def hook(obj):
        items[1:] = [f"n{i}" for i in range(5)]
        return 0

    assert json.encode(items, enc_hook=hook) == b'[0,"n0","n1","n2","n3","n4"]'


def test_hook_clearing_a_large_dict_mid_walk():
    d = {f"k{i}": (Obj() if i == 3 else float(i)) for i in range(40)}

    def hook(obj):
        d.clear()  # frees every value, those the window prefetched included
        return "y"

    assert json.encode(d, enc_hook=hook) == b'{"k0":0.0,"k1":1.0,"k2":2.0,"k3":"y"}'


def test_hook_rebuilding_a_large_dict_mid_walk_is_followed():
    d = {f"k{i}": (Obj() if i == 2 else i) for i in range(40)}

    def hook(obj):
        for i in range(40):
            d[f"k{i}"] = -i  # new value objects in the same slots
        for i in range(40, 2000):
            d[f"k{i}"] = i  # and a resize: new slots
        return "z"

    out = stdlib_json.loads(json.encode(d, enc_hook=hook))
    assert out["k0"] == 0 and out["k1"] == 1 and out["k2"] == "z"
    assert [out[f"k{i}"] for i in range(3, 40)] == [-i for i in range(3, 40)]
    assert out["k1999"] == 1999 and len(out) == 2000


@pytest.mark.parametrize("position", [0, 1, AHEAD - 1, AHEAD, AHEAD + 1, 30])
def test_error_inside_the_window_leaks_nothing(position):
    bad = Unsupported()
    items = [float(i) for i in range(40)]
    items[position] = bad
    containers = [items, tuple(items), {f"k{i}": v for i, v in enumerate(items)}]
    before = [sys.getrefcount(x) for x in items] + [sys.getrefcount(c) for c in containers]
    for container in containers:
        for _ in range(3):
            with pytest.raises(TypeError, match="Unsupported"):
                json.encode(container)
    del container  # the loop variable's own reference
    gc.collect()
    after = [sys.getrefcount(x) for x in items] + [sys.getrefcount(c) for c in containers]
    assert after == before


def test_large_nested_document_matches_msgspec():
    rng = random.Random(5)

    def make(depth):
        r = rng.random()
        if depth and r < 0.15:
            return [make(depth - 1) for _ in range(rng.randint(0, 20))]
        if depth and r < 0.3:
            return {f"w{rng.randint(0, 50)}": make(depth - 1) for _ in range(rng.randint(0, 20))}
        return values(1, rng.randint(0, 10**6))[0]

    doc = [make(4) for _ in range(3000)]
    out = json.encode(doc)
    assert out == msgspec.json.encode(doc)
    assert stdlib_json.loads(out) == stdlib_json.loads(stdlib_json.dumps(doc))
