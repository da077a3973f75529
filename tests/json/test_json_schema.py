"""boltwire.json.schema / schema_components: output equal (key order included) to msgspec.json.schema.

The same class definitions are executed twice from one source template, once with ``lib = boltwire`` and once
with ``lib = msgspec``, so every case compares boltwire's schema of its types with msgspec's schema of the
twin types.
"""

import datetime
import decimal
import enum
import json
import sys
import types
import uuid
from typing import Annotated

import pytest

import boltwire

msgspec = pytest.importorskip("msgspec")

TEMPLATE = '''
import dataclasses, datetime, decimal, enum, typing, uuid, collections
from collections.abc import Mapping, MutableSet, Sequence
from typing import Annotated, Any, Final, Generic, Literal, NamedTuple, NewType, Optional, TypedDict, TypeVar, Union

Meta = lib.Meta
T = TypeVar("T")
B = TypeVar("B", bound=int)


class Color(enum.Enum):
    """Colours of things."""

    RED = "red"
    GREEN = "green"
    ALIAS = "red"


class Level(enum.IntEnum):
    LOW = 3
    HIGH = 1


class Mode(str, enum.Enum):
    R = "r"
    W = "w"


class Perm(enum.Flag):
    X = 1
    W = 2
    R = 4


class Point(NamedTuple):
    x: int
    y: float = 0.5


PlainPair = collections.namedtuple("PlainPair", ["a", "b"], defaults=[1])


class Movie(TypedDict):
    """A movie."""

    title: str
    year: Annotated[int, Meta(ge=1888)]
    extra: typing.NotRequired[list[str]]


class Partial(TypedDict, total=False):
    a: int
    b: typing.Required[str]


@dataclasses.dataclass
class Dc:
    z: int
    a: str = "x"
    tags: list[str] = dataclasses.field(default_factory=list)
    b: float = dataclasses.field(default=1.5)
    when: datetime.date = datetime.date(2020, 1, 2)


@dataclasses.dataclass
class Documented:
    """Has a docstring.

    Second paragraph, indented.
        Deeper line.
    """

    v: Optional[int] = None


@dataclasses.dataclass
class GenericDc(Generic[T]):
    value: T
    many: list[T]


class Plain(lib.Struct):
    a: int
    b: str = "b"
    c: Optional[float] = None


class Doc(lib.Struct):
    """One line."""

    x: int


class Renamed(lib.Struct, rename="camel", kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    first_name: str
    last_name: str = "Doe"
    nick_names: list[str] = []
    scores: dict[int, float] = {}
    seen: set[int] = lib.field(default_factory=set)


class Row(lib.Struct, array_like=True):
    a: int
    b: str = ""
    c: bool = False


class StrictRow(lib.Struct, array_like=True, forbid_unknown_fields=True):
    a: int
    b: Annotated[str, Meta(min_length=1)]


class Empty(lib.Struct):
    pass


class Cat(lib.Struct, tag=True):
    name: str


class Dog(lib.Struct, tag="dog", tag_field="kind"):
    bark: bool = True


class Bird(lib.Struct, tag="bird", tag_field="kind"):
    wings: int = 2


class One(lib.Struct, tag=1, tag_field="v"):
    x: int


class Two(lib.Struct, tag=2, tag_field="v"):
    y: int


class File(lib.Struct, tag="file", kw_only=True):
    name: str
    size: int


class Dir(lib.Struct, tag="dir", kw_only=True):
    name: str
    contents: "list[File | Dir]"


class Node(lib.Struct):
    value: int
    children: "list[Node]" = []
    parent: "Optional[Node]" = None


class Box(lib.Struct, Generic[T]):
    item: T
    items: list[T] = []


class Bounded(lib.Struct, Generic[B]):
    v: B


class FrozenP(lib.Struct, frozen=True):
    a: int
    b: str = "b"


class Defaults(lib.Struct):
    when: datetime.datetime = datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
    day: datetime.date = datetime.date(2021, 5, 6)
    color: Color = Color.GREEN
    level: Level = Level.LOW
    uid: uuid.UUID = uuid.UUID(int=1)
    dec: decimal.Decimal = decimal.Decimal("1.50")
    raw: bytes = b"hi"
    pair: tuple[int, str] = (1, "a")
    mapping: dict[int, str] = lib.field(default_factory=lambda: {1: "a"})
    frozen: frozenset[int] = frozenset({2})
    inf: float = float("inf")
    nested: FrozenP = FrozenP(1)
    dur: datetime.timedelta = datetime.timedelta(seconds=90)


class Constrained(lib.Struct):
    age: Annotated[int, Meta(ge=0, lt=150, multiple_of=1)]
    ratio: Annotated[float, Meta(gt=0.0, le=1.0)]
    name: Annotated[str, Meta(min_length=1, max_length=10, pattern="^[a-z]+$")]
    blob: Annotated[bytes, Meta(min_length=2, max_length=10)]
    items: Annotated[list[int], Meta(min_length=1, max_length=3)]
    tags: Annotated[set[str], Meta(max_length=5)]
    table: Annotated[dict[str, int], Meta(min_length=1, max_length=2)]
    seq: Annotated[tuple[int, ...], Meta(min_length=2)]
    aware: Annotated[datetime.datetime, Meta(tz=True)]
    naive: Annotated[datetime.datetime, Meta(tz=False)]
    t_aware: Annotated[datetime.time, Meta(tz=True)]
    t_naive: Annotated[datetime.time, Meta(tz=False)]


UserId = NewType("UserId", int)
PositiveInt = Annotated[int, Meta(gt=0)]
Titled = Annotated[PositiveInt, Meta(title="Count", description="How many", examples=[1, 2])]
Extra = Annotated[
    Titled,
    Meta(extra_json_schema={"examples": [3], "x-tag": {"a": 1}, "title": "Override"}, extra={"ignored": True}),
]


class UsesAliases(lib.Struct):
    uid: UserId
    count: Titled
    more: Extra
    const: Final[int] = 3
    nt_user: NewType("Wrapped", Annotated[str, Meta(max_length=4)]) = "abcd"
    described: Annotated[FrozenP, Meta(description="a frozen struct")] = FrozenP(2)
    color_key: Annotated[dict[Color, int], Meta(title="by colour")] = {}


class Custom:
    pass


class IntBox(Box[int]):
    """A generic Struct specialised by subclassing."""

    extra: str = ""


@dataclasses.dataclass(kw_only=True)
class KwDc:
    b: int = 1
    a: str


class BaseTd(TypedDict):
    base: int


class ChildTd(BaseTd, total=False):
    child: str


class GenTd(TypedDict, Generic[T]):
    item: T


class GenNt(NamedTuple, Generic[T]):
    first: T
    rest: list[T] = []


try:
    import attrs
except ImportError:
    attrs = None
if attrs is not None:

    @attrs.define
    class At:
        a: int
        b: list[str] = attrs.field(factory=list)
        c: float = 1.5


UnsetType = getattr(lib, "UnsetType", None)
if UnsetType is None:  # not merged yet in boltwire: a stand-in recognised by its name and module
    UnsetType = type("UnsetType", (), {"__module__": "boltwire._unset"})
UNSET = getattr(lib, "UNSET", None) or UnsetType()


class Patch(lib.Struct, omit_defaults=True):
    name: Union[str, UnsetType] = UNSET
    age: "int | None | UnsetType" = UNSET
    must: int = 0


CASES = {
    "none": None,
    "NoneType": type(None),
    "bool": bool,
    "int": int,
    "float": float,
    "str": str,
    "bytes": bytes,
    "bytearray": bytearray,
    "memoryview": memoryview,
    "datetime": datetime.datetime,
    "date": datetime.date,
    "time": datetime.time,
    "timedelta": datetime.timedelta,
    "uuid": uuid.UUID,
    "decimal": decimal.Decimal,
    "any": Any,
    "list": list,
    "list[int]": list[int],
    "List[str]": typing.List[str],
    "set[str]": set[str],
    "frozenset[int]": frozenset[int],
    "MutableSet[int]": MutableSet[int],
    "Sequence[int]": Sequence[int],
    "tuple": tuple,
    "tuple[int, ...]": tuple[int, ...],
    "tuple[int, str]": tuple[int, str],
    "tuple[()]": tuple[()],
    "Tuple[()]": typing.Tuple[()],
    "dict": dict,
    "dict[str, int]": dict[str, int],
    "dict[int, str]": dict[int, str],
    "dict[uuid, int]": dict[uuid.UUID, int],
    "Mapping[str, float]": Mapping[str, float],
    "dict[Literal, int]": dict[Literal["a", "b"], int],
    "dict[str enum, int]": dict[Mode, int],
    "dict[int enum, int]": dict[Level, int],
    "dict[constrained str, int]": dict[Annotated[str, Meta(min_length=1, pattern="^x")], int],
    "dict[titled str, int]": dict[Annotated[str, Meta(title="key")], int],
    "dict[str | Literal, int]": dict[Union[Annotated[str, Meta(max_length=3)], Literal["long-key"]], int],
    "Optional[int]": Optional[int],
    "int | str | None": Union[int, str, None],
    "int | list[str]": Union[int, list[str]],
    "Literal[str]": Literal["b", "a"],
    "Literal[mixed]": Literal[3, "a", None, 1],
    "Enum": Color,
    "IntEnum": Level,
    "StrEnum-like": Mode,
    "Flag": Perm,
    "NamedTuple": Point,
    "namedtuple": PlainPair,
    "TypedDict": Movie,
    "TypedDict total=False": Partial,
    "dataclass": Dc,
    "dataclass documented": Documented,
    "generic dataclass": GenericDc[str],
    "Struct": Plain,
    "Struct doc": Doc,
    "Struct rename/kw_only/forbid": Renamed,
    "Struct array_like": Row,
    "Struct array_like forbid": StrictRow,
    "Struct empty": Empty,
    "list[Struct]": list[Plain],
    "tagged union": Union[Dog, Bird],
    "tagged union | None": Optional[Union[Dog, Bird]],
    "tagged union | int": Union[Dog, Bird, int],
    "tagged union | int | None": Union[Dog, Bird, int, None],
    "int tags": Union[One, Two],
    "one struct | None": Optional[Plain],
    "one struct | str": Union[Plain, str],
    "array_like in union": Union[Row, int],
    "recursive tagged": Dir,
    "recursive tagged union": Union[File, Dir],
    "recursive": Node,
    "generic Box[int]": Box[int],
    "generic Box bare": Box,
    "generic Box[Plain]": Box[Plain],
    "both Box": tuple[Box[int], Box[str]],
    "bound TypeVar": Bounded,
    "defaults": Defaults,
    "constraints": Constrained,
    "aliases": UsesAliases,
    "NewType": UserId,
    "Final": Final[int],
    "Annotated title": Titled,
    "Annotated merge": Extra,
    "Annotated list item": list[Annotated[int, Meta(ge=1)]],
    "custom with extra_json_schema": Annotated[Custom, Meta(extra_json_schema={"type": "string"})],
    "UNSET fields": Patch,
    "struct | UNSET": Union[Plain, UnsetType],
    "Cat tag=True": Cat,
    "subclassed generic Struct": IntBox,
    "kw_only dataclass": KwDc,
    "TypedDict inheritance": ChildTd,
    "generic TypedDict": GenTd[int],
    "generic NamedTuple": GenNt[str],
    "dict[Literal, list[NamedTuple]]": dict[Literal["x", "y"], list[Point]],
    "nested Optional in containers": dict[str, list[Optional[tuple[int, Plain]]]],
}
if attrs is not None:
    CASES["attrs"] = At


class TaggedRow(lib.Struct, array_like=True, tag=True):
    x: int


class OtherRow(lib.Struct, array_like=True, tag=True):
    y: int


class IntTagged(lib.Struct, tag=5):
    z: int


class FloatEnum(enum.Enum):
    A = 1.5


class MixedEnum(enum.Enum):
    A = 1
    B = "b"


class EmptyEnum(enum.Enum):
    pass


BAD_TYPES = {
    "float Enum": FloatEnum,
    "mixed Enum": MixedEnum,
    "empty Enum": EmptyEnum,
    "Enum as dict key": dict[FloatEnum, int],
    "Literal[float]": Literal[1.5],
    "Literal[bytes] in list": list[Literal[1, b"x"]],
}

# Unions msgspec accepts (compared schema to schema) and rejects (compared message to message).
GOOD_UNIONS = {
    "int | Literal[int]": Union[int, Literal[1]],
    "str | Literal[str]": Union[str, Literal["a"]],
    "int | float": Union[int, float],
    "bool | int": Union[bool, int],
    "Literal | Literal | int": Union[Literal[1], Literal["a"], int],
    "IntEnum | str Enum": Union[Level, Mode],
    "Any | int": Union[Any, int],
    "Literal[mixed] | str": Union[Literal[1, "a"], str],
    "Decimal | float": Union[decimal.Decimal, float],
    "tagged array_like": Union[TaggedRow, OtherRow],
    "one of each shape": Union[Dog, Bird, int, str, None, list[int]],
}
BAD_UNIONS = {
    "str | str Enum": Union[str, Mode],
    "int | IntEnum": Union[int, Level],
    "IntEnum | Literal[int]": Union[Level, Literal[1]],
    "str Enum | Literal[str]": Union[Mode, Literal["x"]],
    "datetime | str": Union[datetime.datetime, str],
    "bytes | str": Union[bytes, str],
    "bytes | bytearray": Union[bytes, bytearray],
    "uuid | date": Union[uuid.UUID, datetime.date],
    "list | tuple": Union[list[int], tuple[int]],
    "list | set": Union[list, set],
    "frozenset | tuple[...]": Union[frozenset, tuple[int, ...]],
    "array_like Struct | list": Union[Row, list],
    "NamedTuple | list": Union[Point, list],
    "NamedTuple | array_like": Union[Point, Row],
    "dict | Struct": Union[dict, Plain],
    "TypedDict | dict": Union[Movie, dict],
    "dataclass | Struct": Union[Dc, Plain],
    "untagged Structs": Union[Plain, Doc],
    "tagged and untagged": Union[Cat, Plain],
    "different tag_field": Union[Cat, Dog],
    "int and str tags": Union[Cat, IntTagged],
    "array_like and not": Union[Cat, TaggedRow],
    "tagged | dict": Union[Dog, Bird, dict],
    "custom | int": Union[Custom, int],
    "custom | list": Union[Custom, list],
}

'''


