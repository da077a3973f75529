"""convert() into dataclasses, attrs classes, TypedDict and NamedTuple, and from_attributes (from plain objects,
dataclasses, other Structs, attrs), compared with msgspec.convert."""

import dataclasses
import types
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, TypedDict, Union

import attrs
import pytest

import boltwire
import msgspec
from _convert_diff import both, factory, per_lib


@dataclasses.dataclass
class DC:
    a: int
    b: str = "b"
    c: List[int] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class DCPost:
    a: int

    def __post_init__(self):
        if self.a < 0:
            raise ValueError("a must be >= 0")


@dataclasses.dataclass
class DCNested:
    inner: DC
    inners: List[DC] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class DCFrozen:
    x: int


@dataclasses.dataclass
class DCInitFalse:
    a: int
    b: int = dataclasses.field(init=False, default=5)


@attrs.define
class AT:
    a: int
    b: str = "b"
    c: List[int] = attrs.field(factory=list)


@attrs.define
class ATPost:
    a: int

    def __attrs_post_init__(self):
        if self.a < 0:
            raise ValueError("a must be >= 0")


class TD(TypedDict):
    a: int
    b: str


class TDPartial(TypedDict, total=False):
    a: int
    b: List[int]


class TDNested(TypedDict):
    inner: TD
    many: List[TDPartial]


class NT(NamedTuple):
    a: int
    b: str = "b"


class NTNested(NamedTuple):
    nt: NT
    xs: List[NT] = []


TARGETS = [DC, DCPost, DCNested, DCFrozen, DCInitFalse, AT, ATPost, TD, TDPartial, TDNested, NT, NTNested,
           Optional[DC], Union[DC, int], List[TD], Dict[str, NT], Union[NT, str]]

INPUTS = [
    {},
    {"a": 1},
    {"a": 1, "b": "x"},
    {"a": 1, "b": "x", "c": [1, 2]},
    {"a": "1"},
    {"a": -1},
    {"a": 1, "b": 2},
    {"a": 1, "c": ["x"]},
    {"a": 1, "zzz": 0},
    {"b": "x"},
    {"a": 1, "b": [1, 2]},
    {"x": 1},
    {"inner": {"a": 1}},
    {"inner": {"a": "x"}},
    {"inner": {"a": 1}, "inners": [{"a": 2}, {"b": "c"}]},
    {"inner": {"a": 1, "b": "x"}, "many": [{}, {"a": 1}, {"b": [1, "x"]}]},
    {"nt": [1, "x"]},
    {"nt": [1], "xs": [[2, "y"], ["z"]]},
    [1, "x"],
    [1],
    [],
    (1, "x"),
    [1, "x", 3],
    ["x"],
    None,
    1,
    "s",
    [{"a": 1, "b": "x"}],
    {"k": [1, "x"]},
]


def _id(v):
    r = repr(v)
    return r if len(r) < 40 else r[:37] + "..."


@pytest.mark.parametrize("target", TARGETS, ids=_id)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_object_matrix(target, strict):
    mismatches = []
    for value in INPUTS:
        got, want = both(target, value, strict=strict)
        if got != want:
            mismatches.append(f"input={value!r}: boltwire={got!r} msgspec={want!r}")
    assert not mismatches, "\n".join(mismatches)


def test_dataclass_passthrough_and_post_init_runs():
    d = DC(1)
    assert boltwire.convert(d, DC) is d
    out = boltwire.convert({"a": 2}, DC)
    assert out == DC(2) and out.c == []
    with pytest.raises(boltwire.ValidationError, match="a must be >= 0"):
        boltwire.convert({"a": -1}, DCPost)


def test_namedtuple_passthrough():
    n = NT(1, "x")
    got, want = both(NT, n)
    assert got == want


def test_attrs_passthrough():
    a = AT(1)
    got, want = both(AT, a)
    assert got == want


# ---------------------------------------------------------------- from_attributes


@factory
def Person(lib):
    class Person(lib.Struct):
        name: str
        age: int = 0
        tags: List[str] = []

    return Person


@factory
def PersonRenamed(lib):
    class PersonRenamed(lib.Struct, rename="camel"):
        first_name: str
        age_years: int = 0

    return PersonRenamed


