"""json.encode of boltwire Structs (encode names, rename, omit_defaults, array_like, tags, order) and
dataclasses, compared with the equivalent msgspec classes."""

import dataclasses
import typing

import msgspec
import pytest

from boltwire import Struct, field, json


def twin(name, annotations, defaults=None, **options):
    """The same class as a boltwire Struct and as a msgspec Struct."""
    ns = {"__annotations__": dict(annotations), **(defaults or {})}
    ours = type(Struct)(name, (Struct,), dict(ns), **options)
    ns_ms = {"__annotations__": dict(annotations)}
    for k, v in (defaults or {}).items():
        ns_ms[k] = msgspec.field(default_factory=v.default_factory) if hasattr(v, "default_factory") else v
    theirs = type(msgspec.Struct)(name, (msgspec.Struct,), ns_ms, **options)
    return ours, theirs


def check(ours, theirs, *args, **kwargs):
    for order in (None, "deterministic", "sorted"):
        got = json.encode(ours(*args, **kwargs), order=order)
        want = msgspec.json.encode(theirs(*args, **kwargs), order=order)
        assert got == want, (order, got, want)
    return json.encode(ours(*args, **kwargs))


class Point(Struct):
    x: int
    y: float
    label: str = "p"


def test_plain_struct():
    assert json.encode(Point(1, 2.5)) == b'{"x":1,"y":2.5,"label":"p"}'
    assert json.encode([Point(1, 2.0, "a"), {"p": Point(0, 0.0)}]) == (
        b'[{"x":1,"y":2.0,"label":"a"},{"p":{"x":0,"y":0.0,"label":"p"}}]'
    )


def test_sorted_order_sorts_struct_fields():
    assert json.encode(Point(1, 2.5), order="sorted") == b'{"label":"p","x":1,"y":2.5}'
    assert json.encode(Point(1, 2.5), order="deterministic") == b'{"x":1,"y":2.5,"label":"p"}'


@pytest.mark.parametrize("options", [{}, {"omit_defaults": True}, {"tag": True}, {"tag": "t", "tag_field": "kind"},
                                     {"tag": 3}, {"array_like": True}, {"array_like": True, "tag": True},
                                     {"rename": "camel"}, {"rename": "upper", "omit_defaults": True, "tag": True},
                                     {"array_like": True, "omit_defaults": True}])
def test_options_match_msgspec(options):
    ours, theirs = twin("Thing", {"b_field": int, "a_field": list, "c": typing.Optional[int]},
                        {"a_field": field(default_factory=list), "c": None}, **options)
    check(ours, theirs, 1)
    check(ours, theirs, 1, [1, 2], 3)
    check(ours, theirs, 1, [], None)


def test_omit_defaults_hand_written():
    class S(Struct, omit_defaults=True, tag=True):
        b: int
        a: list = field(default_factory=list)
        c: int = 1

    assert json.encode(S(1)) == b'{"type":"S","b":1}'
    assert json.encode(S(1, [1], 2)) == b'{"type":"S","b":1,"a":[1],"c":2}'
    assert json.encode(S(1), order="sorted") == b'{"b":1,"type":"S"}'


def test_array_like_tag_first():
    class T(Struct, array_like=True, tag="t", tag_field="kind"):
        b: int
        a: int = 3

    assert json.encode(T(1)) == b'["t",1,3]'
    assert json.encode(T(1), order="sorted") == b'["t",1,3]'


def test_field_name_and_rename():
    class R(Struct, rename="camel"):
        foo_bar: int
        other: int = field(default=0, name="OTHER")

    assert json.encode(R(1)) == b'{"fooBar":1,"OTHER":0}'


def test_empty_struct():
    class E(Struct):
        pass

    class EA(Struct, array_like=True):
        pass

    class ET(Struct, tag=True):
        pass

    assert json.encode(E()) == b"{}"
    assert json.encode(EA()) == b"[]"
    assert json.encode(ET()) == b'{"type":"ET"}'
    assert json.encode(E(), order="sorted") == b"{}"


def test_nested_structs_match_msgspec():
    Inner, InnerM = twin("Inner", {"v": int})
    ours = [Inner(i) for i in range(10)]
    assert json.encode(ours) == msgspec.json.encode([InnerM(i) for i in range(10)])


def test_struct_subclass_with_dict_and_weakref():
    class G(Struct, dict=True, weakref=True):
        a: int

    class H(G):
        b: str = "x"

    assert json.encode(H(1)) == b'{"a":1,"b":"x"}'


@dataclasses.dataclass
class DC:
    b: int
    a: int = 2
    c: typing.ClassVar[int] = 5
    d: dataclasses.InitVar[int] = 0


@dataclasses.dataclass(slots=True)
class DCSlots:
    x: int
    y: list


def test_dataclasses_match_msgspec():
    for order in (None, "deterministic", "sorted"):
        assert json.encode(DC(1), order=order) == msgspec.json.encode(DC(1), order=order)
        assert json.encode(DCSlots(1, [DC(3)]), order=order) == msgspec.json.encode(DCSlots(1, [DC(3)]), order=order)
    assert json.encode(DC(1)) == b'{"b":1,"a":2}'
    assert json.encode(DC(1), order="sorted") == b'{"a":2,"b":1}'
