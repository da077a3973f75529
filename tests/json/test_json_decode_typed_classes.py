"""Typed decoding into dataclasses, attrs classes, TypedDict (total / Required / NotRequired) and NamedTuple,
compared with msgspec (the same class object is given to both libraries)."""

import dataclasses
import typing
from typing import NamedTuple, NotRequired, Optional, Required, TypedDict

import attrs
import pytest

from typed_decode_diff import check_type, module_with, run_isolated


@dataclasses.dataclass
class DC:
    a: int
    b: str = "x"
    c: list[int] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class FrozenDC:
    a: int
    b: Optional[float] = None


@dataclasses.dataclass
class PostDC:
    lo: int
    hi: int

    def __post_init__(self):
        if self.lo > self.hi:
            raise ValueError("bad range")
        if self.lo < 0:
            raise TypeError("negative")


@dataclasses.dataclass
class Outer:
    items: list[DC]
    post: Optional[PostDC] = None


@dataclasses.dataclass
class DCInitVar:
    a: int
    b: dataclasses.InitVar[int] = 0
    c: int = dataclasses.field(init=False, default=7)

    def __post_init__(self, b):
        self.c = self.a + b


@dataclasses.dataclass(slots=True)
class SlotsDC:
    a: int
    b: int = 2


@attrs.define
class AT:
    a: int
    b: str = "x"
    c: list[int] = attrs.field(factory=list)


@attrs.frozen
class FrozenAT:
    a: int


@attrs.define
class AttrsPost:
    lo: int

    def __attrs_post_init__(self):
        if self.lo < 0:
            raise ValueError("negative lo")


@attrs.define
class AttrsValidated:
    a: int = attrs.field(validator=attrs.validators.gt(0))


class TD(TypedDict):
    a: int
    b: str


class TDPartial(TypedDict, total=False):
    a: int
    b: str


class TDMixed(TypedDict):
    a: int
    b: NotRequired[str]


class TDMixed2(TypedDict, total=False):
    a: Required[int]
    b: list[int]


class TDChild(TD, total=False):
    c: float


class NT(NamedTuple):
    a: int
    b: str = "x"
    c: float = 1.5


class NTPlain(typing.NamedTuple):
    a: int
    b: int


import collections

PlainNT = collections.namedtuple("PlainNT", ["a", "b"], defaults=[2])


OBJ_INPUTS = [b'{"a":1}', b'{"a":1,"b":"y"}', b'{"a":1,"b":"y","c":[1,2]}', b'{"b":"y"}', b'{}', b'{"a":"x"}',
              b'{"a":1,"zz":5}', b'{"a":1,"b":2}', b'[1]', b'null', b'{"a":1,"c":["x"]}', b'{"a":1,"a":2}',
              b'{"lo":1,"hi":2}', b'{"lo":3,"hi":2}', b'{"lo":-3,"hi":2}', b'{"a":0}', b'{"a":1,"c":2.5}']


@pytest.mark.parametrize("tp", [DC, FrozenDC, PostDC, DCInitVar, SlotsDC, AT, FrozenAT, AttrsPost, AttrsValidated,
                                TD, TDPartial, TDMixed, TDMixed2, TDChild, NT, NTPlain, PlainNT],
                         ids=lambda t: t.__name__)
@pytest.mark.parametrize("buf", OBJ_INPUTS, ids=repr)
def test_object_like_classes_match_msgspec(tp, buf):
    check_type(tp, buf)


@pytest.mark.parametrize("tp", [NT, NTPlain, PlainNT], ids=lambda t: t.__name__)
@pytest.mark.parametrize("buf", [b"[1]", b'[1,"y"]', b'[1,"y",2.5]', b'[1,"y",2.5,9]', b"[]", b'["x"]', b"[1,2]",
                                 b'[1,"y",null]'], ids=repr)
def test_namedtuple_arrays_match_msgspec(tp, buf):
    check_type(tp, buf)
    check_type(tp, buf, strict=False)


@pytest.mark.parametrize("buf", [b'{"items":[{"a":1},{"a":"x"}]}', b'{"items":[],"post":{"lo":2,"hi":1}}',
                                 b'{"items":[{"a":1,"c":[1,null]}]}', b'{"items":[],"post":{"lo":-1,"hi":1}}',
                                 b'{"items":[{"a":1}]}'], ids=repr)
def test_nested_dataclass_paths_match_msgspec(buf):
    check_type(Outer, buf)


@pytest.mark.parametrize("buf", [b'{"a":{"a":1,"b":"q"},"b":[{"a":2,"b":"r"}]}', b'{"a":{"a":1},"b":[]}',
                                 b'{"a":{"a":1,"b":"q"},"b":[{"a":"z","b":"r"}]}'], ids=repr)
def test_typeddict_nested_matches_msgspec(buf):
    class Holder(TypedDict):
        a: TD
        b: list[TD]

    check_type(Holder, buf)


GENERIC_SOURCE = """
    import dataclasses
    from typing import Generic, TypeVar, TypedDict
    T = TypeVar("T")

    @dataclasses.dataclass
    class GD(Generic[T]):
        x: T
        xs: "list[T]"

    class GT(TypedDict, Generic[T]):
        v: T
"""

GENERIC_CASES = [("GD", int, b'{"x":1,"xs":[2]}'), ("GD", int, b'{"x":"a","xs":[]}'), ("GD", str, b'{"x":"a","xs":[1]}'),
                 ("GT", int, b'{"v":1}'), ("GT", int, b'{"v":"s"}'), ("GD", None, b'{"x":{},"xs":[null]}')]


def run_generic_case(index):
    name, arg, buf = GENERIC_CASES[index]
    m = module_with(__import__("boltwire"), GENERIC_SOURCE)
    tp = getattr(m, name) if arg is None else getattr(m, name)[arg]
    check_type(tp, buf)


# These have aborted the process (a C++ exception escaping), so each runs in its own interpreter.
@pytest.mark.parametrize("index", range(len(GENERIC_CASES)))
def test_generic_dataclass_and_typeddict(index):
    run_isolated(f"import test_json_decode_typed_classes as m; m.run_generic_case({index})")


def test_recursive_dataclass_matches_msgspec():
    m = module_with(__import__("boltwire"), """
        import dataclasses
        from typing import Optional

        @dataclasses.dataclass
        class Tree:
            v: int
            kids: "list[Tree]" = dataclasses.field(default_factory=list)
            up: "Optional[Tree]" = None
    """)
    for buf in (b'{"v":1,"kids":[{"v":2,"kids":[{"v":3}]}]}', b'{"v":1,"kids":[{"v":2,"kids":[{"v":"x"}]}]}'):
        check_type(m.Tree, buf)


def test_dataclass_union_rules_match_msgspec():
    from typed_decode_diff import check_build_error

    check_build_error(lambda lib: typing.Union[DC, TD])
    check_build_error(lambda lib: typing.Union[DC, dict[str, int]])
    check_build_error(lambda lib: typing.Union[NT, list[int]])
    check_type(typing.Union[DC, None], b"null")
    check_type(typing.Union[DC, int, str], b'{"a":1}')
    check_type(typing.Union[NT, int], b"[1]")