def load(lib, name):
    module = types.ModuleType(name)
    module.lib = lib
    sys.modules[name] = module  # typing resolves string annotations through the class's module
    exec(compile(TEMPLATE, f"<{name}>", "exec"), module.__dict__)
    return module


OURS = load(boltwire, "schema_cases_ours")
THEIRS = load(msgspec, "schema_cases_theirs")


def same(ours, theirs):
    """Equal, with the same key order (json.dumps keeps insertion order)."""
    assert ours == theirs
    assert json.dumps(ours) == json.dumps(theirs)


@pytest.mark.parametrize("name", list(OURS.CASES))
def test_schema_matches_msgspec(name):
    same(boltwire.json.schema(OURS.CASES[name]), msgspec.json.schema(THEIRS.CASES[name]))


def test_all_cases_together_match_msgspec():
    ours = boltwire.json.schema_components(list(OURS.CASES.values()))
    theirs = msgspec.json.schema_components(list(THEIRS.CASES.values()))
    same(ours[0], theirs[0])
    same(ours[1], theirs[1])
    assert {"Dir", "File", "Plain", "Color", "Box_int_", "Box_str_", "Point", "Movie", "Dc"} <= set(ours[1])


@pytest.mark.parametrize("name", list(OURS.GOOD_UNIONS))
def test_valid_union_matches_msgspec(name):
    same(boltwire.json.schema(OURS.GOOD_UNIONS[name]), msgspec.json.schema(THEIRS.GOOD_UNIONS[name]))


