"""copy.copy / __copy__, copy.deepcopy, __replace__ / copy.replace / structs.replace, pickle."""

import copy
import pickle
import sys

import pytest

from boltwire import Struct, field, structs


class Point(Struct):
    x: object
    y: object = 0


class FPoint(Struct, frozen=True):
    x: object
    y: object = 0


class KwOnly(Struct, kw_only=True):
    a: int
    b: int = 2


class MixedKw(Point, kw_only=True):
    z: int = 3


class Tagged(Struct, tag=True):
    a: int


class TaggedCustom(Struct, tag="tc", tag_field="kind"):
    a: int


class NoGC(Struct, gc=False):
    a: object


class WithFactory(Struct):
    items: list = []
    d: dict = field(default_factory=dict)


class Renamed(Struct, rename="camel"):
    field_one: int


class Nested(Struct):
    inner: Point
    items: list = []


class WithDict(Struct, dict=True):
    a: int


class WithWeakref(Struct, weakref=True):
    a: int


class OrderedFrozen(Struct, frozen=True, order=True, cache_hash=True):
    a: int


class PostInit(Struct):
    a: int
    calls: int = 0

    def __post_init__(self):
        self.calls += 1


PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


# ---- copy -------------------------------------------------------------------------------------------------


def test_copy_shallow():
    inner = [1, 2]
    p = Point(inner, "y")
    c = copy.copy(p)
    assert c == p
    assert c is not p
    assert type(c) is Point
    assert c.x is inner  # shallow


def test_dunder_copy():
    p = Point(1, 2)
    c = p.__copy__()
    assert c == p and c is not p


def test_copy_is_independent():
    p = Point(1, 2)
    c = copy.copy(p)
    c.x = 5
    assert p.x == 1


def test_copy_subclass_keeps_type():
    m = MixedKw(1, z=4)
    c = copy.copy(m)
    assert type(c) is MixedKw
    assert c == m


def test_copy_frozen():
    f = FPoint(1, 2)
    c = copy.copy(f)
    assert c == f
    assert hash(c) == hash(f)


def test_copy_does_not_call_post_init():
    p = PostInit(1)
    assert p.calls == 1
    c = copy.copy(p)
    assert c.calls == 1


def test_deepcopy():
    inner = [1, [2, 3]]
    p = Nested(Point(inner), [{"a": 1}])
    d = copy.deepcopy(p)
    assert d == p
    assert d is not p
    assert d.inner is not p.inner
    assert d.inner.x is not inner
    assert d.inner.x[1] is not inner[1]
    assert d.items[0] is not p.items[0]


def test_deepcopy_recursive_through_list():
    p = Point(None, [])
    p.y.append(p)
    d = copy.deepcopy(p)
    assert d is not p
    assert d.y is not p.y
    # the cycle is copied (not shared with the original) and terminates
    assert type(d.y[0]) is Point
    assert d.y[0] is not p
    assert d.y[0].y[0] is not p


def test_deepcopy_shared_reference_preserved():
    shared = [1]
    p = Point(shared, shared)
    d = copy.deepcopy(p)
    assert d.x is d.y
    assert d.x is not shared


def test_deepcopy_frozen():
    f = FPoint((1, [2]), 3)
    d = copy.deepcopy(f)
    assert d == f
    assert d.x[1] is not f.x[1]


# ---- replace ----------------------------------------------------------------------------------------------


def test_structs_replace():
    p = Point(1, 2)
    r = structs.replace(p, y=5)
    assert r == Point(1, 5)
    assert p == Point(1, 2)
    assert type(r) is Point


def test_structs_replace_no_changes():
    p = Point(1, 2)
    r = structs.replace(p)
    assert r == p and r is not p


def test_structs_replace_frozen():
    f = FPoint(1, 2)
    r = structs.replace(f, x=9)
    assert r == FPoint(9, 2)
    assert f == FPoint(1, 2)


def test_structs_replace_kw_only_and_subclass():
    m = MixedKw(1, 2, z=3)
    r = structs.replace(m, z=4, x=0)
    assert type(r) is MixedKw
    assert (r.x, r.y, r.z) == (0, 2, 4)


