"""Field defaults: plain values, empty mutable literals as per-instance factories, rejected mutable defaults,
field(default=..., default_factory=..., name=...)."""

import pytest

import boltwire
from boltwire import NODEFAULT, Struct, field


class Frozen(Struct, frozen=True):
    a: int = 0


class Mutable(Struct):
    a: int = 0


def test_plain_defaults():
    sentinel = object()

    class A(Struct):
        a: int = 1
        b: str = "s"
        c: None = None
        d: float = 2.5
        e: tuple = (1, 2)
        f: frozenset = frozenset({1})
        g: object = sentinel
        h: bytes = b"x"

    x = A()
    assert (x.a, x.b, x.c, x.d, x.e, x.f, x.h) == (1, "s", None, 2.5, (1, 2), frozenset({1}), b"x")
    assert x.g is sentinel
    assert A().g is A().g  # plain defaults are shared, not copied


@pytest.mark.parametrize("value,typ", [([], list), ({}, dict), (set(), set), (bytearray(), bytearray)])
def test_empty_mutable_default_is_per_instance(value, typ):
    ns = {"__annotations__": {"x": typ}, "x": value}
    A = type(Struct)("A", (Struct,), ns)
    a1, a2 = A(), A()
    assert type(a1.x) is typ
    assert len(a1.x) == 0
    assert a1.x is not a2.x
    assert a1.x is not value
    # mutating one instance does not leak into the next
    if typ is dict:
        a1.x["k"] = 1
    elif typ is set:
        a1.x.add(1)
    else:
        a1.x.append(1)
    assert len(A().x) == 0


@pytest.mark.parametrize("value", [[1], {"a": 1}, {1}, bytearray(b"x")])
def test_nonempty_mutable_default_rejected(value):
    with pytest.raises(TypeError):
        type(Struct)("A", (Struct,), {"__annotations__": {"x": object}, "x": value})


def test_mutable_struct_instance_default_rejected():
    with pytest.raises(TypeError):

        class A(Struct):
            x: Mutable = Mutable()


def test_frozen_struct_instance_default_allowed():
    default = Frozen(3)

    class A(Struct):
        x: Frozen = default

    assert A().x is default


class _Unhashable:
    __hash__ = None


def test_unhashable_default_accepted_like_msgspec():
    """msgspec refuses only non-empty builtin collections and mutable Structs (test_struct_msgspec_parity.py);
    any other default, hashable or not (a Raw, say), is shared as given."""
    default = _Unhashable()

    class A(Struct):
        x: object = default

    assert A().x is default


def test_unhashable_default_ok_through_factory():
    class A(Struct):
        x: object = field(default_factory=_Unhashable)

    assert isinstance(A().x, _Unhashable)
    assert A().x is not A().x


def test_nonempty_mutable_default_ok_through_factory():
    class A(Struct):
        x: list = field(default_factory=lambda: [1, 2])

    a1, a2 = A(), A()
    assert a1.x == [1, 2]
    assert a1.x is not a2.x


def test_field_default_factory_list():
    class A(Struct):
        x: list = field(default_factory=list)
        y: dict = field(default_factory=dict)

    a1, a2 = A(), A()
    assert a1.x == [] and a1.y == {}
    assert a1.x is not a2.x and a1.y is not a2.y


def test_field_default_equivalent_to_plain():
    class A(Struct):
        x: int = field(default=3)
        y: int = 4

    assert A().x == 3
    assert A.__struct_defaults__ == (3, 4)


def test_field_default_mutable_still_checked():
    # field(default=[]) is treated like a plain [] default (msgspec semantics): accepted as a factory
    class A(Struct):
        x: list = field(default=[])

    assert A().x == []
    assert A().x is not A().x


def test_field_default_nonempty_mutable_rejected():
    with pytest.raises(TypeError):

        class A(Struct):
            x: list = field(default=[1])


def test_field_both_default_and_factory_rejected():
    with pytest.raises(TypeError):
        field(default=1, default_factory=list)


def test_field_default_factory_not_callable_rejected():
    with pytest.raises(TypeError):
        field(default_factory=3)


def test_field_is_keyword_only():
    with pytest.raises(TypeError):
        field(1)


def test_field_without_default_is_required():
    class A(Struct):
        x: int = field()
        y: int = field(name="why")

    assert A.__struct_defaults__ == ()
    assert A.__struct_encode_fields__ == ("x", "why")
    with pytest.raises(TypeError):
        A()
    a = A(1, 2)
    assert (a.x, a.y) == (1, 2)


def test_field_name_sets_encode_name():
    class A(Struct):
        x_y: int = field(name="x-y", default=1)

    assert A.__struct_encode_fields__ == ("x-y",)
    assert A().x_y == 1
    assert A(x_y=2).x_y == 2


def test_explicit_nodefault_means_required():
    class A(Struct):
        x: int = field(default=NODEFAULT)

    with pytest.raises(TypeError):
        A()
    assert A(1).x == 1


def test_nodefault_singleton():
    assert boltwire.NODEFAULT is NODEFAULT
    assert repr(NODEFAULT) == "NODEFAULT"
    import copy
    import pickle

    assert copy.copy(NODEFAULT) is NODEFAULT
    assert copy.deepcopy(NODEFAULT) is NODEFAULT
    assert pickle.loads(pickle.dumps(NODEFAULT)) is NODEFAULT


def test_field_object_not_left_as_class_attribute():
    class A(Struct):
        x: int = field(default=1)

    # The attribute on the class is not the field() spec object
    assert type(A.__dict__.get("x")) is not type(field(default=1))
    assert A().x == 1


def test_default_none_allowed():
    class A(Struct):
        x: object = None

    assert A().x is None


def test_default_copied_per_instance_only_for_empty_literals():
    class A(Struct):
        t: tuple = ()
        s: str = ""

    assert A().t is A().t
    assert A().s is A().s
