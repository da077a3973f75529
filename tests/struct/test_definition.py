"""Struct class definition: fields from annotations, ClassVar, __future__ annotations, kw_only ordering,
__struct_fields__ / __struct_encode_fields__ / __struct_defaults__ / __match_args__."""

import typing
from typing import ClassVar

import pytest

import boltwire
from boltwire import Struct, StructMeta, field


class Point(Struct):
    x: int
    y: int


class Point3(Point):
    z: int = 0


def test_struct_metaclass():
    assert type(Struct) is StructMeta
    assert type(Point) is StructMeta
    assert isinstance(Point, StructMeta)
    assert issubclass(Point, Struct)
    assert isinstance(Point(1, 2), Struct)


def test_public_names():
    for name in ("Struct", "StructMeta", "field", "NODEFAULT", "defstruct", "structs"):
        assert hasattr(boltwire, name), name
    import boltwire.structs as s

    for name in ("replace", "asdict", "astuple", "fields", "force_setattr", "StructConfig", "FieldInfo"):
        assert hasattr(s, name), name


def test_fields_in_annotation_order():
    class A(Struct):
        b: int
        a: str
        c: float

    assert A.__struct_fields__ == ("b", "a", "c")
    assert isinstance(A.__struct_fields__, tuple)


def test_no_fields():
    class Empty(Struct):
        pass

    assert Empty.__struct_fields__ == ()
    assert Empty.__struct_encode_fields__ == ()
    assert Empty.__struct_defaults__ == ()
    assert Empty.__match_args__ == ()
    assert Empty() == Empty()


def test_base_struct_has_no_fields():
    assert getattr(Struct, "__struct_fields__", ()) == ()
    assert Point.__struct_fields__ == ("x", "y")


def test_inherited_fields_base_first():
    assert Point3.__struct_fields__ == ("x", "y", "z")
    p = Point3(1, 2, 3)
    assert (p.x, p.y, p.z) == (1, 2, 3)
    assert Point.__struct_fields__ == ("x", "y")  # base unchanged


def test_three_level_inheritance():
    class A(Struct):
        a: int

    class B(A):
        b: int

    class C(B):
        c: int

    assert C.__struct_fields__ == ("a", "b", "c")
    c = C(1, 2, 3)
    assert (c.a, c.b, c.c) == (1, 2, 3)


def test_reannotated_field_keeps_position_and_changes_default():
    class Base(Struct):
        a: int
        b: int = 1
        c: int = 2

    class Sub(Base):
        b: int = 10
        d: int = 4

    assert Sub.__struct_fields__ == ("a", "b", "c", "d")
    s = Sub(0)
    assert (s.a, s.b, s.c, s.d) == (0, 10, 2, 4)
    assert Sub.__struct_defaults__ == (10, 2, 4)
    # The base keeps its own default
    assert Base(0).b == 1


def test_reannotated_field_can_gain_default_at_front():
    class Base(Struct):
        a: int
        b: int = 1

    class Sub(Base):
        a: int = 5

    assert Sub.__struct_fields__ == ("a", "b")
    s = Sub()
    assert (s.a, s.b) == (5, 1)


def test_classvar_excluded_typing_object():
    class A(Struct):
        x: int
        counter: ClassVar[int] = 0
        other: typing.ClassVar[str] = "hi"
        bare: ClassVar = 3

    assert A.__struct_fields__ == ("x",)
    assert A.counter == 0
    assert A.other == "hi"
    assert A.bare == 3
    a = A(1)
    assert a.counter == 0  # readable through the instance (class attribute)
    with pytest.raises(TypeError):
        A(1, 2)


@pytest.mark.parametrize(
    "annotation",
    ["ClassVar[int]", "typing.ClassVar[int]", "ClassVar", "typing.ClassVar"],
)
def test_classvar_excluded_string_annotation(annotation):
    ns = {"__annotations__": {"x": int, "cv": annotation}, "cv": 7}
    A = type(Struct)("A", (Struct,), ns)
    assert A.__struct_fields__ == ("x",)
    assert A.cv == 7
    assert A(1).x == 1


def test_non_classvar_string_annotation_is_field():
    class A(Struct):
        x: "int"
        y: "list[ClassVarLike]"  # noqa: F821 - just a string, never resolved

    assert A.__struct_fields__ == ("x", "y")


def test_future_annotations_stay_strings():
    src = (
        "from __future__ import annotations\n"
        "import typing\n"
        "from typing import ClassVar\n"
        "from boltwire import Struct\n"
        "class A(Struct):\n"
        "    x: int\n"
        "    y: list[UndefinedName] = []\n"
        "    c: ClassVar[int] = 1\n"
        "    d: typing.ClassVar[int] = 2\n"
    )
    ns = {"__name__": __name__}
    exec(compile(src, "<future>", "exec"), ns)
    A = ns["A"]
    assert A.__struct_fields__ == ("x", "y")
    assert A.__annotations__["x"] == "int"
    assert A.__annotations__["y"] == "list[UndefinedName]"
    a = A(1)
    assert a.x == 1 and a.y == []
    assert A.c == 1 and A.d == 2


