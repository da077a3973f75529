"""boltwire.inspect against msgspec.inspect: the same annotations give the same Type trees (class names, field
values, nesting), and the tree agrees with what the decoder accepts."""


import collections
import dataclasses
import datetime
import decimal
import enum
import sys
import types
import typing
import uuid
from typing import Annotated, Any, Generic, Literal, NamedTuple, NewType, Optional, TypedDict, TypeVar, Union

import msgspec
import msgspec.inspect as msi
import pytest

import boltwire
import boltwire.inspect as bwi

T = TypeVar("T")
Bound = TypeVar("Bound", bound=int)


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Point(NamedTuple):
    x: int
    y: float = 0.0


class Movie(TypedDict, total=False):
    title: str
    year: int


@dataclasses.dataclass
class DC:
    a: int
    b: list[str] = dataclasses.field(default_factory=list)
    c: float = 1.5


@dataclasses.dataclass
class GenericDC(Generic[T]):
    item: T


UserId = NewType("UserId", Annotated[str, "x"])


class BwTree(boltwire.Struct, kw_only=True):  # recursive: must live at module level to resolve "list[BwTree]"
    value: int
    children: "list[BwTree]" = []


class MsTree(msgspec.Struct, kw_only=True):
    value: int
    children: "list[MsTree]" = []


def library_types(lib: Any) -> dict[str, Any]:
    """The same definitions made with one library's Struct and Meta."""
    Meta = lib.Meta

    class Base(lib.Struct, tag=True):
        x: int
        name: str = "n"

    class Child(Base, tag="child", forbid_unknown_fields=True):
        items: list[int] = []
        maybe: Optional[int] = None
        unset: Union[int, lib.UnsetType] = lib.UNSET

    class Arr(lib.Struct, array_like=True, rename="camel"):
        first_field: int
        second_field: Annotated[str, Meta(min_length=1)]

    class Box(lib.Struct, Generic[T]):
        item: T
        items: list[T]

    Tree = BwTree if lib is boltwire else MsTree

    return {
        "scalars": [Any, None, bool, int, float, str, bytes, bytearray, memoryview],
        "times": [datetime.datetime, datetime.date, datetime.time, datetime.timedelta, uuid.UUID, decimal.Decimal],
        "raw": [lib.Raw],
        "constrained": [
            Annotated[int, Meta(ge=0, lt=10, multiple_of=2)],
            Annotated[float, Meta(gt=0.5, le=2.5)],
            Annotated[str, Meta(min_length=1, max_length=5, pattern="^a")],
            Annotated[bytes, Meta(max_length=3)],
            Annotated[datetime.datetime, Meta(tz=True)],
            Annotated[datetime.time, Meta(tz=False)],
            Annotated[list[int], Meta(min_length=1)],
            Annotated[dict[str, int], Meta(max_length=2)],
        ],
        "metadata": [
            Annotated[int, Meta(title="t", description="d", examples=[1]), Meta(extra={"k": 1})],
            Annotated[Annotated[int, Meta(ge=1, extra_json_schema={"a": [1]})], Meta(extra_json_schema={"a": [2]})],
            UserId,
            Annotated[int, {"unhashable"}],
        ],
        "containers": [
            list, list[int], set[str], frozenset[int], tuple, tuple[int, ...], tuple[int, str], tuple[()],
            dict, dict[str, list[int]], typing.List[int], typing.Sequence[int], typing.Mapping[str, int],
            collections.abc.MutableSet[int],
        ],
        "unions": [Optional[int], Union[int, str, None], int | str, Union[int, lib.UnsetType]],
        "literals": [Literal[3, 1, 2], Literal["b", "a"], Literal[True], Literal[1, None], Literal[True, "yes"]],
        "enums": [Color, Level],
        "classes": [Point, Movie, DC, GenericDC, GenericDC[int], complex, TypeVar("U"), Bound],
        "structs": [Base, Child, Arr, Box, Box[int], Tree, Union[Base, Child]],
    }


GROUPS = list(library_types(boltwire))