@factory
def Family(lib):
    class Member(lib.Struct):
        name: str

    class Family(lib.Struct):
        head: Member
        members: List[Member] = []

    return Family


def _ns(**kw):
    return types.SimpleNamespace(**kw)


class Slotted:
    __slots__ = ("name", "age")

    def __init__(self, name, age):
        self.name = name
        self.age = age


class WithProperty:
    @property
    def name(self):
        return "prop"

    @property
    def age(self):
        raise AttributeError("no age")


class RaisingProperty:
    name = "x"

    @property
    def age(self):
        raise RuntimeError("boom")


@dataclasses.dataclass
class PersonDC:
    name: str
    age: int = 3


@attrs.define
class PersonAT:
    name: str
    age: int = 4


FROM_ATTR_CASES = [
    (Person, _ns(name="a")),
    (Person, _ns(name="a", age=3, tags=["x"])),
    (Person, _ns(name="a", age="3")),
    (Person, _ns(age=3)),
    (Person, _ns(name=1)),
    (Person, _ns(name="a", tags=[1])),
    (Person, _ns(name="a", extra=1)),
    (Person, Slotted("s", 9)),
    (Person, WithProperty()),
    (Person, RaisingProperty()),
    (Person, PersonDC("d")),
    (Person, PersonAT("t")),
    (Person, {"name": "dict still works"}),
    (Person, object()),
    (Person, 5),
    (PersonRenamed, _ns(first_name="a", age_years=2)),
    (PersonRenamed, _ns(firstName="a", ageYears=2)),
    (Family, _ns(head=_ns(name="h"), members=[_ns(name="m"), {"name": "d"}])),
    (Family, _ns(head=_ns(name=1))),
    (Family, _ns(head=_ns(name="h"), members=[_ns(nam="m")])),
    (DC, _ns(a=1)),
    (DC, _ns(a=1, b="q", c=[1])),
    (DC, _ns(b="q")),
    (AT, _ns(a=1)),
    (AT, PersonDC("x")),
    (List[Person], [_ns(name="a"), _ns(name="b", age=1)]),
    (Dict[str, Person], {"k": _ns(name="a")}),
    (Optional[Person], _ns(name="a")),
    (TD, _ns(a=1, b="x")),
    (NT, _ns(a=1, b="x")),
]


@pytest.mark.parametrize("make,value", FROM_ATTR_CASES, ids=[f"{i}" for i in range(len(FROM_ATTR_CASES))])
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_from_attributes(make, value, strict):
    got, want = both(make, value, from_attributes=True, strict=strict)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"


@pytest.mark.parametrize("make,value", FROM_ATTR_CASES[:12], ids=[f"{i}" for i in range(12)])
def test_objects_refused_without_from_attributes(make, value):
    got, want = both(make, value)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"


def test_from_attributes_other_struct():
    def other(lib, T):
        class Other(lib.Struct):
            name: str
            age: int
            unused: float = 0.0

        return Other("o", 5)

    got, want = both(Person, per_lib(other), from_attributes=True)
    assert got == want and got[0] == "ok"


def test_from_attributes_struct_of_other_library():
    # A boltwire Struct read by attribute into a msgspec Struct and vice versa.
    class BP(boltwire.Struct):
        name: str
        age: int = 1

    class MP(msgspec.Struct):
        name: str
        age: int = 1

    assert msgspec.convert(BP("b"), MP, from_attributes=True) == MP("b")
    assert boltwire.convert(MP("m"), BP, from_attributes=True) == BP("m")


def test_from_attributes_dataclass_target_from_struct():
    got, want = both(DC, per_lib(lambda lib, T: Person.fn(lib)("x")), from_attributes=True)
    assert got == want


@factory
def TaggedPets(lib):
    class Pet(lib.Struct, tag=True):
        name: str

    class Cat(Pet):
        lives: int = 9

    class Dog(Pet):
        good: bool = True

    return Union[Cat, Dog]


@pytest.mark.parametrize(
    "value",
    [_ns(type="Cat", name="c"), _ns(type="Dog", name="d", good=False), _ns(name="x"), _ns(type="Cow", name="x"),
     {"type": "Cat", "name": "dict"}],
    ids=["cat", "dog", "no-tag", "bad-tag", "dict"],
)
def test_from_attributes_tagged_union(value):
    got, want = both(TaggedPets, value, from_attributes=True)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"
