"""boltwire.structs: asdict, astuple, fields / FieldInfo, force_setattr, replace, StructConfig."""

import pytest

import boltwire
from boltwire import NODEFAULT, Struct, field, structs
from boltwire.structs import FieldInfo, StructConfig


class Point(Struct):
    x: int
    y: int = 0


class Frozen(Struct, frozen=True):
    a: int
    b: list = []


class Rich(Struct, rename="camel"):
    req: int
    with_default: str = "d"
    with_factory: list = field(default_factory=list)
    empty_list: list = []
    custom_name: int = field(default=1, name="CN")


class KwOnly(Struct, kw_only=True):
    a: int = 0
    b: int


def test_module_identity():
    import boltwire.structs as s

    assert s is structs
    assert boltwire.structs is structs


def test_asdict():
    inner = [1]
    d = structs.asdict(Point(inner, 2))
    assert d == {"x": inner, "y": 2}
    assert type(d) is dict
    assert list(d) == ["x", "y"]
    assert d["x"] is inner  # shallow


def test_asdict_uses_attribute_names():
    d = structs.asdict(Rich(1))
    assert list(d) == ["req", "with_default", "with_factory", "empty_list", "custom_name"]


def test_asdict_not_recursive():
    p = Point(Point(1, 2), 3)
    d = structs.asdict(p)
    assert d["x"] is p.x


def test_asdict_new_dict_each_time():
    p = Point(1)
    assert structs.asdict(p) is not structs.asdict(p)


def test_astuple():
    inner = [1]
    t = structs.astuple(Point(inner, 2))
    assert t == (inner, 2)
    assert type(t) is tuple
    assert t[0] is inner


def test_astuple_kw_only_field_order():
    assert structs.astuple(KwOnly(b=2)) == (0, 2)
    assert structs.asdict(KwOnly(b=2)) == {"a": 0, "b": 2}


def test_asdict_astuple_empty():
    class E(Struct):
        pass

    assert structs.asdict(E()) == {}
    assert structs.astuple(E()) == ()


@pytest.mark.parametrize("func", [structs.asdict, structs.astuple])
@pytest.mark.parametrize("bad", [1, (1, 2), {"x": 1}, Point, None])
def test_asdict_astuple_non_struct(func, bad):
    with pytest.raises(TypeError):
        func(bad)


def test_fields_on_type_and_instance():
    f1 = structs.fields(Point)
    f2 = structs.fields(Point(1))
    assert type(f1) is tuple
    assert len(f1) == 2
    assert [f.name for f in f1] == ["x", "y"]
    assert [f.name for f in f2] == ["x", "y"]
    assert all(isinstance(f, FieldInfo) for f in f1)


def test_fieldinfo_details():
    info = {f.name: f for f in structs.fields(Rich)}
    assert list(info) == ["req", "with_default", "with_factory", "empty_list", "custom_name"]

    req = info["req"]
    assert req.encode_name == "req"
    assert req.type is int
    assert req.default is NODEFAULT
    assert req.default_factory is NODEFAULT
    assert req.required is True

    wd = info["with_default"]
    assert wd.encode_name == "withDefault"
    assert wd.type is str
    assert wd.default == "d"
    assert wd.default_factory is NODEFAULT
    assert wd.required is False

    wf = info["with_factory"]
    assert wf.encode_name == "withFactory"
    assert wf.default is NODEFAULT
    assert wf.default_factory is list
    assert wf.required is False

    el = info["empty_list"]
    assert el.required is False
    # an empty [] default is a per-instance factory (msgspec reports it as default_factory=list)
    assert el.default_factory is list
    assert el.default is NODEFAULT

    cn = info["custom_name"]
    assert cn.encode_name == "CN"
    assert cn.default == 1


def test_fields_kw_only_required():
    info = {f.name: f for f in structs.fields(KwOnly)}
    assert info["a"].required is False and info["a"].default == 0
    assert info["b"].required is True


def test_fields_generic_type():
    class A(Struct):
        x: list[int]
        y: "dict[str, int]"

    info = structs.fields(A)
    assert info[0].type == list[int]
    assert info[1].type == dict[str, int]


@pytest.mark.parametrize("bad", [1, "Point", int, None, object()])
def test_fields_non_struct(bad):
    with pytest.raises(TypeError):
        structs.fields(bad)


def test_fieldinfo_repr_and_eq():
    f = structs.fields(Point)[0]
    assert "x" in repr(f)
    assert f == structs.fields(Point)[0]


def test_force_setattr_frozen():
    f = Frozen(1)
    structs.force_setattr(f, "a", 5)
    assert f.a == 5
    with pytest.raises(AttributeError):
        f.a = 6


def test_force_setattr_mutable():
    p = Point(1)
    structs.force_setattr(p, "y", 9)
    assert p.y == 9


def test_force_setattr_unknown_attribute():
    with pytest.raises(AttributeError):
        structs.force_setattr(Frozen(1), "zzz", 1)


def test_force_setattr_non_struct():
    class Plain:
        pass

    with pytest.raises(TypeError):
        structs.force_setattr(Plain(), "a", 1)


def test_force_setattr_hash_uses_new_value():
    f = Frozen(1, ())
    structs.force_setattr(f, "a", 2)
    assert hash(f) == hash(Frozen(2, ()))


def test_replace_via_module():
    p = Point(1, 2)
    assert structs.replace(p, x=3) == Point(3, 2)


def test_struct_config_type():
    assert type(Point.__struct_config__) is StructConfig
    c = Point.__struct_config__
    with pytest.raises((AttributeError, TypeError)):
        c.frozen = True
    assert Point.__struct_config__.frozen is False


def test_struct_config_repr_mentions_options():
    r = repr(Point.__struct_config__)
    assert "StructConfig" in r
