"""attrs instances and msgspec Structs as values: encode and to_builtins give msgspec's output."""

from typing import Optional

import pytest

import boltwire
from boltwire import UNSET, json, to_builtins

msgspec = pytest.importorskip("msgspec")
attrs = pytest.importorskip("attrs")


@attrs.define
class Base:
    z: int = 1


@attrs.define
class Slotted(Base):
    a: int = 2
    _hidden: int = 3
    b: object = msgspec.UNSET
    c: list = attrs.field(factory=list)


@attrs.define(slots=False)
class WithDict(Base):
    b: int = 4
    _p: int = 0


@attrs.frozen
class Frozen:
    b: int
    a: int
    c_: int = 5


class MS(msgspec.Struct):
    a: int
    b: str = "x"


class MSOmit(msgspec.Struct, omit_defaults=True, tag=True, rename="upper"):
    a: int = 1
    b: list = []
    c: dict = msgspec.field(default_factory=dict)
    d: object = msgspec.UNSET
    e: Optional[int] = None


class MSArray(msgspec.Struct, array_like=True, tag="arr", tag_field="k"):
    a: int
    b: Optional[str] = None


class MSTagInt(msgspec.Struct, tag=5, tag_field="kind"):
    a: int


class MSNested(msgspec.Struct):
    children: list
    attr: object = None


def values():
    extra = WithDict(b=7)
    extra.more = "yes"
    return [
        Slotted(), Slotted(a=5, b=6, c=[1]), WithDict(), extra, Frozen(1, 2),
        MS(1), MS(2, "y"), MSOmit(), MSOmit(2, [1], {"k": 1}, 4, 5), MSOmit(b=[], c={}, d=msgspec.UNSET),
        MSArray(1), MSArray(2, "s"), MSTagInt(3),
        MSNested([MS(1), Slotted(), {"k": MSOmit(a=3)}], attr=Frozen(3, 4)),
        [MS(1), {"x": Frozen(1, 2)}],
    ]


@pytest.mark.parametrize("order", [None, "deterministic", "sorted"])
@pytest.mark.parametrize("index", range(len(values())))
def test_encode_matches_msgspec(index, order):
    value = values()[index]
    assert json.encode(value, order=order) == msgspec.json.encode(value, order=order)


@pytest.mark.parametrize("order", [None, "sorted"])
@pytest.mark.parametrize("index", range(len(values())))
def test_to_builtins_matches_msgspec(index, order):
    value = values()[index]
    assert to_builtins(value, order=order) == msgspec.to_builtins(value, order=order)


def test_boltwire_unset_in_attrs_and_msgspec_structs_is_omitted():
    assert json.encode(Slotted(b=UNSET)) == json.encode(Slotted())
    assert json.encode(MSOmit(d=UNSET, a=2)) == b'{"type":"MSOmit","A":2}'
    assert to_builtins(MS(1, UNSET)) == {"a": 1}


def test_msgspec_struct_inside_boltwire_struct():
    class Holder(boltwire.Struct):
        inner: object
        items: list = []

    class MHolder(msgspec.Struct):
        inner: object
        items: list = []

    value = Holder(MS(1), [MSArray(2), Frozen(1, 2)])
    expected = MHolder(MS(1), [MSArray(2), Frozen(1, 2)])
    assert json.encode(value) == msgspec.json.encode(expected)
    assert to_builtins(value) == msgspec.to_builtins(expected)


def test_array_like_msgspec_with_unset_is_unsupported():
    with pytest.raises(TypeError, match="unsupported"):
        json.encode(MSArray(1, msgspec.UNSET))


def test_plain_objects_still_unsupported():
    class Plain:
        pass

    with pytest.raises(TypeError, match="Encoding objects of type .*Plain is unsupported"):
        json.encode(Plain())
    with pytest.raises(TypeError, match="unsupported"):
        to_builtins(Plain())
