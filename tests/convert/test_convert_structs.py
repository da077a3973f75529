"""convert() into Structs with every class option, compared field by field with msgspec.convert on the same
definitions (each Struct family is built once per library by a factory taking the library module)."""

import datetime
import uuid
from typing import Any, Dict, Generic, List, Literal, Optional, Tuple, TypeVar, Union

import pytest

import boltwire
import msgspec
from _convert_diff import both, factory, per_lib, run_child

T = TypeVar("T")
U = TypeVar("U")


@factory
def Point(lib):
    class Point(lib.Struct):
        x: int
        y: int = 0

    return Point


@factory
def Everything(lib):
    class Inner(lib.Struct):
        a: int
        b: List[str] = []

    class Everything(lib.Struct):
        i: int
        f: float
        s: str
        o: Optional[int] = None
        l: List[int] = lib.field(default_factory=list)
        d: Dict[str, float] = {}
        t: Tuple[int, str] = (0, "")
        inner: Optional[Inner] = None
        inners: List[Inner] = []
        u: Union[int, str] = 0
        dt: Optional[datetime.datetime] = None
        uid: Optional[uuid.UUID] = None

    return Everything


@factory
def Renamed(lib):
    class Renamed(lib.Struct, rename="camel"):
        first_name: str
        last_name: str = ""
        user_id_value: int = 0

    return Renamed


@factory
def RenamedMap(lib):
    class RenamedMap(lib.Struct, rename={"a": "A-key", "b": "bee"}):
        a: int
        b: int = 2
        c: int = 3

    return RenamedMap


@factory
def RenamedFn(lib):
    class RenamedFn(lib.Struct, rename=lambda n: n.upper()):
        abc: int
        de: int = 1

    return RenamedFn


@factory
def Forbid(lib):
    class Forbid(lib.Struct, forbid_unknown_fields=True):
        a: int
        b: int = 0

    return Forbid


@factory
def KwOnly(lib):
    class KwOnly(lib.Struct, kw_only=True):
        a: int = 1
        b: int

    return KwOnly


@factory
def Frozen(lib):
    class Frozen(lib.Struct, frozen=True):
        a: int
        b: str = "x"

    return Frozen


@factory
def ArrayLike(lib):
    class ArrayLike(lib.Struct, array_like=True):
        a: int
        b: str
        c: float = 1.5
        d: List[int] = []

    return ArrayLike


@factory
def Tagged(lib):
    class Base(lib.Struct, tag=True):
        pass

    class Cat(Base):
        name: str
        lives: int = 9

    class Dog(Base):
        name: str
        good: bool = True

    return Union[Cat, Dog]


@factory
def TaggedCustom(lib):
    class Base(lib.Struct, tag_field="kind"):
        pass

    class A(Base, tag="alpha"):
        x: int

    class B(Base, tag="beta"):
        y: str

    class C(Base, tag=lambda name: name.lower() + "!"):
        z: float = 0.0

    return Union[A, B, C]


@factory
def TaggedInt(lib):
    class Base(lib.Struct, tag_field="t"):
        pass

    class One(Base, tag=1):
        v: int

    class Two(Base, tag=2):
        v: str

    return Union[One, Two]


@factory
def TaggedSingle(lib):
    class Only(lib.Struct, tag="only", tag_field="type"):
        v: int = 0

    return Only


@factory
def TaggedArray(lib):
    class Base(lib.Struct, tag=True, array_like=True):
        pass

    class P(Base):
        x: int

    class Q(Base):
        x: str
        y: int = 0

    return Union[P, Q]


@factory
def TaggedOrNone(lib):
    class Base(lib.Struct, tag=True):
        pass

    class A(Base):
        x: int

    class B(Base):
        y: int

    return Optional[Union[A, B]]


@factory
def StructOrDict(lib):
    class S(lib.Struct):
        x: int

    return Union[S, List[int]]


@factory
def Defaults(lib):
    class Defaults(lib.Struct):
        a: int = 1
        b: List[int] = lib.field(default_factory=lambda: [1, 2])
        c: Dict[str, int] = lib.field(default_factory=dict)
        d: Optional[str] = None
        e: Tuple[int, ...] = ()
        f: Any = None

    return Defaults


