"""Freed Struct instances are reused (csrc/struct/struct_freelist.hpp): reuse must not change what a Struct is —
the GC's allocation count and collection timing, GC tracking, finalizers, types and field values of reused blocks."""

import gc
import weakref

import pytest

from boltwire import Struct


class Pair(Struct):
    a: object
    b: object = None


class OtherPair(Struct):  # same slot count as Pair: its instances share Pair's list
    x: object = 1
    y: object = 2


class PairNoGC(Struct, gc=False):
    a: object
    b: object = None


class WithRef(Struct, weakref=True):  # generic layout: never enters the lists
    a: object
    b: object = None


class SubWithDict(Pair, dict=True):  # a generic-layout subclass of a compact class
    pass


def churn(cls, n=3000):
    """Creates and frees n instances at once, so that the lists hold blocks of cls's size."""
    xs = [cls(i) for i in range(n)]
    del xs


@pytest.fixture
def gc_paused():
    was = gc.isenabled()
    gc.disable()
    yield
    if was:
        gc.enable()


@pytest.mark.parametrize("warm", [False, True])
def test_young_count_moves_as_without_reuse(gc_paused, warm):
    if warm:
        churn(Pair)
    n = 500
    xs = [None] * n
    before = gc.get_count()[0]
    for i in range(n):
        xs[i] = Pair(i)  # each instance counts one allocation, reused or not
    assert gc.get_count()[0] == before + n
    for i in range(n):
        xs[i] = None  # and one release
    assert gc.get_count()[0] == before


def test_create_free_loop_leaves_count(gc_paused):
    churn(Pair)
    before = gc.get_count()[0]
    for i in range(1000):
        Pair(i)
    assert gc.get_count()[0] == before


def test_young_collections_still_triggered():
    churn(Pair)  # the lists are full: every instance below comes from them
    collections = []

    def on_gc(phase, info):
        if phase == "start" and info["generation"] == 0:
            collections.append(1)

    old = gc.get_threshold()
    was = gc.isenabled()
    gc.collect()
    gc.set_threshold(100, 1000, 1000)
    gc.callbacks.append(on_gc)
    gc.enable()
    try:
        xs = [Pair(i) for i in range(1000)]
    finally:
        gc.callbacks.remove(on_gc)
        gc.set_threshold(*old)
        if not was:
            gc.disable()
    assert len(xs) == 1000
    assert len(collections) >= 8  # ~one per 100 allocations, as PyObject_GC_New would have triggered


def test_finalizer_runs_for_each_reused_instance():
    calls = []

    class Finalized(Struct):
        a: object
        b: object = None

        def __del__(self):
            calls.append(self.a)

    for i in range(5):
        Finalized(i)  # freed at once; the next one may reuse its block (whose header had "finalized" set)
    assert calls == [0, 1, 2, 3, 4]


def test_resurrected_instance_is_not_reused():
    saved = []

    class Phoenix(Struct):
        a: object
        b: object = None

        def __del__(self):
            saved.append(self)

    Phoenix("first")
    assert [p.a for p in saved] == ["first"]
    others = [Pair(i, i) for i in range(100)]  # would overwrite the block if it had entered the lists
    assert saved[0].a == "first" and saved[0].b is None
    assert type(saved[0]) is Phoenix
    assert [(p.a, p.b) for p in others] == [(i, i) for i in range(100)]
    saved.clear()  # freed for good now (no second __del__ for a GC class)


def test_reused_block_has_new_type_and_fresh_fields():
    churn(Pair)
    o = OtherPair()
    assert type(o) is OtherPair
    assert (o.x, o.y) == (1, 2)
    p = Pair("a")
    assert (p.a, p.b) == ("a", None)
    assert repr(p) == "Pair(a='a', b=None)"


def test_tracking_rules_on_reused_blocks():
    xs = [Pair([i]) for i in range(100)]  # tracked (a list field)
    assert all(gc.is_tracked(x) for x in xs)
    del xs
    ys = [Pair(i, "s") for i in range(100)]  # atomic fields: untracked, even in a block that was tracked
    assert not any(gc.is_tracked(y) for y in ys)
    zs = [Pair(i, {}) for i in range(100)]
    assert all(gc.is_tracked(z) for z in zs)


def test_gc_false_instances_reused():
    churn(PairNoGC)
    xs = [PairNoGC(i, [i]) for i in range(200)]
    assert not any(gc.is_tracked(x) for x in xs)
    assert [(x.a, x.b) for x in xs] == [(i, [i]) for i in range(200)]


def test_weakref_and_generic_subclass_instances_mixed_with_compact_ones():
    dead = []
    for round_ in range(3):
        refs = [WithRef(i) for i in range(50)]
        wrs = [weakref.ref(r, lambda _: dead.append(1)) for r in refs]
        subs = [SubWithDict(i, i) for i in range(50)]
        for s in subs:
            s.extra = "x"
        del refs
        assert all(w() is None for w in wrs)
        pairs = [Pair(i, -i) for i in range(100)]
        assert [(p.a, p.b) for p in pairs] == [(i, -i) for i in range(100)]
        assert all(type(p) is Pair for p in pairs)
        assert [(s.a, s.b, s.extra) for s in subs] == [(i, i, "x") for i in range(50)]
        del subs, pairs
    assert len(dead) == 150


def test_cycle_of_reused_instances_collected():
    churn(Pair)
    a = Pair(None)
    b = Pair(a)
    a.a = b
    wr = []
    holder = WithRef(a)
    wr.append(weakref.ref(holder))
    del a, b, holder
    gc.collect()
    assert wr[0]() is None


def test_long_chain_freed_without_recursion():
    head = None
    for i in range(200_000):
        head = Pair(i, head)
    del head  # the trashcan bounds the C stack while the chain is freed
    churn(Pair)
    assert Pair(1, 2).b == 2
