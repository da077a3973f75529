"""Generic structs and StructMeta combined with abc.ABCMeta."""

import abc
import pickle
from typing import Generic, TypeVar

import pytest

from boltwire import Struct, StructMeta

T = TypeVar("T")
U = TypeVar("U")


class Box(Struct, Generic[T]):
    item: T


class Pair(Struct, Generic[T, U]):
    first: T
    second: U = None


class IntBox(Box[int]):
    extra: int = 0


class ABCStructMeta(StructMeta, abc.ABCMeta):
    pass


def make_shapes():
    # Built inside the tests (not at import) so that a metaclass failure fails these tests only.
    class Shape(Struct, metaclass=ABCStructMeta):
        name: str

        @abc.abstractmethod
        def area(self) -> float: ...

    class Square(Shape):
        side: float = 1.0

        def area(self) -> float:
            return self.side**2

    return Shape, Square


def test_generic_definition():
    assert Box.__struct_fields__ == ("item",)
    assert Box.__parameters__ == (T,)
    assert Pair.__parameters__ == (T, U)


def test_generic_unparametrized_instance():
    b = Box(1)
    assert b.item == 1
    assert type(b) is Box


def test_generic_parametrized_call():
    b = Box[int](item=1)
    assert type(b) is Box
    assert b.item == 1
    assert b == Box(1)
    p = Pair[int, str](1, "a")
    assert (p.first, p.second) == (1, "a")


def test_generic_alias_origin():
    alias = Box[int]
    assert alias.__origin__ is Box
    assert alias.__args__ == (int,)


def test_generic_subclass_of_parametrized():
    assert IntBox.__struct_fields__ == ("item", "extra")
    i = IntBox(3)
    assert (i.item, i.extra) == (3, 0)
    assert isinstance(i, Box)


def test_generic_repr_eq_pickle():
    b = Box[str](item="x")
    assert repr(b) == "Box(item='x')"
    assert pickle.loads(pickle.dumps(b)) == b


def test_generic_frozen_hash():
    class FBox(Struct, Generic[T], frozen=True):
        item: T

    assert hash(FBox[int](1)) == hash(FBox(1))


def test_abc_prevents_instantiation():
    Shape, Square = make_shapes()
    with pytest.raises(TypeError, match="abstract"):
        Shape("s")


def test_abc_implemented_subclass_works():
    Shape, Square = make_shapes()
    s = Square("sq", 2.0)
    assert s.area() == 4.0
    assert isinstance(s, Shape)
    assert isinstance(type(s), abc.ABCMeta)
    assert isinstance(type(s), StructMeta)
    assert s == Square("sq", 2.0)
    assert repr(s) == "Square(name='sq', side=2.0)"


def test_abc_partial_implementation_still_abstract():
    class Base(Struct, metaclass=ABCStructMeta):
        @abc.abstractmethod
        def f(self): ...

        @abc.abstractmethod
        def g(self): ...

    class Half(Base):
        def f(self):
            return 1

    with pytest.raises(TypeError):
        Half()

    class Full(Half):
        def g(self):
            return 2

    assert Full().g() == 2


def test_abc_register_virtual_subclass():
    Shape, Square = make_shapes()

    class Other:
        def area(self):
            return 0

    Shape.register(Other)
    assert isinstance(Other(), Shape)


def test_abc_with_options():
    class FrozenShape(Struct, metaclass=ABCStructMeta, frozen=True):
        n: int

        @abc.abstractmethod
        def f(self): ...

    class Impl(FrozenShape):
        def f(self):
            return self.n

    i = Impl(2)
    assert i.f() == 2
    with pytest.raises(AttributeError):
        i.n = 3
    assert Impl.__struct_config__.frozen is True


def test_struct_meta_subclass_custom_behavior():
    class Meta(StructMeta):
        def __new__(mcls, name, bases, ns, **kwargs):
            ns.setdefault("__doc__", "generated")
            return super().__new__(mcls, name, bases, ns, **kwargs)

    class A(Struct, metaclass=Meta, frozen=True):
        x: int

    assert A.__doc__ == "generated"
    assert type(A) is Meta
    assert A.__struct_config__.frozen is True
    assert hash(A(1)) == hash(A(1))