@factory
def PostInit(lib):
    class Item(lib.Struct):
        price: float

        def __post_init__(self):
            if self.price < 0:
                raise ValueError("price must be >= 0")
            if self.price == 13:
                raise TypeError("unlucky price")
            if self.price == 7:
                raise KeyError("other errors propagate")

    class Order(lib.Struct):
        items: List[Item]
        note: str = ""

    return Order


@factory
def PostInitBare(lib):
    class Item(lib.Struct):
        price: float

        def __post_init__(self):
            if self.price < 0:
                raise ValueError("price must be >= 0")

    return Item


@factory
def GenericBox(lib):
    class Box(lib.Struct, Generic[T]):
        value: T
        items: List[T] = []

    return Box


@factory
def GenericPair(lib):
    class Pair(lib.Struct, Generic[T, U]):
        first: T
        second: U

    return Pair


_RECURSIVE_SRC = """
from typing import List, Optional
import {lib}

class Node({lib}.Struct):
    value: int
    children: List["Node"] = []
    parent: Optional["Node"] = None
"""


@factory
def Recursive(lib):
    # Forward references resolve in the class's module: give each library its own module namespace.
    import sys
    import types

    name = f"_ct_recursive_{lib.__name__}"
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(_RECURSIVE_SRC.format(lib=lib.__name__), module.__dict__)
    return module.Node


@factory
def Inherited(lib):
    class Base(lib.Struct):
        a: int
        b: str = "b"

    class Child(Base):
        c: float = 0.0
        a: int = 5

    return Child


@factory
def OmitDefaults(lib):
    class OmitDefaults(lib.Struct, omit_defaults=True):
        a: int = 0
        b: str = ""

    return OmitDefaults


@factory
def LiteralField(lib):
    class LiteralField(lib.Struct):
        kind: Literal["a", "b"]
        level: Literal[1, 2, 3] = 1

    return LiteralField


@factory
def NestedOptional(lib):
    class Leaf(lib.Struct):
        v: int

    class Mid(lib.Struct):
        leaf: Leaf
        leaves: List[Leaf] = []
        by_name: Dict[str, Leaf] = {}

    class Top(lib.Struct):
        mid: Optional[Mid] = None
        mids: List[Mid] = []

    return Top