def test_kw_only_fields_moved_after_positional():
    class Base(Struct, kw_only=True):
        a: int = 0
        b: int

    class Sub(Base):
        c: int
        d: int = 1

    # kw_only fields (from Base) move after the positional ones of Sub
    assert Sub.__struct_fields__ == ("c", "d", "a", "b")
    assert Sub.__match_args__ == ("c", "d")
    s = Sub(5, b=2)
    assert (s.a, s.b, s.c, s.d) == (0, 2, 5, 1)


def test_kw_only_subclass_of_positional_base():
    class Base(Struct):
        a: int

    class Sub(Base, kw_only=True):
        b: int = 0
        c: int

    assert Sub.__struct_fields__ == ("a", "b", "c")
    assert Sub.__match_args__ == ("a",)
    s = Sub(1, c=3)
    assert (s.a, s.b, s.c) == (1, 0, 3)
    with pytest.raises(TypeError):
        Sub(1, 2, 3)


def test_encode_fields_default_to_names():
    assert Point.__struct_encode_fields__ == ("x", "y")


def test_encode_fields_with_field_name():
    class A(Struct):
        x_y: int = field(name="x-y")
        z: int = 0

    assert A.__struct_fields__ == ("x_y", "z")
    assert A.__struct_encode_fields__ == ("x-y", "z")


def test_struct_defaults_trailing():
    class A(Struct):
        a: int
        b: int
        c: str = "c"
        d: float = 1.5

    assert A.__struct_defaults__ == ("c", 1.5)


def test_struct_defaults_none_when_all_required():
    assert Point.__struct_defaults__ == ()


def test_struct_defaults_all_defaulted():
    class A(Struct):
        a: int = 1
        b: None = None

    assert A.__struct_defaults__ == (1, None)


def test_struct_defaults_with_kw_only_required_between():
    # msgspec semantics: defaults run from the first defaulted field to the end; a required kw_only field
    # after a defaulted one is marked NODEFAULT
    class A(Struct, kw_only=True):
        a: int = 1
        b: int

    assert A.__struct_fields__ == ("a", "b")
    assert A.__struct_defaults__ == (1, boltwire.NODEFAULT)
    assert A.__struct_defaults__[1] is boltwire.NODEFAULT
    assert A(b=2).a == 1


def test_match_args_and_pattern_matching():
    assert Point3.__match_args__ == ("x", "y", "z")

    def where(p):
        match p:
            case Point3(0, 0, z):
                return f"axis {z}"
            case Point3(x, y, z=0):
                return f"plane {x},{y}"
            case Point(x=1, y=y):
                return f"x1 {y}"
            case _:
                return "other"

    assert where(Point3(0, 0, 5)) == "axis 5"
    assert where(Point3(2, 3)) == "plane 2,3"
    assert where(Point(1, 9)) == "x1 9"
    assert where(Point(2, 9)) == "other"
    assert where("nope") == "other"


def test_match_args_excludes_kw_only():
    class A(Struct):
        a: int
        b: int = field(default=0)

    class B(A, kw_only=True):
        c: int = 0

    assert B.__match_args__ == ("a", "b")

    match B(1, 2, c=3):
        case B(x, y, c=z):
            assert (x, y, z) == (1, 2, 3)
        case _:
            pytest.fail("no match")


def test_instances_have_no_dict_by_default():
    p = Point(1, 2)
    assert not hasattr(p, "__dict__")


def test_methods_properties_and_class_attributes():
    class A(Struct):
        x: int
        scale = 10  # not annotated: a plain class attribute, not a field

        def scaled(self):
            return self.x * self.scale

        @property
        def double(self):
            return self.x * 2

        @classmethod
        def make(cls):
            return cls(3)

        @staticmethod
        def helper():
            return "h"

    assert A.__struct_fields__ == ("x",)
    a = A.make()
    assert a.scaled() == 30
    assert a.double == 6
    assert A.helper() == "h"


def test_field_attribute_access_on_class_is_descriptor():
    # Field names on the class are slot descriptors (or similar), not the defaults
    p = Point(1, 2)
    assert p.x == 1
    p.x = 5
    assert p.x == 5
    assert Point(1, 2).x == 1


def test_many_fields():
    n = 300
    ns = {"__annotations__": {f"f{i}": int for i in range(n)}}
    Big = type(Struct)("Big", (Struct,), ns)
    assert len(Big.__struct_fields__) == n
    b = Big(*range(n))
    assert [getattr(b, f"f{i}") for i in range(n)] == list(range(n))
    assert b == Big(*range(n))
