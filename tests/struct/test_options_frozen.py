"""Class options: __struct_config__ values, inheritance / override of options, frozen, weakref, dict."""

import sys
import weakref

import pytest

from boltwire import Struct
from boltwire.structs import StructConfig

BOOL_OPTIONS = (
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
)

DEFAULTS = {
    "frozen": False,
    "eq": True,
    "order": False,
    "kw_only": False,
    "array_like": False,
    "gc": True,
    "repr_omit_defaults": False,
    "omit_defaults": False,
    "forbid_unknown_fields": False,
    "weakref": False,
    "dict": False,
    "cache_hash": False,
}


class Plain(Struct):
    x: int


class Frozen(Struct, frozen=True):
    x: int
    y: int = 0


class WithWeakref(Struct, weakref=True):
    x: int


class WithDict(Struct, dict=True):
    x: int


def test_default_config():
    cfg = Plain.__struct_config__
    assert isinstance(cfg, StructConfig)
    for name, value in DEFAULTS.items():
        assert getattr(cfg, name) is value, name
    assert cfg.tag is None
    assert cfg.tag_field is None


def test_config_on_instance_too():
    assert Plain(1).__struct_config__.frozen is False
    assert Frozen(1).__struct_config__.frozen is True


@pytest.mark.parametrize("option", BOOL_OPTIONS)
def test_each_bool_option_read_back(option):
    value = not DEFAULTS[option]
    kwargs = {option: value}
    if option == "cache_hash":
        kwargs["frozen"] = True
    A = type(Struct)("A", (Struct,), {"__annotations__": {"x": int}}, **kwargs)
    assert getattr(A.__struct_config__, option) is value
    for other, default in DEFAULTS.items():
        if other not in kwargs:
            assert getattr(A.__struct_config__, other) is default, other


def test_all_options_together():
    class A(
        Struct,
        frozen=True,
        eq=True,
        order=True,
        kw_only=True,
        array_like=True,
        repr_omit_defaults=True,
        omit_defaults=True,
        forbid_unknown_fields=True,
        weakref=True,
        dict=True,
        cache_hash=True,
        tag="a",
        tag_field="kind",
    ):
        x: int = 0

    cfg = A.__struct_config__
    assert cfg.frozen and cfg.eq and cfg.order and cfg.kw_only and cfg.array_like
    assert cfg.gc is True
    assert cfg.repr_omit_defaults and cfg.omit_defaults and cfg.forbid_unknown_fields
    assert cfg.weakref and cfg.dict and cfg.cache_hash
    assert cfg.tag == "a" and cfg.tag_field == "kind"
    a = A(x=1)
    assert hash(a) == hash(A(x=1))
    assert A(x=1) < A(x=2)
    assert weakref.ref(a)() is a
    assert hasattr(a, "__dict__")


def test_options_inherited():
    class Base(Struct, frozen=True, order=True, omit_defaults=True, forbid_unknown_fields=True, array_like=True):
        a: int = 0

    class Sub(Base):
        b: int = 0

    cfg = Sub.__struct_config__
    assert cfg.frozen and cfg.order and cfg.omit_defaults and cfg.forbid_unknown_fields and cfg.array_like
    s = Sub(a=1, b=2)
    with pytest.raises(AttributeError):
        s.b = 3
    assert Sub(a=1) < Sub(a=2)


def test_kw_only_applies_to_fields_of_its_own_class():
    # msgspec semantics: kw_only marks the fields defined on that class; inherited fields keep their kind
    class Base(Struct, kw_only=True):
        a: int = 0

    class Sub(Base):
        b: int = 0

    assert Sub.__struct_fields__ == ("b", "a")
    s = Sub(5)
    assert (s.a, s.b) == (0, 5)
    with pytest.raises(TypeError):
        Sub(5, 6)