def normalize(value: Any, seen: dict[int, int]) -> Any:
    """A Type tree as plain data: Type objects by class name and fields, Struct classes by name."""
    if isinstance(value, (bwi.Type, bwi.Field, msi.Type, msi.Field)):
        if id(value) in seen:
            return ("<recursive>", type(value).__name__)
        seen[id(value)] = 1
        fields = {name: normalize(getattr(value, name), seen) for name in value.__struct_fields__}
        del seen[id(value)]
        return (type(value).__name__, fields)
    if isinstance(value, tuple):
        return tuple(normalize(v, seen) for v in value)
    if value is boltwire.NODEFAULT or value is msgspec.NODEFAULT:
        return "NODEFAULT"
    if isinstance(value, (boltwire.StructMeta, msgspec.Struct.__class__)) or (
        typing.get_origin(value) is not None and isinstance(typing.get_origin(value), (boltwire.StructMeta, type(msgspec.Struct)))
    ):
        return ("struct-class", repr(value).rsplit(".", 1)[-1].replace("BwTree", "Tree").replace("MsTree", "Tree"))
    if isinstance(value, list):
        return [normalize(v, seen) for v in value]
    if isinstance(value, dict):
        return {k: normalize(v, seen) for k, v in value.items()}
    return value


@pytest.mark.parametrize("group", GROUPS)
def test_type_info_matches_msgspec(group: str) -> None:
    ours = library_types(boltwire)[group]
    theirs = library_types(msgspec)[group]
    for a, b in zip(ours, theirs):
        got = normalize(bwi.type_info(a), {})
        expected = normalize(msi.type_info(b), {})
        assert got == expected, (a, got, expected)


def test_multi_type_info_shares_class_nodes() -> None:
    Tree = library_types(boltwire)["structs"][5]
    out = bwi.multi_type_info([Tree, list[Tree]])
    assert out[0] is out[1].item_type
    assert bwi.multi_type_info([]) == ()
    # a recursive class refers back to its own node
    children = out[0].fields[1].type
    assert children.item_type is out[0]


@pytest.mark.parametrize(
    "bad",
    [Literal[()] if sys.version_info >= (3, 12) else Literal[1, object()], list[int] | tuple[int], typing.ClassVar[int]],
)
def test_unsupported_types_raise_like_the_decoder(bad: Any) -> None:
    with pytest.raises(TypeError) as ours:
        bwi.type_info(bad)
    with pytest.raises(TypeError) as decoder:
        boltwire.json.Decoder(bad)
    assert str(ours.value) == str(decoder.value)
    with pytest.raises(TypeError):
        msi.type_info(bad)


def test_namespace_and_helpers_match_msgspec() -> None:
    assert set(bwi.__all__) == set(msi.__all__)
    assert set(dir(bwi)) == set(dir(msi))
    for name in msi.__all__:
        ours, theirs = getattr(bwi, name), getattr(msi, name)
        if isinstance(theirs, type):
            assert ours.__struct_fields__ == theirs.__struct_fields__, name
            assert [b.__name__ for b in ours.__mro__[:2]] == [b.__name__ for b in theirs.__mro__[:2]], name

    class S(boltwire.Struct):
        x: int

    assert bwi.is_struct(S(1)) and not bwi.is_struct(S) and bwi.is_struct_type(S) and not bwi.is_struct_type(S(1))
    assert not bwi.is_struct_type(int) and not bwi.is_struct(object())
    assert bwi.type_info(Optional[int]).includes_none
    assert not bwi.type_info(Union[int, str]).includes_none


def test_namedtuple_like_classes_follow_the_decoder() -> None:
    # Only a tuple subclass with a tuple `_fields` and a dict `_field_defaults` is a NamedTuple (msgspec's rule).
    class FieldsNotTuple(tuple):
        _fields = ["a"]
        _field_defaults: dict = {}

    class MissingDefaults(tuple):
        _fields = ("a",)

    for cls in (FieldsNotTuple, MissingDefaults):
        assert bwi.type_info(cls) == bwi.CustomType(cls)
        assert msi.type_info(cls) == msi.CustomType(cls)
        assert boltwire.json.Decoder(cls).type is cls  # accepted as a custom type, like msgspec


def test_unbound_constrained_typevar_rejected_like_msgspec() -> None:
    C = TypeVar("C", int, str)
    for lib in (boltwire, msgspec):
        with pytest.raises(TypeError, match="Unbound TypeVar `~C` has constraints"):
            lib.json.Decoder(list[C])
    with pytest.raises(TypeError, match="Unbound TypeVar"):
        bwi.type_info(list[C])