STRUCT_CASES = [
    (Point, [{"x": 1}, {"x": 1, "y": 2}, {"y": 2}, {}, {"x": "1"}, {"x": 1, "z": 3}, {"x": None}, [1, 2], "x", None,
             {1: 2}, {"x": 1.0}, {"x": True}, {"x": 2**64}]),
    (Everything, [
        {"i": 1, "f": 1.5, "s": "s"},
        {"i": 1, "f": 1, "s": "s", "o": 3, "l": [1, 2], "d": {"a": 1}, "t": [1, "x"], "inner": {"a": 1},
         "inners": [{"a": 2, "b": ["q"]}], "u": "str", "dt": "2021-01-01T00:00:00Z",
         "uid": "c0a80164-0000-4000-8000-00000000000a"},
        {"i": 1, "f": 1.5, "s": "s", "t": [1]},
        {"i": 1, "f": 1.5, "s": "s", "t": (1, "x", 3)},
        {"i": 1, "f": 1.5, "s": "s", "inners": [{"a": 2}, {"b": []}]},
        {"i": 1, "f": 1.5, "s": "s", "inners": [{"a": 2}, {"a": 3, "b": [1]}]},
        {"i": 1, "f": 1.5, "s": "s", "d": {"k": "v"}},
        {"i": 1, "f": 1.5, "s": "s", "u": 1.5},
        {"i": 1, "f": 1.5, "s": "s", "dt": "yesterday"},
        {"i": 1, "f": "1.5", "s": "s"},
        {"i": 1, "f": 1.5, "s": "s", "uid": "nope"},
        {"i": 1, "f": 1.5},
    ]),
    (Renamed, [{"firstName": "a"}, {"first_name": "a"}, {"firstName": "a", "userIdValue": "x"}, {"lastName": "b"},
               {"firstName": "a", "lastName": "b", "userIdValue": 3}]),
    (RenamedMap, [{"A-key": 1}, {"a": 1}, {"A-key": 1, "bee": "x"}, {"bee": 1}, {"A-key": 1, "c": 9}]),
    (RenamedFn, [{"ABC": 1}, {"abc": 1}, {"ABC": 1, "DE": "x"}]),
    (Forbid, [{"a": 1}, {"a": 1, "c": 2}, {"c": 2}, {"a": 1, "b": 2}, {"b": 1, "zz": 0}]),
    (KwOnly, [{"b": 2}, {}, {"a": 0}, {"a": 3, "b": 4}]),
    (Frozen, [{"a": 1}, {"a": "x"}]),
    (ArrayLike, [[1, "x"], [1, "x", 2.5], [1, "x", 2.5, [3]], [1, "x", 2.5, [3], "extra"], [1], [], ["1", "x"],
                 (1, "x"), {1, 2}, {"a": 1, "b": "x"}, [1, 2], [1, "x", "y"], [1, "x", 1.0, ["a"]]]),
    (Tagged, [{"type": "Cat", "name": "tom"}, {"type": "Dog", "name": "rex", "good": False},
              {"name": "x"}, {"type": "Cow", "name": "x"}, {"type": 1, "name": "x"}, {"type": None},
              {"type": "Cat"}, {"type": "Cat", "name": 1}, {"type": "Dog", "name": "r", "good": "yes"},
              {"name": "tom", "type": "Cat", "lives": 3}, [], "Cat", None]),
    (TaggedCustom, [{"kind": "alpha", "x": 1}, {"kind": "beta", "y": "q"}, {"kind": "c!", "z": 2.5}, {"kind": "C"},
                    {"kind": "gamma"}, {"x": 1}, {"kind": "alpha", "x": "1"}]),
    (TaggedInt, [{"t": 1, "v": 1}, {"t": 2, "v": "s"}, {"t": 3, "v": 1}, {"t": "1", "v": 1}, {"t": 1, "v": "s"},
                 {"v": 1}, {"t": True, "v": 1}]),
    (TaggedSingle, [{"type": "only", "v": 1}, {"v": 1}, {"type": "other"}, {"type": 1}, {}]),
    (TaggedArray, [["P", 1], ["Q", "x"], ["Q", "x", 2], ["R", 1], [], [1], ["P"], ["P", "x"], ["Q", "x", 2, 3],
                   {"type": "P", "x": 1}]),
    (TaggedOrNone, [None, {"type": "A", "x": 1}, {"type": "B", "y": 2}, {"type": "C"}, 1]),
    (StructOrDict, [{"x": 1}, [1, 2], {"x": "a"}, ["a"], 1, None]),
    (Defaults, [{}, {"a": 5}, {"b": []}, {"c": {"k": 1}}, {"e": [1, 2]}, {"f": {"any": ["thing"]}}, {"d": 1}]),
    (PostInit, [{"items": [{"price": 1.0}]}, {"items": [{"price": 1.0}, {"price": -1.0}]},
                {"items": [{"price": 13}]}, {"items": [{"price": 0}, {"price": 1}, {"price": 7}]}]),
    (PostInitBare, [{"price": 1}, {"price": -1}]),
    (Recursive, [{"value": 1}, {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]},
                 {"value": 1, "children": [{"value": 2, "children": [{"value": "x"}]}]},
                 {"value": 1, "parent": {"value": 0, "parent": None}}, {"value": 1, "parent": {"children": []}}]),
    (Inherited, [{}, {"a": 1, "b": "x", "c": 2.0}, {"c": "x"}]),
    (OmitDefaults, [{}, {"a": 1}, {"b": 2}]),
    (LiteralField, [{"kind": "a"}, {"kind": "c"}, {"kind": "b", "level": 3}, {"kind": "b", "level": 4},
                    {"kind": 1}]),
    (NestedOptional, [{}, {"mid": None}, {"mid": {"leaf": {"v": 1}}}, {"mid": {"leaf": {"v": "x"}}},
                      {"mids": [{"leaf": {"v": 1}}, {"leaf": {"v": 1}, "leaves": [{"v": 2}, {"w": 3}]}]},
                      {"mids": [{"leaf": {"v": 1}, "by_name": {"k": {"v": "bad"}}}]},
                      {"mids": [{"leaf": {"v": 1}, "by_name": {"k": []}}]}]),
]


def _cases():
    for make, inputs in STRUCT_CASES:
        for i, value in enumerate(inputs):
            yield pytest.param(make, value, id=f"{make.name}-{i}")


@pytest.mark.parametrize("make,value", list(_cases()))
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_struct_cases(make, value, strict):
    got, want = both(make, value, strict=strict)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"