@pytest.mark.parametrize("name", list(OURS.BAD_UNIONS))
def test_invalid_union_rejected_like_msgspec(name):
    def hook(cls):
        return {"type": "string"}

    with pytest.raises(TypeError) as theirs:
        msgspec.json.schema(THEIRS.BAD_UNIONS[name], schema_hook=hook)
    with pytest.raises(TypeError) as ours:
        boltwire.json.schema(OURS.BAD_UNIONS[name], schema_hook=hook)
    assert str(ours.value) == str(theirs.value).replace("schema_cases_theirs", "schema_cases_ours")


@pytest.mark.parametrize("name", list(OURS.BAD_TYPES))
def test_invalid_enum_or_literal_rejected_like_msgspec(name):
    with pytest.raises(TypeError) as theirs:
        msgspec.json.schema(THEIRS.BAD_TYPES[name])
    with pytest.raises(TypeError) as ours:
        boltwire.json.schema(OURS.BAD_TYPES[name])
    assert str(ours.value) == str(theirs.value).replace("schema_cases_theirs", "schema_cases_ours")


def test_tagged_union_has_discriminator_mapping():
    out = boltwire.json.schema(OURS.CASES["recursive tagged union"])
    assert out["discriminator"] == {
        "propertyName": "type",
        "mapping": {"file": "#/$defs/File", "dir": "#/$defs/Dir"},
    }
    assert out["$defs"]["Dir"]["properties"]["type"] == {"enum": ["dir"]}
    assert out["$defs"]["Dir"]["required"] == ["type", "name", "contents"]


