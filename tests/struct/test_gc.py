"""GC policy (untracked when holding only atomic values, gc=False never tracked), cycle collection, and
instance sizes."""

import copy
import gc
import pickle
import sys
import weakref

import pytest

from boltwire import Struct, field, structs


class Three(Struct):
    a: object
    b: object = None
    c: object = None


class ThreeNoGC(Struct, gc=False):
    a: object
    b: object = None
    c: object = None


class FrozenThree(Struct, frozen=True):
    a: object
    b: object = None
    c: object = None


class WithFactory(Struct):
    items: list = []


class Node(Struct, weakref=True):
    other: object = None


class DictNode(Struct, dict=True):
    other: object = None


class Helper:
    pass


class Slots3:
    __slots__ = ("a", "b", "c")

    def __init__(self, a, b, c):
        self.a = a
        self.b = b
        self.c = c


class Int3(Struct):
    a: int
    b: int
    c: int


class Int3NoGC(Struct, gc=False):
    a: int
    b: int
    c: int


def untracked_tuple():
    t = tuple([1, "a", 2.0])
    gc.collect()
    assert not gc.is_tracked(t)
    return t


def tracked_tuple():
    t = (1, [])
    assert gc.is_tracked(t)
    return t


@pytest.mark.parametrize(
    "values",
    [
        (None, True, 1),
        (1.5, "s", b"b"),
        (2**100, False, None),
        ("", -1, 0.0),
    ],
)
def test_atomic_values_untracked(values):
    assert not gc.is_tracked(Three(*values))


def test_all_defaults_none_untracked():
    assert not gc.is_tracked(Three(1))


def test_untracked_tuple_value_untracked():
    assert not gc.is_tracked(Three(untracked_tuple()))


def test_tracked_tuple_value_tracked():
    assert gc.is_tracked(Three(tracked_tuple()))


@pytest.mark.parametrize("make", [list, dict, set, lambda: Helper(), lambda: [1], lambda: {"a": 1}])
def test_container_value_tracked(make):
    assert gc.is_tracked(Three(make()))
    assert gc.is_tracked(Three(1, 2, make()))


def test_tracked_struct_value_tracks_outer():
    inner = Three([])
    assert gc.is_tracked(inner)
    assert gc.is_tracked(Three(inner))


def test_keyword_init_follows_policy():
    assert not gc.is_tracked(Three(a=1, c="x"))
    assert gc.is_tracked(Three(a=1, c=[]))


def test_frozen_follows_policy():
    assert not gc.is_tracked(FrozenThree(1, 2, 3))
    assert gc.is_tracked(FrozenThree(1, 2, []))


def test_becomes_tracked_on_setattr():
    s = Three(1, 2, 3)
    assert not gc.is_tracked(s)
    s.b = []
    assert gc.is_tracked(s)


def test_stays_untracked_on_atomic_setattr():
    s = Three(1, 2, 3)
    s.b = "still atomic"
    assert not gc.is_tracked(s)


def test_force_setattr_tracks():
    f = FrozenThree(1)
    assert not gc.is_tracked(f)
    structs.force_setattr(f, "b", [])
    assert gc.is_tracked(f)


def test_default_factory_container_tracked():
    assert gc.is_tracked(WithFactory())

    class F(Struct):
        x: object = field(default_factory=dict)

    assert gc.is_tracked(F())


def test_post_init_assignment_tracks():
    class P(Struct):
        a: object = None

        def __post_init__(self):
            self.a = []

    assert gc.is_tracked(P())


def test_copy_of_tracked_is_tracked():
    assert gc.is_tracked(copy.copy(Three([])))


def test_copy_of_untracked_with_atomic_untracked():
    assert not gc.is_tracked(copy.copy(Three(1)))


def test_replace_with_container_tracked():
    s = Three(1)
    assert not gc.is_tracked(s)
    assert gc.is_tracked(structs.replace(s, b=[]))


def test_pickle_roundtrip_with_container_tracked():
    assert gc.is_tracked(pickle.loads(pickle.dumps(Three([1]))))


def test_deepcopy_with_container_tracked():
    assert gc.is_tracked(copy.deepcopy(Three([1])))


def test_gc_false_never_tracked():
    assert not gc.is_tracked(ThreeNoGC(1))
    assert not gc.is_tracked(ThreeNoGC([], {}, Helper()))
    s = ThreeNoGC(1)
    s.a = [s]
    assert not gc.is_tracked(s)
    assert not gc.is_tracked(copy.copy(ThreeNoGC([])))
    assert not gc.is_tracked(structs.replace(ThreeNoGC(1), b=[]))
    assert not gc.is_tracked(pickle.loads(pickle.dumps(ThreeNoGC([1]))))


def test_gc_false_subclass_never_tracked():
    class Sub(ThreeNoGC):
        d: object = None

    assert not gc.is_tracked(Sub([]))


def test_gc_false_not_in_gc_objects():
    s = ThreeNoGC([1])
    assert all(o is not s for o in gc.get_objects())


def test_cycle_through_struct_collected_weakref_option():
    gc.collect()
    a = Node()
    b = Node(a)
    a.other = b
    ra, rb = weakref.ref(a), weakref.ref(b)
    del a, b
    assert ra() is not None  # kept alive by the cycle until a collection
    gc.collect()
    assert ra() is None and rb() is None


def test_self_cycle_via_list_collected():
    gc.collect()
    a = Node()
    a.other = [a]
    r = weakref.ref(a)
    del a
    gc.collect()
    assert r() is None


def test_cycle_collected_observed_through_helper():
    gc.collect()
    h = Helper()
    s = Three(h)
    h.back = s
    r = weakref.ref(h)
    del h, s
    gc.collect()
    assert r() is None


def test_cycle_through_untracked_then_tracked_struct_collected():
    gc.collect()
    h = Helper()
    s = Three(1)
    assert not gc.is_tracked(s)
    s.b = h  # becomes tracked here
    h.back = s
    r = weakref.ref(h)
    del h, s
    gc.collect()
    assert r() is None


def test_cycle_with_dict_option_collected():
    gc.collect()
    d = DictNode()
    d.extra = [d]
    h = Helper()
    d.other = h
    r = weakref.ref(h)
    del d, h
    gc.collect()
    assert r() is None


def test_gc_get_referents():
    inner = [1]
    s = Three(inner, "x")
    refs = gc.get_referents(s)
    assert any(r is inner for r in refs)


def test_sizeof_matches_slots_class():
    assert sys.getsizeof(Int3(1, 2, 3)) == sys.getsizeof(Slots3(1, 2, 3))


def test_sizeof_gc_false_is_16_bytes_smaller():
    assert sys.getsizeof(Int3(1, 2, 3)) - sys.getsizeof(Int3NoGC(1, 2, 3)) == 16


def test_basicsize_scales_with_fields():
    class One(Struct):
        a: int

    class Two(Struct):
        a: int
        b: int

    assert Two.__basicsize__ - One.__basicsize__ == 8
