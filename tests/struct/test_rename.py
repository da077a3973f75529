"""rename= option: named conventions, mappings, callables, collisions, field(name=...) precedence."""

import msgspec
import pytest

from boltwire import Struct, field


def make(rename, *names, base=Struct, **extra):
    ns = {"__annotations__": {n: int for n in names}}
    ns.update(extra)
    return type(base)("R", (base,), ns, rename=rename)


def raised(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the type is what is compared)
        return type(e).__name__
    return None


@pytest.mark.parametrize(
    "rename,expected",
    [
        ("lower", ("field_one", "field_two_three", "x")),
        ("upper", ("FIELD_ONE", "FIELD_TWO_THREE", "X")),
        ("camel", ("fieldOne", "fieldTwoThree", "x")),
        ("pascal", ("FieldOne", "FieldTwoThree", "X")),
        ("kebab", ("field-one", "field-two-three", "x")),
    ],
)
def test_named_conventions(rename, expected):
    R = make(rename, "field_one", "field_two_three", "x")
    assert R.__struct_fields__ == ("field_one", "field_two_three", "x")
    assert R.__struct_encode_fields__ == expected
    assert R.__struct_config__ is not None


@pytest.mark.parametrize(
    "rename,name,expected",
    [
        ("camel", "field_one", "fieldOne"),
        ("camel", "a_b_c", "aBC"),
        ("camel", "already", "already"),
        ("pascal", "field_one", "FieldOne"),
        ("pascal", "a_b_c", "ABC"),
        ("pascal", "x", "X"),
        ("kebab", "field_one", "field-one"),
        ("kebab", "a_b_c", "a-b-c"),
        ("upper", "field_one", "FIELD_ONE"),
        ("lower", "FIELD_ONE", "field_one"),
    ],
)
def test_named_convention_single(rename, name, expected):
    assert make(rename, name).__struct_encode_fields__ == (expected,)


def test_rename_none_is_identity():
    R = make(None, "field_one")
    assert R.__struct_encode_fields__ == ("field_one",)


def test_rename_mapping():
    R = make({"field_one": "one", "x": "ex"}, "field_one", "field_two", "x")
    assert R.__struct_encode_fields__ == ("one", "field_two", "ex")


def test_rename_mapping_extra_keys_ignored():
    R = make({"nope": "n"}, "a")
    assert R.__struct_encode_fields__ == ("a",)


def test_rename_callable():
    R = make(lambda n: n.upper() + "!", "a", "b")
    assert R.__struct_encode_fields__ == ("A!", "B!")


def test_rename_callable_none_keeps_name():
    R = make(lambda n: None if n == "keep" else "x_" + n, "keep", "change")
    assert R.__struct_encode_fields__ == ("keep", "x_change")


def test_rename_callable_bad_return_type():
    with pytest.raises(TypeError):
        make(lambda n: 1, "a")


def test_rename_mapping_bad_value_type():
    with pytest.raises(TypeError):
        make({"a": 1}, "a")


def test_rename_callable_exception_propagates():
    def boom(name):
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        make(boom, "a")


def test_rename_collision_rejected():
    # msgspec raises ValueError ("Multiple fields rename to the same name"): the same here
    with pytest.raises(ValueError, match="Multiple fields rename to the same name"):
        make("lower", "Ab", "ab")
    assert raised(lambda: make("lower", "Ab", "ab", base=msgspec.Struct)) == "ValueError"


def test_rename_mapping_collision_rejected():
    # msgspec raises ValueError ("Multiple fields rename to the same name"): the same here
    with pytest.raises(ValueError, match="Multiple fields rename to the same name"):
        make({"a": "x", "b": "x"}, "a", "b")
    assert raised(lambda: make({"a": "x", "b": "x"}, "a", "b", base=msgspec.Struct)) == "ValueError"


def test_rename_collision_with_unrenamed_field_rejected():
    # msgspec raises ValueError ("Multiple fields rename to the same name"): the same here
    with pytest.raises(ValueError, match="Multiple fields rename to the same name"):
        make({"a": "b"}, "a", "b")
    assert raised(lambda: make({"a": "b"}, "a", "b", base=msgspec.Struct)) == "ValueError"


def test_field_name_collision_rejected():
    with pytest.raises(ValueError, match="Multiple fields rename to the same name"):

        class A(Struct):
            a: int = field(name="b")
            b: int = 0


def test_field_name_wins_over_rename():
    class A(Struct, rename="camel"):
        field_one: int = field(name="FIRST")
        field_two: int = 0

    assert A.__struct_encode_fields__ == ("FIRST", "fieldTwo")


def test_rename_inherited():
    class Base(Struct, rename="camel"):
        field_one: int

    class Sub(Base):
        field_two: int

    assert Sub.__struct_encode_fields__ == ("fieldOne", "fieldTwo")


def test_rename_overridden_in_subclass_applies_to_new_fields():
    class Base(Struct, rename="camel"):
        field_one: int

    class Sub(Base, rename="kebab"):
        field_two: int

    # msgspec semantics: inherited fields keep the encode names they got in the base class
    assert Sub.__struct_encode_fields__ == ("fieldOne", "field-two")
    assert Base.__struct_encode_fields__ == ("fieldOne",)


def test_rename_does_not_change_attribute_names():
    class A(Struct, rename="upper"):
        abc: int

    a = A(abc=1)
    assert a.abc == 1
    assert A.__struct_fields__ == ("abc",)
    assert not hasattr(a, "ABC")


def test_rename_with_kw_only_order():
    class Base(Struct, kw_only=True, rename="pascal"):
        b_field: int = 0

    class Sub(Base):
        a_field: int

    assert Sub.__struct_fields__ == ("a_field", "b_field")
    assert Sub.__struct_encode_fields__ == ("AField", "BField")


@pytest.mark.parametrize("bad", ["bogus", "CAMEL", "", 1, 1.5, b"camel", ["camel"]])
def test_rename_invalid(bad):
    # An unknown convention name is a ValueError, a value of the wrong type a TypeError: as msgspec.
    expected = ValueError if isinstance(bad, str) else TypeError
    with pytest.raises(expected):
        make(bad, "a")
    if not isinstance(bad, (bytes, list)):  # msgspec takes any object with __getitem__ as a mapping
        assert raised(lambda: make(bad, "a", base=msgspec.Struct)) == expected.__name__


def test_rename_messages_match_msgspec():
    for rename, pattern in [
        ("invalid", "rename='invalid' is unsupported"),
        (1, "str, callable, or mapping"),
        (lambda n: 1, "Expected calling `rename` to return a `str` or `None`, got `int`"),
        (lambda n: n[:1], "Multiple fields rename to the same name"),
    ]:
        for base in (Struct, msgspec.Struct):
            with pytest.raises((TypeError, ValueError), match=pattern):
                make(rename, "aa", "ab", base=base)


@pytest.mark.parametrize("bad", ["foo\\bar", 'foo"bar', "foo\tbar"])
def test_rename_invalid_characters(bad):
    for base in (Struct, msgspec.Struct):
        with pytest.raises(ValueError, match="must not contain") as rec:
            make(lambda n: bad, "x", base=base)
        assert bad in str(rec.value)


@pytest.mark.parametrize("base", [Struct, msgspec.Struct])
def test_unchanged_names_share_the_fields_tuple(base):
    for rename in (None, "lower"):
        cls = make(rename, "x", "y", base=base)
        assert cls.__struct_encode_fields__ is cls.__struct_fields__