GENERIC_CASES = [
    ("Box[int]", {"value": 1, "items": [2]}),
    ("Box[int]", {"value": "x"}),
    ("Box[int]", {"value": 1, "items": ["x"]}),
    ("Box[str]", {"value": "s", "items": ["a"]}),
    ("Box[List[int]]", {"value": [1], "items": [[2], []]}),
    ("Box", {"value": "anything", "items": [1, "x"]}),
    ("Pair[int, str]", {"first": 1, "second": "s"}),
    ("Pair[int, str]", {"first": "1", "second": "s"}),
    ("Pair[int, str]", {"first": 1}),
    ("List[Box[int]]", [{"value": 1}, {"value": "2"}]),
]

_GENERIC_CHILD = """
from typing import List
import test_convert_structs as t
from _convert_diff import both
def make(lib):
    Box = t.GenericBox.fn(lib)
    Pair = t.GenericPair.fn(lib)
    return eval({expr!r})
got, want = both(make, {value!r})
assert got == want, f"boltwire={{got!r}} msgspec={{want!r}}"
print("same")
"""


@pytest.mark.parametrize("expr,value", GENERIC_CASES)
def test_generic_struct(expr, value):
    # Run in a child interpreter: a parametrized generic Struct has crashed the process (SIGSEGV), and one crash
    # must not hide the rest of the suite's results. The child must exit cleanly AND agree with msgspec.
    proc = run_child(_GENERIC_CHILD.format(expr=expr, value=value))
    assert proc.returncode == 0 and proc.stdout.strip() == "same", (proc.returncode, proc.stdout, proc.stderr[-2000:])


def test_passthrough_of_instances_of_the_type():
    P = Point.fn(boltwire)
    p = P(1, 2)
    assert boltwire.convert(p, P) is p
    got, want = both(Point, per_lib(lambda lib, T: T(1, 2)))
    assert got == want


def test_passthrough_struct_inside_containers():
    P = Point.fn(boltwire)
    p = P(1, 2)
    out = boltwire.convert([p, {"x": 3}], List[P])
    assert out[0] is p and out[1] == P(3)
    got, want = both(lambda lib: List[Point.fn(lib)], per_lib(lambda lib, T: [Point.fn(lib)(1), {"x": 2}]))
    assert got == want


def test_instance_of_other_struct_without_from_attributes():
    def make(lib):
        return Point.fn(lib)

    def other(lib, T):
        class Other(lib.Struct):
            x: int
            y: int

        return Other(1, 2)

    got, want = both(make, per_lib(other))
    assert got == want


def test_tagged_struct_instance_passthrough():
    got, want = both(Tagged, per_lib(lambda lib, T: T.__args__[0](name="x")))
    assert got == want


def test_post_init_error_chain_has_cause():
    Item = PostInitBare.fn(boltwire)
    with pytest.raises(boltwire.ValidationError) as info:
        boltwire.convert({"price": -1}, Item)
    assert str(info.value) == "price must be >= 0"
    assert isinstance(info.value.__cause__, ValueError)


def test_post_init_other_exceptions_propagate():
    Order = PostInit.fn(boltwire)
    with pytest.raises(KeyError):
        boltwire.convert({"items": [{"price": 7}]}, Order)


def test_struct_result_fields_are_converted_not_aliased():
    P = Everything.fn(boltwire)
    src = {"i": 1, "f": 1.5, "s": "s", "l": [1, 2]}
    out = boltwire.convert(src, P)
    assert out.l == [1, 2] and out.l is not src["l"]


def test_default_factory_called_per_instance():
    D = Defaults.fn(boltwire)
    a = boltwire.convert({}, D)
    b = boltwire.convert({}, D)
    assert a.b == [1, 2] and a.b is not b.b
    assert a.c == {} and a.c is not b.c


def test_frozen_struct_result_is_hashable():
    F = Frozen.fn(boltwire)
    out = boltwire.convert({"a": 1}, F)
    assert hash(out) == hash(F(1))


def test_deep_recursion_is_an_error_not_a_crash():
    Node = Recursive.fn(boltwire)
    value = {"value": 0}
    for i in range(5000):
        value = {"value": i, "children": [value]}
    with pytest.raises(RecursionError):
        boltwire.convert(value, Node)