def test_options_overridden_in_subclass():
    class Base(Struct, omit_defaults=True, repr_omit_defaults=True, order=True):
        a: int = 0

    class Sub(Base, omit_defaults=False, repr_omit_defaults=False, order=False):
        pass

    assert Sub.__struct_config__.omit_defaults is False
    assert Sub.__struct_config__.repr_omit_defaults is False
    assert Sub.__struct_config__.order is False
    assert Base.__struct_config__.omit_defaults is True
    assert repr(Sub()) == "Sub(a=0)"
    with pytest.raises(TypeError):
        Sub() < Sub()


def test_gc_option_inherited():
    class Base(Struct, gc=False):
        a: int

    class Sub(Base):
        b: int

    assert Sub.__struct_config__.gc is False


def test_frozen_setattr_raises():
    f = Frozen(1)
    with pytest.raises(AttributeError):
        f.x = 2
    assert f.x == 1


def test_frozen_delattr_raises():
    f = Frozen(1)
    with pytest.raises(AttributeError):
        del f.x
    assert f.x == 1


def test_frozen_new_attribute_raises():
    f = Frozen(1)
    with pytest.raises(AttributeError):
        f.other = 2


def test_frozen_object_setattr_bypass_depends_on_cpython():
    # CPython <= 3.12 refuses object.__setattr__ on a type with its own native setattr ("can't apply this
    # __setattr__"); 3.13 allows it, as it does for frozen dataclasses. Either way it is consistent.
    f = Frozen(1)
    if sys.version_info < (3, 13):
        with pytest.raises(TypeError):
            object.__setattr__(f, "x", 2)
        assert f.x == 1
    else:
        object.__setattr__(f, "x", 2)
        assert f.x == 2


def test_frozen_hash():
    assert hash(Frozen(1, 2)) == hash(Frozen(1, 2))
    assert {Frozen(1, 2): "a"}[Frozen(1, 2)] == "a"
    assert len({Frozen(1, 2), Frozen(1, 2), Frozen(2, 1)}) == 2


def test_mutable_setattr_and_delattr():
    p = Plain(1)
    p.x = 2
    assert p.x == 2
    # Deleting a field either unsets it (msgspec) or is refused; both must raise AttributeError afterwards /
    # at the del, never crash
    try:
        del p.x
    except AttributeError:
        assert p.x == 2
    else:
        with pytest.raises(AttributeError):
            p.x
    p.x = 3
    assert p.x == 3


def test_no_new_attributes_by_default():
    p = Plain(1)
    with pytest.raises(AttributeError):
        p.other = 1


def test_no_weakref_by_default():
    with pytest.raises(TypeError):
        weakref.ref(Plain(1))


def test_weakref_option():
    w = WithWeakref(1)
    r = weakref.ref(w)
    assert r() is w
    del w
    assert r() is None


def test_weakref_option_inherited():
    class Sub(WithWeakref):
        y: int = 0

    s = Sub(1)
    assert weakref.ref(s)() is s


def test_dict_option():
    d = WithDict(1)
    d.extra = "e"
    assert d.extra == "e"
    assert d.__dict__ == {"extra": "e"}
    del d.extra
    with pytest.raises(AttributeError):
        d.extra


def test_dict_option_does_not_affect_equality_of_fields():
    a = WithDict(1)
    b = WithDict(1)
    a.extra = 1
    # msgspec semantics: equality compares fields only
    assert a == b


def test_dict_and_frozen():
    class A(Struct, dict=True, frozen=True):
        x: int

    a = A(1)
    with pytest.raises(AttributeError):
        a.x = 2
    with pytest.raises(AttributeError):
        a.extra = 2


def test_array_like_and_tag_readable():
    class A(Struct, array_like=True, tag=True):
        x: int

    assert A.__struct_config__.array_like is True
    assert A.__struct_config__.tag == "A"
    assert A(1).x == 1


def test_eq_false_config():
    class A(Struct, eq=False):
        x: int

    assert A.__struct_config__.eq is False