def test_struct_options_in_schema():
    out = boltwire.json.schema(OURS.Renamed)["$defs"]["Renamed"]
    assert list(out["properties"]) == ["firstName", "lastName", "nickNames", "scores", "seen"]
    assert out["required"] == ["firstName"]
    assert out["additionalProperties"] is False
    assert out["properties"]["seen"]["default"] == []
    row = boltwire.json.schema(OURS.Row)["$defs"]["Row"]
    assert row["type"] == "array" and row["minItems"] == 1 and "maxItems" not in row


def test_schema_components_ref_template():
    kwargs = {"ref_template": "#/components/schemas/{name}"}
    types_ours = [OURS.Dir, OURS.Plain, list[OURS.Cat]]
    types_theirs = [THEIRS.Dir, THEIRS.Plain, list[THEIRS.Cat]]
    ours = boltwire.json.schema_components(types_ours, **kwargs)
    same(ours, msgspec.json.schema_components(types_theirs, **kwargs))
    assert ours[0][2] == {"type": "array", "items": {"$ref": "#/components/schemas/Cat"}}
    same(boltwire.json.schema(OURS.Dir, **kwargs), msgspec.json.schema(THEIRS.Dir, **kwargs))


def test_name_clash_uses_full_path():
    def make(lib):
        class Thing(lib.Struct):
            a: int

        first = Thing

        class Thing(lib.Struct):  # noqa: F811 - same short name, same qualname
            b: str

        class Holder(lib.Struct):
            x: first
            y: Thing

        return Holder

    ours = boltwire.json.schema(make(boltwire))
    theirs = msgspec.json.schema(make(msgspec))
    same(ours, theirs)
    assert len(ours["$defs"]) == 3


