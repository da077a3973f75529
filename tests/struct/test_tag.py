"""tag= / tag_field= options as read back from __struct_config__, inheritance, collisions, bad values."""

import pytest

from boltwire import Struct, field


def cfg(**options):
    A = type(Struct)("Thing", (Struct,), {"__annotations__": {"a": int}}, **options)
    return A.__struct_config__


def test_untagged_by_default():
    c = cfg()
    assert c.tag is None and c.tag_field is None


def test_tag_false_is_untagged():
    c = cfg(tag=False)
    assert c.tag is None and c.tag_field is None


def test_tag_none_is_untagged():
    c = cfg(tag=None)
    assert c.tag is None and c.tag_field is None


def test_tag_true_uses_class_name():
    c = cfg(tag=True)
    assert c.tag == "Thing"
    assert c.tag_field == "type"


def test_tag_str():
    c = cfg(tag="thing-v1")
    assert c.tag == "thing-v1" and c.tag_field == "type"


def test_tag_int():
    c = cfg(tag=3)
    assert c.tag == 3 and type(c.tag) is int
    assert c.tag_field == "type"


def test_tag_negative_and_zero_int():
    assert cfg(tag=0).tag == 0
    assert cfg(tag=-5).tag == -5


def test_tag_callable_str():
    c = cfg(tag=str.lower)
    assert c.tag == "thing"
    assert c.tag_field == "type"


def test_tag_callable_int():
    c = cfg(tag=lambda name: len(name))
    assert c.tag == 5


def test_tag_callable_bad_return():
    with pytest.raises(TypeError):
        cfg(tag=lambda name: 1.5)


def test_tag_callable_exception_propagates():
    def boom(name):
        raise ValueError("no tags")

    with pytest.raises(ValueError, match="no tags"):
        cfg(tag=boom)


def test_tag_field_custom():
    c = cfg(tag=True, tag_field="kind")
    assert c.tag == "Thing" and c.tag_field == "kind"


@pytest.mark.parametrize("bad", [1.5, b"x", [1], object()])
def test_tag_bad_type(bad):
    with pytest.raises(TypeError):
        cfg(tag=bad)


@pytest.mark.parametrize("bad", [1, b"type", True])
def test_tag_field_bad_type(bad):
    with pytest.raises(TypeError):
        cfg(tag=True, tag_field=bad)


def test_tag_true_inherited_uses_subclass_name():
    class Base(Struct, tag=True):
        a: int = 0

    class Child(Base):
        pass

    assert Base.__struct_config__.tag == "Base"
    assert Child.__struct_config__.tag == "Child"
    assert Child.__struct_config__.tag_field == "type"


def test_tag_callable_inherited_applies_to_subclass():
    class Base(Struct, tag=str.upper):
        pass

    class Child(Base):
        pass

    assert Child.__struct_config__.tag == "CHILD"


def test_tag_field_inherited():
    class Base(Struct, tag=True, tag_field="kind"):
        pass

    class Child(Base):
        pass

    assert Child.__struct_config__.tag_field == "kind"


def test_tag_overridden_in_subclass():
    class Base(Struct, tag="base"):
        pass

    class Child(Base, tag="child"):
        pass

    assert Base.__struct_config__.tag == "base"
    assert Child.__struct_config__.tag == "child"


def test_tag_field_collides_with_field_name():
    with pytest.raises(ValueError, match="conflicts with an existing field of that name"):

        class A(Struct, tag=True):
            type: str


def test_tag_field_collides_with_custom_tag_field():
    with pytest.raises(ValueError, match="conflicts with an existing field of that name"):

        class A(Struct, tag=True, tag_field="kind"):
            kind: str


def test_tag_field_collides_with_encode_name():
    with pytest.raises(ValueError, match="conflicts with an existing field of that name"):

        class A(Struct, tag=True):
            kind: str = field(name="type")


def test_tag_field_collides_with_renamed_field():
    with pytest.raises(ValueError, match="conflicts with an existing field of that name"):

        class A(Struct, tag=True, rename="upper", tag_field="KIND"):
            kind: str


def test_tag_field_no_collision_when_field_renamed_away():
    class A(Struct, tag=True):
        type: str = field(name="type_")

    assert A.__struct_config__.tag_field == "type"
    assert A("x").type == "x"


def test_tag_field_collision_with_inherited_field():
    class Base(Struct):
        type: str = ""

    with pytest.raises(ValueError, match="conflicts with an existing field of that name"):

        class Child(Base, tag=True):
            pass


def test_tagged_class_behaves_normally():
    class A(Struct, tag=True):
        x: int

    a = A(1)
    assert a.x == 1
    assert repr(a) == "A(x=1)"
    assert a == A(1)
    assert A.__struct_fields__ == ("x",)  # the tag is not a field
