"""Struct __init__: positional / keyword arguments, CPython-style error messages, __post_init__."""

import pytest

from boltwire import Struct, field


class Point(Struct):
    x: int
    y: int


class Point3(Struct):
    x: int
    y: int
    z: int


class WithDefault(Struct):
    x: int
    y: int = 5


class KwOnly(Struct, kw_only=True):
    z: int


class Mixed(Struct):
    a: int


class MixedKw(Mixed, kw_only=True):
    z: int
    w: int = 0


class Renamed(Struct, rename="camel"):
    field_one: int


def test_positional():
    p = Point(1, 2)
    assert p.x == 1 and p.y == 2


def test_keyword():
    p = Point(y=2, x=1)
    assert p.x == 1 and p.y == 2


def test_mixed_positional_keyword():
    p = Point3(1, z=3, y=2)
    assert (p.x, p.y, p.z) == (1, 2, 3)


def test_values_are_stored_by_identity():
    obj = object()
    lst = [1]
    p = Point(obj, lst)
    assert p.x is obj and p.y is lst


def test_default_used_and_overridden():
    assert WithDefault(1).y == 5
    assert WithDefault(1, 7).y == 7
    assert WithDefault(1, y=8).y == 8
    assert WithDefault(x=1).y == 5


def test_kw_only_requires_keyword():
    assert KwOnly(z=1).z == 1
    assert MixedKw(1, z=2).w == 0
    assert MixedKw(1, z=2, w=3).w == 3


def test_no_type_validation_in_init():
    # __init__ does not validate types (msgspec semantics)
    p = Point("a", None)
    assert p.x == "a" and p.y is None


def test_init_from_dict_unpacking():
    p = Point3(**{"x": 1, "y": 2, "z": 3})
    assert (p.x, p.y, p.z) == (1, 2, 3)


def test_init_from_tuple_unpacking():
    p = Point3(*(1, 2, 3))
    assert (p.x, p.y, p.z) == (1, 2, 3)


def test_keyword_must_be_attribute_name_not_encode_name():
    assert Renamed(field_one=1).field_one == 1
    with pytest.raises(TypeError, match="unexpected keyword argument 'fieldOne'"):
        Renamed(fieldOne=1)


def test_missing_one_positional():
    with pytest.raises(TypeError, match=r"Point\.__init__\(\) missing 1 required positional argument: 'y'"):
        Point(1)


def test_missing_two_positional():
    with pytest.raises(
        TypeError, match=r"Point\.__init__\(\) missing 2 required positional arguments: 'x' and 'y'"
    ):
        Point()


def test_missing_three_positional():
    with pytest.raises(TypeError, match=r"missing 3 required positional arguments: 'x', 'y', and 'z'"):
        Point3()


def test_missing_positional_with_keyword_given():
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'y'"):
        Point3(1, z=3)


def test_missing_kw_only():
    with pytest.raises(TypeError, match=r"KwOnly\.__init__\(\) missing 1 required keyword-only argument: 'z'"):
        KwOnly()


def test_missing_kw_only_with_positional_given():
    with pytest.raises(TypeError, match=r"missing 1 required keyword-only argument: 'z'"):
        MixedKw(1)


def test_unexpected_keyword():
    with pytest.raises(TypeError, match=r"Point\.__init__\(\) got an unexpected keyword argument 'z'"):
        Point(1, 2, z=3)


def test_unknown_keyword_only_call_raises():
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'q'|missing"):
        Point(q=1)


def test_too_many_positional():
    with pytest.raises(TypeError, match=r"Point\.__init__\(\) takes 3 positional arguments but 4 were given"):
        Point(1, 2, 3)


def test_too_many_positional_with_defaults():
    # CPython wording for a function with optional positionals: "takes from 2 to 3 ..."
    with pytest.raises(TypeError, match=r"WithDefault\.__init__\(\) takes .*positional arguments? but 4 were given"):
        WithDefault(1, 2, 3)


def test_kw_only_rejects_positional():
    with pytest.raises(TypeError, match=r"KwOnly\.__init__\(\) takes 1 positional argument but 2 were given"):
        KwOnly(1)


def test_multiple_values():
    with pytest.raises(TypeError, match=r"Point\.__init__\(\) got multiple values for argument 'x'"):
        Point(1, x=2)


def test_subclass_error_uses_subclass_name():
    with pytest.raises(TypeError, match=r"MixedKw\.__init__\(\) missing"):
        MixedKw()


def test_non_string_keyword_rejected():
    with pytest.raises(TypeError):
        Point(1, **{1: 2})


class Counted(Struct):
    x: int
    y: int = 0

    def __post_init__(self):
        self.y = self.x * 2


class FrozenPost(Struct, frozen=True):
    x: int

    def __post_init__(self):
        if self.x < 0:
            raise ValueError("x must be >= 0")


class PostCalls(Struct):
    x: int

    calls = []

    def __post_init__(self):
        PostCalls.calls.append(self.x)


def test_post_init_runs_after_init():
    c = Counted(3)
    assert c.y == 6
    c2 = Counted(4, 100)
    assert c2.y == 8


def test_post_init_called_once_per_instance():
    PostCalls.calls.clear()
    PostCalls(1)
    PostCalls(x=2)
    assert PostCalls.calls == [1, 2]


def test_post_init_exception_propagates():
    assert FrozenPost(1).x == 1
    with pytest.raises(ValueError, match="x must be >= 0"):
        FrozenPost(-1)


def test_post_init_not_called_when_init_fails():
    PostCalls.calls.clear()
    with pytest.raises(TypeError):
        PostCalls()
    assert PostCalls.calls == []


def test_post_init_inherited():
    class Sub(Counted):
        z: int = 1

    s = Sub(5)
    assert s.y == 10


def test_post_init_super_chain():
    log = []

    class A(Struct):
        x: int

        def __post_init__(self):
            log.append("A")

    class B(A):
        def __post_init__(self):
            super().__post_init__()
            log.append("B")

    B(1)
    assert log == ["A", "B"]


def test_default_factory_called_per_init():
    n = []

    def factory():
        n.append(1)
        return len(n)

    class A(Struct):
        x: int = field(default_factory=factory)

    assert A().x == 1
    assert A().x == 2
    assert A(x=10).x == 10
    assert len(n) == 2  # factory not called when the value is given


def test_default_factory_exception_propagates():
    def boom():
        raise RuntimeError("boom")

    class A(Struct):
        x: int = field(default_factory=boom)

    assert A(1).x == 1
    with pytest.raises(RuntimeError, match="boom"):
        A()