def test_schema_hook_for_custom_types():
    def hook(cls):
        if cls is OURS.Custom or cls is THEIRS.Custom:
            return {"type": "string", "format": "custom"}
        raise NotImplementedError

    ours = boltwire.json.schema(list[OURS.Custom], schema_hook=hook)
    same(ours, msgspec.json.schema(list[THEIRS.Custom], schema_hook=hook))
    assert ours == {"type": "array", "items": {"type": "string", "format": "custom"}}
    # Meta metadata merges over the hook's output.
    titled = boltwire.json.schema(Annotated[OURS.Custom, boltwire.Meta(title="C")], schema_hook=hook)
    assert titled == {"type": "string", "format": "custom", "title": "C"}


@pytest.mark.parametrize("cls", [complex, object, "Custom"])
def test_unsupported_custom_type_raises_like_msgspec(cls):
    ours_t = getattr(OURS, cls) if isinstance(cls, str) else cls
    theirs_t = getattr(THEIRS, cls) if isinstance(cls, str) else cls
    with pytest.raises(TypeError) as theirs:
        msgspec.json.schema(theirs_t)
    with pytest.raises(TypeError) as ours:
        boltwire.json.schema(ours_t)
    assert str(ours.value) == str(theirs.value).replace("schema_cases_theirs", "schema_cases_ours")
    # A hook that declines (NotImplementedError) leaves the error in place.

    def decline(c):
        raise NotImplementedError

    with pytest.raises(TypeError, match="is not supported"):
        boltwire.json.schema(ours_t, schema_hook=decline)


