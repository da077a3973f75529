"""Invalid Struct definitions and option values raise TypeError at class creation."""

import pytest

from boltwire import Struct, field

BOOL_OPTIONS = [
    "frozen",
    "eq",
    "order",
    "kw_only",
    "array_like",
    "gc",
    "repr_omit_defaults",
    "omit_defaults",
    "forbid_unknown_fields",
    "weakref",
    "dict",
    "cache_hash",
]


def define(name="Bad", bases=(Struct,), ns=None, **options):
    ns = {"__annotations__": {"x": int}} if ns is None else ns
    return type(Struct)(name, bases, ns, **options)


def test_define_helper_works():
    A = define(frozen=True)
    assert A(1).x == 1


def test_defining_init_rejected():
    with pytest.raises(TypeError):

        class A(Struct):
            x: int

            def __init__(self, x):
                pass


def test_defining_new_rejected():
    with pytest.raises(TypeError):

        class A(Struct):
            x: int

            def __new__(cls, *args):
                return super().__new__(cls)


def test_defining_init_in_subclass_rejected():
    class A(Struct):
        x: int

    with pytest.raises(TypeError):

        class B(A):
            def __init__(self):
                pass


def test_required_after_default_rejected():
    with pytest.raises(TypeError):

        class A(Struct):
            a: int = 0
            b: int


def test_required_after_factory_default_rejected():
    with pytest.raises(TypeError):

        class A(Struct):
            a: list = field(default_factory=list)
            b: int


def test_required_after_default_ok_kw_only():
    class A(Struct, kw_only=True):
        a: int = 0
        b: int

    assert A(b=1).a == 0


@pytest.mark.parametrize("option", BOOL_OPTIONS)
@pytest.mark.parametrize("value", [1, 0, "no", "yes", 1.0, [True], None])
def test_bool_option_read_by_truthiness(option, value):
    # msgspec parses these options with "p" (truthiness): the same here, compared value by value.
    import msgspec

    kwargs = {option: value}
    if option == "cache_hash":
        kwargs["frozen"] = True
    results = []
    for base in (Struct, msgspec.Struct):
        try:
            cls = type(base)("A", (base,), {"__annotations__": {"x": int}}, **kwargs)
            results.append(getattr(cls.__struct_config__, option, bool(value)))
        except Exception as e:  # noqa: BLE001 (compared across the two libraries)
            results.append(type(e).__name__)
    assert results[0] == results[1]


@pytest.mark.parametrize("option", BOOL_OPTIONS)
@pytest.mark.parametrize("value", [True, False])
def test_bool_option_accepts_bool(option, value):
    kwargs = {option: value}
    if option == "cache_hash":
        kwargs["frozen"] = True
    A = define(**kwargs)
    assert getattr(A.__struct_config__, option) is value


def test_option_values_read_by_truthiness_like_msgspec():
    import msgspec

    for lib_struct in (Struct, msgspec.Struct):
        for value, expected in [(1, True), ("no", True), (0, False), (None, False), ([], False)]:
            cls = type(lib_struct)("A", (lib_struct,), {"__annotations__": {"x": int}}, frozen=value)
            assert cls.__struct_config__.frozen is expected


def test_rename_bogus_rejected():
    with pytest.raises(ValueError, match="rename='bogus' is unsupported"):  # msgspec's type and wording

        class A(Struct, rename="bogus"):
            x: int


def test_tag_float_rejected():
    with pytest.raises(TypeError):

        class A(Struct, tag=1.5):
            x: int


def test_tag_field_non_str_rejected():
    with pytest.raises(TypeError):
        define(tag=True, tag_field=3)


def test_cache_hash_without_frozen_rejected():  # ValueError, as msgspec
    with pytest.raises(ValueError, match="Cannot set cache_hash=True without frozen=True"):

        class A(Struct, cache_hash=True):
            x: int


def test_cache_hash_with_frozen_false_rejected():
    with pytest.raises(ValueError):
        define(cache_hash=True, frozen=False)


def test_cache_hash_inherited_frozen_ok():
    class Base(Struct, frozen=True):
        x: int

    class Sub(Base, cache_hash=True):
        pass

    assert Sub.__struct_config__.cache_hash is True
    assert hash(Sub(1)) == hash(Sub(1))


def test_unknown_option_rejected():
    with pytest.raises(TypeError):
        define(not_an_option=True)


def test_mutable_default_rejected():
    with pytest.raises(TypeError):

        class A(Struct):
            x: list = [1, 2]


def test_field_default_and_factory_rejected():
    with pytest.raises(TypeError):

        class A(Struct):
            x: list = field(default=1, default_factory=list)


def test_field_name_non_str_rejected():
    with pytest.raises(TypeError):
        field(name=1)


def test_failed_definition_leaves_base_usable():
    with pytest.raises(TypeError):
        define(rename=1)

    class Good(Struct):
        x: int

    assert Good(1).x == 1