def test_structs_replace_unknown_field():
    with pytest.raises(TypeError):
        structs.replace(Point(1, 2), z=1)


def test_structs_replace_encode_name_is_unknown():
    assert structs.replace(Renamed(1), field_one=2).field_one == 2
    with pytest.raises(TypeError):
        structs.replace(Renamed(1), fieldOne=2)


def test_structs_replace_non_struct():
    with pytest.raises(TypeError):
        structs.replace((1, 2), x=1)


def test_dunder_replace():
    p = Point(1, 2)
    r = p.__replace__(x=3)
    assert r == Point(3, 2)
    assert p == Point(1, 2)
    with pytest.raises(TypeError):
        p.__replace__(nope=1)


def test_dunder_replace_frozen():
    assert FPoint(1, 2).__replace__(y=3) == FPoint(1, 3)


def test_replace_shallow():
    inner = [1]
    r = structs.replace(Point(inner, 2), y=3)
    assert r.x is inner


@pytest.mark.skipif(not hasattr(copy, "replace"), reason="copy.replace is new in Python 3.13")
def test_copy_replace():
    p = Point(1, 2)
    r = copy.replace(p, y=7)
    assert r == Point(1, 7)
    assert p == Point(1, 2)
    with pytest.raises(TypeError):
        copy.replace(p, z=1)


# ---- pickle -----------------------------------------------------------------------------------------------

PICKLE_CASES = [
    Point(1, 2),
    Point("a", [1, {"b": (1, 2)}]),
    FPoint(1, (2, 3)),
    KwOnly(a=1),
    KwOnly(a=1, b=5),
    MixedKw(1, 2, z=9),
    Tagged(1),
    TaggedCustom(2),
    NoGC([1, 2]),
    WithFactory([1], {"a": 1}),
    WithFactory(),
    Renamed(4),
    Nested(Point(1), [Point(2, 3)]),
    OrderedFrozen(3),
    WithWeakref(1),
]


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("obj", PICKLE_CASES, ids=lambda o: type(o).__name__)
def test_pickle_roundtrip(obj, protocol):
    data = pickle.dumps(obj, protocol=protocol)
    out = pickle.loads(data)
    assert type(out) is type(obj)
    assert out == obj
    for name in type(obj).__struct_fields__:
        assert getattr(out, name) == getattr(obj, name)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_pickle_with_dict_option(protocol):
    obj = WithDict(1)
    out = pickle.loads(pickle.dumps(obj, protocol=protocol))
    assert type(out) is WithDict
    assert out.a == 1


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_pickle_recursive(protocol):
    p = Point(None, [])
    p.y.append(p)
    out = pickle.loads(pickle.dumps(p, protocol=protocol))
    assert out.y[0] is out


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_pickle_frozen_hash_preserved(protocol):
    f = FPoint(1, "a")
    out = pickle.loads(pickle.dumps(f, protocol=protocol))
    assert hash(out) == hash(f)
    with pytest.raises(AttributeError):
        out.x = 2


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_pickle_shared_references(protocol):
    shared = [1, 2]
    out = pickle.loads(pickle.dumps(Point(shared, shared), protocol=protocol))
    assert out.x is out.y


def test_pickle_list_of_structs():
    data = [Point(i, i * 2) for i in range(50)]
    assert pickle.loads(pickle.dumps(data)) == data


def test_pickle_local_class_fails_cleanly():
    class Local(Struct):
        a: int

    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(Local(1))


def test_reduce_shape():
    # __reduce__ gives something pickle can rebuild from: a callable and args
    r = Point(1, 2).__reduce__()
    assert isinstance(r, tuple) and len(r) >= 2
    rebuilt = r[0](*r[1])
    if len(r) > 2 and r[2] is not None:
        if hasattr(rebuilt, "__setstate__"):
            rebuilt.__setstate__(r[2])
    assert rebuilt == Point(1, 2)


def test_pickle_survives_module_attribute_lookup():
    # The class is found by module + qualname
    assert Point.__module__ == __name__
    assert getattr(sys.modules[__name__], Point.__qualname__) is Point