MISUSED = [
    ("int", {"min_length": 1}),
    ("str", {"ge": 1}),
    ("list[int]", {"pattern": "x"}),
    ("int", {"tz": True}),
    ("Optional[int]", {"ge": 0}),
    ("Enum", {"gt": 1}),
    ("tuple[int, str]", {"min_length": 1}),
]


@pytest.mark.parametrize(("base", "kwargs"), MISUSED, ids=repr)
def test_constraint_on_wrong_type_raises_like_msgspec(base, kwargs):
    ours_t = Annotated[OURS.CASES[base], boltwire.Meta(**kwargs)]
    theirs_t = Annotated[THEIRS.CASES[base], msgspec.Meta(**kwargs)]
    with pytest.raises(TypeError) as theirs:
        msgspec.json.schema(theirs_t)
    with pytest.raises(TypeError) as ours:
        boltwire.json.schema(ours_t)
    assert str(ours.value) == str(theirs.value).replace("msgspec.Meta", "boltwire.Meta").replace(
        "schema_cases_theirs", "schema_cases_ours"
    )


@pytest.mark.skipif(not hasattr(boltwire, "Raw"), reason="boltwire.Raw is not in this tree yet")
def test_raw_is_any():
    same(boltwire.json.schema(list[boltwire.Raw]), msgspec.json.schema(list[msgspec.Raw]))


def test_initvar_dataclass_rejected():
    import dataclasses

    @dataclasses.dataclass
    class WithInitVar:
        a: int
        b: dataclasses.InitVar[int] = 0

    with pytest.raises(TypeError, match="InitVar"):
        boltwire.json.schema(WithInitVar)


def test_exports():
    from boltwire import _json_schema

    assert boltwire.json.schema is _json_schema.schema
    assert boltwire.json.schema_components is _json_schema.schema_components
    assert {"schema", "schema_components"} <= set(boltwire.json.__all__)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="`type X = ...` statements need Python 3.12+")
def test_type_alias_statement():
    source = "from typing import Annotated\ntype Ids = list[int]\ntype Pos = Annotated[int, Meta(gt=0)]\n"
    ours, theirs = {"Meta": boltwire.Meta}, {"Meta": msgspec.Meta}
    exec(source, ours)
    exec(source, theirs)
    same(boltwire.json.schema(ours["Ids"]), msgspec.json.schema(theirs["Ids"]))
    same(boltwire.json.schema(list[ours["Pos"]]), msgspec.json.schema(list[theirs["Pos"]]))


class Shade(enum.Enum):
    DARK = "dark"


def test_defaults_fallback_shapes_values_like_to_builtins():
    # Used for defaults while boltwire.to_builtins is not there; must shape values as msgspec.to_builtins does.
    from boltwire._schema_nodes import _builtins_fallback

    value = [
        (1, "a", (2.5,)),
        {3, 1},
        frozenset({2}),
        {1: "x", Shade.DARK: [b"ab"], uuid.UUID(int=5): None},
        Shade.DARK,
        float("inf"),
        b"ab",
        bytearray(b"x"),
        datetime.datetime(2020, 1, 2, 3, 4, 5, 600, tzinfo=datetime.timezone.utc),
        datetime.time(1, 2),
        datetime.timedelta(days=1, seconds=3),
        decimal.Decimal("1.10"),
        uuid.UUID(int=7),
    ]
    assert _builtins_fallback(value, boltwire.json.encode) == msgspec.to_builtins(value, str_keys=True)
