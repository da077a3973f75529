"""repr, recursive repr, repr_omit_defaults and __rich_repr__."""

import pytest

from boltwire import Struct, field


class Point(Struct):
    x: int
    y: int


class Empty(Struct):
    pass


class Node(Struct):
    value: object
    child: object = None


class Omit(Struct, repr_omit_defaults=True):
    a: int
    b: int = 1
    c: list = []
    d: str = field(default="d")
    e: list = field(default_factory=list)


class Custom(Struct):
    x: int

    def __repr__(self):
        return "custom!"


class RenamedRepr(Struct, rename="camel"):
    field_one: int


class KwOnly(Struct, kw_only=True):
    a: int = 0


def test_repr_basic():
    assert repr(Point(1, 2)) == "Point(x=1, y=2)"


def test_str_is_repr():
    assert str(Point(1, 2)) == "Point(x=1, y=2)"


def test_repr_empty():
    assert repr(Empty()) == "Empty()"


def test_repr_uses_value_repr():
    assert repr(Point("a", [1, "b"])) == "Point(x='a', y=[1, 'b'])"
    assert repr(Point(None, 1.5)) == "Point(x=None, y=1.5)"


def test_repr_nested():
    assert repr(Node(1, Node(2))) == "Node(value=1, child=Node(value=2, child=None))"


def test_repr_uses_attribute_names_not_encode_names():
    assert repr(RenamedRepr(1)) == "RenamedRepr(field_one=1)"


def test_repr_kw_only():
    assert repr(KwOnly(a=3)) == "KwOnly(a=3)"


def test_repr_subclass_name():
    class Sub(Point):
        pass

    assert repr(Sub(1, 2)) == "Sub(x=1, y=2)"


def test_repr_uses_class_name_not_qualname():
    r = repr(Point(1, 2))
    assert r.startswith("Point(")
    class Inner(Struct):
        a: int

    assert repr(Inner(1)) == "Inner(a=1)"


# The recursive part is printed as "..." (msgspec, reprlib style); "Node(...)" is accepted as well.
REC = ("...", "Node(...)")


def test_repr_recursive_self():
    n = Node(1)
    n.child = n
    assert repr(n) in {f"Node(value=1, child={r})" for r in REC}


def test_repr_recursive_through_list():
    n = Node(1, [])
    n.child.append(n)
    assert repr(n) in {f"Node(value=1, child=[{r}])" for r in REC}


def test_repr_recursive_mutual():
    a = Node("a")
    b = Node("b", a)
    a.child = b
    assert repr(a) in {f"Node(value='a', child=Node(value='b', child={r}))" for r in REC}
    # the recursion guard is released afterwards
    assert repr(b) in {f"Node(value='b', child=Node(value='a', child={r}))" for r in REC}
    assert repr(Node(1)) == "Node(value=1, child=None)"


def test_repr_deep_nesting_does_not_crash():
    n = None
    for i in range(100000):
        n = Node(i, n)
    with pytest.raises(RecursionError):
        repr(n)
    # the interpreter still works afterwards
    assert repr(Node(1)) == "Node(value=1, child=None)"
    # unwind iteratively so destruction does not recurse deeply either
    while n is not None:
        n = n.child


def test_repr_exception_propagates():
    class Bad:
        def __repr__(self):
            raise RuntimeError("bad repr")

    with pytest.raises(RuntimeError, match="bad repr"):
        repr(Point(Bad(), 1))
    # no dangling recursion marker after an error
    p = Point(1, 2)
    assert repr(p) == "Point(x=1, y=2)"


def test_repr_custom_override():
    assert repr(Custom(1)) == "custom!"


def test_repr_unset_field():
    p = Point(1, 2)
    try:
        del p.y
    except AttributeError:
        return  # deleting fields is refused: nothing more to check
    try:
        r = repr(p)
    except AttributeError:
        pass
    else:
        assert r.startswith("Point(x=1")


def test_repr_omit_defaults():
    assert repr(Omit(0)) == "Omit(a=0)"
    assert repr(Omit(0, 2)) == "Omit(a=0, b=2)"
    assert repr(Omit(0, 1, [1])) == "Omit(a=0, c=[1])"
    assert repr(Omit(0, d="x")) == "Omit(a=0, d='x')"
    assert repr(Omit(0, e=[2])) == "Omit(a=0, e=[2])"
    assert repr(Omit(0, b=5, c=[1], d="z", e=[0])) == "Omit(a=0, b=5, c=[1], d='z', e=[0])"


def test_repr_omit_defaults_equal_not_identical():
    class A(Struct, repr_omit_defaults=True):
        s: str = "hello"

    assert repr(A("".join(["hel", "lo"]))) == "A()"


def test_repr_without_omit_defaults_shows_all():
    class A(Struct):
        a: int = 1
        b: list = []

    assert repr(A()) == "A(a=1, b=[])"


def test_rich_repr():
    pairs = list(Point(1, 2).__rich_repr__())
    assert pairs == [("x", 1), ("y", 2)]


def test_rich_repr_empty():
    assert list(Empty().__rich_repr__()) == []


def test_rich_repr_values_by_identity():
    lst = [1]
    pairs = list(Point(lst, 2).__rich_repr__())
    assert pairs[0][1] is lst


def test_rich_repr_omit_defaults():
    assert list(Omit(0).__rich_repr__()) == [("a", 0)]
    assert list(Omit(0, 2).__rich_repr__()) == [("a", 0), ("b", 2)]
