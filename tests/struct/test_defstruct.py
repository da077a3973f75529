"""boltwire.defstruct: dynamic Struct classes."""

import pickle

import pytest

from boltwire import NODEFAULT, Struct, StructMeta, defstruct, structs


def test_defstruct_str_fields():
    P = defstruct("P", ["x", "y"])
    assert isinstance(P, StructMeta)
    assert issubclass(P, Struct)
    assert P.__name__ == "P"
    assert P.__struct_fields__ == ("x", "y")
    p = P(1, 2)
    assert (p.x, p.y) == (1, 2)
    assert repr(p) == "P(x=1, y=2)"
    assert p == P(1, 2)


def test_defstruct_typed_and_defaults():
    P = defstruct("P", ["a", ("b", int), ("c", str, "z"), ("d", list, [])])
    assert P.__struct_fields__ == ("a", "b", "c", "d")
    assert len(P.__struct_defaults__) == 2 and P.__struct_defaults__[0] == "z"
    info = {f.name: f for f in structs.fields(P)}
    assert info["b"].type is int
    assert info["c"].type is str
    assert info["c"].default == "z"
    assert info["b"].required is True
    p1, p2 = P(1, 2), P(1, 2)
    assert p1.c == "z"
    assert p1.d == [] and p1.d is not p2.d


def test_defstruct_untyped_field_is_any():
    import typing

    P = defstruct("P", ["x"])
    assert structs.fields(P)[0].type is typing.Any


def test_defstruct_required_after_default_rejected():
    with pytest.raises(TypeError):
        defstruct("P", [("a", int, 0), ("b", int)])


def test_defstruct_options():
    P = defstruct("P", [("x", int)], frozen=True, order=True, rename="upper", tag=True)
    c = P.__struct_config__
    assert c.frozen and c.order
    assert c.tag == "P" and c.tag_field == "type"
    assert P.__struct_encode_fields__ == ("X",)
    p = P(1)
    with pytest.raises(AttributeError):
        p.x = 2
    assert hash(p) == hash(P(1))
    assert P(1) < P(2)


def test_defstruct_kw_only():
    P = defstruct("P", [("a", int, 0), ("b", int)], kw_only=True)
    assert P(b=1).a == 0
    with pytest.raises(TypeError):
        P(1, 2)


def test_defstruct_bases():
    class Base(Struct):
        a: int

        def double(self):
            return self.a * 2

    P = defstruct("P", [("b", int, 0)], bases=(Base,))
    assert P.__struct_fields__ == ("a", "b")
    assert issubclass(P, Base)
    assert P(3).double() == 6


def test_defstruct_bases_inherit_options():
    class Base(Struct, frozen=True):
        pass

    P = defstruct("P", ["x"], bases=(Base,))
    assert P.__struct_config__.frozen is True


def test_defstruct_module():
    P = defstruct("P", ["x"], module="some.module")
    assert P.__module__ == "some.module"


def test_defstruct_default_module_and_qualname():
    P = defstruct("P", ["x"])
    assert isinstance(P.__module__, str)
    assert P.__qualname__ == "P"


def test_defstruct_namespace():
    def total(self):
        return self.x + self.y

    P = defstruct("P", ["x", "y"], namespace={"total": total, "CONST": 5})
    assert P(1, 2).total() == 3
    assert P.CONST == 5
    assert P.__struct_fields__ == ("x", "y")


def test_defstruct_namespace_not_mutated():
    ns = {"CONST": 1}
    defstruct("P", ["x"], namespace=ns)
    assert ns == {"CONST": 1}


def test_defstruct_empty():
    P = defstruct("P", [])
    assert P.__struct_fields__ == ()
    assert P() == P()


def test_defstruct_fields_iterable():
    P = defstruct("P", (n for n in ["a", "b"]))
    assert P.__struct_fields__ == ("a", "b")


def test_defstruct_default_nodefault_is_required():
    P = defstruct("P", [("a", int, NODEFAULT)])
    with pytest.raises(TypeError):
        P()


@pytest.mark.parametrize("bad", [[1], [("a",)], [("a", int, 0, 1)], [b"a"]])
def test_defstruct_bad_field_spec(bad):
    with pytest.raises(TypeError):
        defstruct("P", bad)


def test_defstruct_bad_option():
    with pytest.raises(TypeError):
        defstruct("P", ["x"], not_an_option=True)


def test_defstruct_pickle_when_module_attribute():
    global DynPoint
    DynPoint = defstruct("DynPoint", ["x", "y"], module=__name__)
    try:
        p = DynPoint(1, 2)
        assert pickle.loads(pickle.dumps(p)) == p
    finally:
        del DynPoint
