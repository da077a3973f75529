"""Inheritance: field order, defaults, option inheritance, mixins, __init_subclass__, layout conflicts."""

import pytest

from boltwire import Struct


class Base(Struct):
    a: int
    b: int = 1


class Child(Base):
    c: int = 2


class GrandChild(Child):
    d: int = 3


def test_subclass_fields_and_init():
    assert GrandChild.__struct_fields__ == ("a", "b", "c", "d")
    g = GrandChild(0)
    assert (g.a, g.b, g.c, g.d) == (0, 1, 2, 3)
    g = GrandChild(9, 8, 7, 6)
    assert (g.a, g.b, g.c, g.d) == (9, 8, 7, 6)


def test_isinstance_chain():
    g = GrandChild(0)
    assert isinstance(g, Child) and isinstance(g, Base) and isinstance(g, Struct)
    assert not isinstance(Base(0), Child)


def test_subclass_required_after_inherited_default_rejected():
    with pytest.raises(TypeError):

        class Bad(Base):
            z: int


def test_subclass_required_after_inherited_default_ok_with_kw_only():
    class Ok(Base, kw_only=True):
        z: int

    assert Ok.__struct_fields__ == ("a", "b", "z")
    o = Ok(1, z=2)
    assert (o.a, o.b, o.z) == (1, 1, 2)


def test_override_default_in_subclass():
    class Sub(Base):
        b: int = 100

    assert Sub(0).b == 100
    assert Base(0).b == 1
    assert Sub.__struct_fields__ == ("a", "b")


def test_override_makes_base_field_required_is_rejected_if_after_default():
    # re-annotating b (position 1) without a default puts a required field after... nothing: a has no default,
    # so it is fine
    class Sub(Base):
        b: int

    assert Sub.__struct_fields__ == ("a", "b")
    with pytest.raises(TypeError):
        Sub(1)
    assert Sub(1, 2).b == 2

    class Base2(Struct):
        a: int = 0
        b: int = 1

    with pytest.raises(TypeError):

        class Sub2(Base2):
            b: int


def test_subclass_methods_and_super():
    class A(Struct):
        x: int

        def describe(self):
            return f"A{self.x}"

    class B(A):
        y: int = 0

        def describe(self):
            return "B+" + super().describe()

    assert B(1).describe() == "B+A1"


def test_subclass_repr_eq():
    assert repr(Child(1)) == "Child(a=1, b=1, c=2)"
    assert Child(1) == Child(1)
    assert Child(1) != Base(1)


def test_plain_mixin_without_slots_data():
    class Mixin:
        __slots__ = ()

        def hello(self):
            return "hi " + str(self.a)

    class A(Struct, Mixin):
        a: int

    assert A(1).hello() == "hi 1"
    assert A.__struct_fields__ == ("a",)


def test_init_subclass_hook_called():
    seen = []

    class Registry(Struct):
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            seen.append(cls.__name__)

    class One(Registry):
        x: int

    class Two(One):
        y: int = 0

    assert seen == ["One", "Two"]
    assert Two(1).y == 0


def test_layout_conflict_two_struct_bases_with_fields():
    class A(Struct):
        a: int

    class B(Struct):
        b: int

    with pytest.raises(TypeError):

        class C(A, B):
            pass


def test_multiple_inheritance_from_fieldless_struct_base():
    class Marker(Struct):
        pass

    class A(Struct):
        a: int

    class C(A, Marker):
        c: int = 0

    assert C.__struct_fields__ == ("a", "c")
    assert isinstance(C(1), Marker)


def test_subclass_can_change_frozen():
    class F(Base, frozen=True):
        pass

    f = F(1)
    with pytest.raises(AttributeError):
        f.a = 2
    b = Base(1)
    b.a = 2
    assert b.a == 2


def test_class_attribute_shadowing_field_is_field_default():
    class A(Base):
        a: int = 7

    assert A().a == 7


def test_struct_subclass_of_struct_with_post_init_and_classvar():
    from typing import ClassVar

    class A(Struct):
        registry: ClassVar[list] = []
        x: int

        def __post_init__(self):
            type(self).registry.append(self.x)

    class B(A):
        y: int = 0

    B(1)
    B(2, 3)
    assert A.registry == [1, 2]
    assert B.__struct_fields__ == ("x", "y")
