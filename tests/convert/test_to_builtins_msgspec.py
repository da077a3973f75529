"""boltwire.to_builtins against msgspec.to_builtins: the same output (values and types) on many inputs."""

import dataclasses
import datetime
import decimal
import enum
import math
import uuid
from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boltwire
from boltwire import UNSET, to_builtins

msgspec = pytest.importorskip("msgspec")

TEMPLATE = '''
class Point(Struct):
    x: int
    y: float = 0.5

class Tagged(Struct, tag=True):
    a: int
    b: list = []

class TagStr(Struct, tag="custom", tag_field="kind"):
    a: int

class TagInt(Struct, tag=7):
    a: int

class Array(Struct, array_like=True):
    a: int
    b: str = "q"

class TaggedArray(Struct, array_like=True, tag="arr"):
    a: int
    b: object = None

class Renamed(Struct, rename="camel"):
    foo_bar: int
    baz_qux: Optional[str] = None

class Omit(Struct, omit_defaults=True):
    a: int = 1
    b: list = []
    c: object = UNSET
    d: Optional[int] = None

class Nested(Struct):
    points: list
    mapping: dict
    child: Optional["Nested"] = None

class Item(Struct):
    name: str
    price: float
    tags: list = []
    metadata: Optional[dict] = None

class Order(Struct, kw_only=True):
    id: int
    customer: str
    items: list
    created_at: str
    status: str = "pending"
'''


def define(struct_base, unset):
    ns = {"Struct": struct_base, "Optional": Optional, "UNSET": unset, "__name__": __name__}
    exec(TEMPLATE, ns)
    return ns


B = define(boltwire.Struct, UNSET)
M = define(msgspec.Struct, msgspec.UNSET)


class Color(enum.Enum):
    RED = "red"
    PAIR = (1, 2)
    DEC = decimal.Decimal("1.5")


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Letter(str, enum.Enum):
    A = "a"


class Perm(enum.IntFlag):
    R = 4
    W = 2


@dataclasses.dataclass
class DC:
    x: int
    y: tuple = (1,)
    z: object = None


@dataclasses.dataclass
class DCUnset:
    a: int = 1
    b: object = UNSET


@dataclasses.dataclass
class MDCUnset:
    a: int = 1
    b: object = msgspec.UNSET


def pair(name, *args, **kwargs):
    """The same Struct value built from boltwire's and msgspec's classes."""
    return B[name](*args, **kwargs), M[name](*args, **kwargs)


def nested_pair(ns):
    p = ns["Point"]
    child = ns["Nested"]([p(1)], {"k": p(2, 1.5)})
    return ns["Nested"]([p(3), p(4)], {"a": child}, child)


def both_sides():
    """(boltwire value, msgspec value) pairs covering every kind."""
    cases = [pair("Point", 1), pair("Point", 2, 3.25), pair("Tagged", 1), pair("Tagged", 2, [1, "x"]),
             pair("TagStr", 5), pair("TagInt", 6), pair("Array", 1), pair("Array", 2, "z"), pair("TaggedArray", 3),
             pair("Renamed", 1), pair("Renamed", 2, "s"), pair("Omit"), pair("Omit", 2), pair("Omit", 1, [1]),
             pair("Omit", d=5), pair("Omit", c=3), (nested_pair(B), nested_pair(M))]
    items = [{"name": "n", "price": 1.5, "tags": ["a"], "metadata": {"k": "v"}}, {"name": "m", "price": 2.0}]
    b_order = B["Order"](id=1, customer="c", items=[B["Item"](**i) for i in items], created_at="now")
    m_order = M["Order"](id=1, customer="c", items=[M["Item"](**i) for i in items], created_at="now")
    cases.append((b_order, m_order))
    cases.append(([b_order, {"x": b_order}], [m_order, {"x": m_order}]))
    cases.append((DCUnset(), MDCUnset()))
    cases.append((DCUnset(b=2), MDCUnset(b=2)))
    cases.append((B["Omit"](c=UNSET, d=None), M["Omit"](c=msgspec.UNSET, d=None)))
    return cases


PLAIN = [
    None, True, False, 0, -1, 2**64, -(2**100), 1.5, float("inf"), -0.0, "", "héllo", "\ud83d\ude00",
    [], (), {}, [1, [2, [3]]], (1, (2, "x")), {"a": {"b": [1, 2]}},
    b"", b"bytes\x00\xff", bytearray(b"ba"), memoryview(b"mv"),
    datetime.datetime(2020, 1, 2, 3, 4, 5), datetime.datetime(2020, 1, 2, 3, 4, 5, 123456, tzinfo=datetime.timezone.utc),
    datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone(datetime.timedelta(hours=-5, minutes=-30))),
    datetime.date(1999, 12, 31), datetime.time(1, 2, 3), datetime.time(1, 2, 3, 4, tzinfo=datetime.timezone.utc),
    datetime.timedelta(days=1, seconds=2, microseconds=3), datetime.timedelta(days=-3),
    uuid.UUID(int=5), uuid.uuid4(), decimal.Decimal("1.50"), decimal.Decimal("NaN"), decimal.Decimal("-1E+3"),
    Color.RED, Color.PAIR, Color.DEC, Level.HIGH, Letter.A, Perm.R | Perm.W,
    {1, 2, 3}, frozenset(["a"]), set(),
    {1: "int key", 1.5: "float key", Color.RED: "enum key", Level.LOW: "intenum key"},
    {uuid.UUID(int=1): 1, datetime.date(2020, 1, 1): 2, b"k": 3, decimal.Decimal("2"): 4},
    {(1, 2): "tuple key", frozenset([3]): "frozenset key", None: "none key", True: "bool key"},
    DC(1), DC(2, (3, 4), {"k": DC(5)}),
]


def same(a, b):
    """Equal values with the same types all the way down (NaN equal to NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, decimal.Decimal):
        return str(a) == str(b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
    return a == b


def check(bvalue, mvalue, **kwargs):
    try:
        expected = msgspec.to_builtins(mvalue, **kwargs)
    except Exception as e:
        with pytest.raises(type(e)):
            to_builtins(bvalue, **kwargs)
        return
    got = to_builtins(bvalue, **kwargs)
    assert same(got, expected), (got, expected)


OPTIONS = [{}, {"order": "deterministic"}, {"order": "sorted"}, {"str_keys": True},
           {"builtin_types": (bytes, bytearray, memoryview)},
           {"builtin_types": [datetime.datetime, datetime.date, datetime.time, datetime.timedelta]},
           {"builtin_types": {uuid.UUID, decimal.Decimal}}, {"builtin_types": (list, int, dict)}]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("value", PLAIN, ids=lambda v: type(v).__name__)
def test_plain_values(value, options):
    check(value, value, **options)


@pytest.mark.parametrize("options", OPTIONS[:4], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("index", range(len(both_sides())))
def test_struct_values(index, options):
    bvalue, mvalue = both_sides()[index]
    check(bvalue, mvalue, **options)
    check([bvalue, {"k": bvalue}], [mvalue, {"k": mvalue}], **options)


def test_deterministic_sorting_of_mixed_keys_raises_like_msgspec():
    check({2: 1, "a": 2}, {2: 1, "a": 2}, order="deterministic")
    with pytest.raises(TypeError):
        to_builtins({2: 1, "a": 2}, order="sorted")


@pytest.mark.parametrize("value", [{None: 1}, {True: 1}, {(1, 2): 1}, {frozenset([1]): 1}])
def test_str_keys_rejects_non_str_like_keys(value):
    with pytest.raises(TypeError, match="Only dicts with str-like or number-like keys are supported"):
        to_builtins(value, str_keys=True)
    check(value, value, str_keys=True)


def test_str_keys_numbers():
    value = {1e16: 1, float("nan"): 2, 0.1: 3, -0.0: 4, 2**70: 5, float("inf"): 6, 7: 7}
    assert to_builtins(value, str_keys=True) == msgspec.to_builtins(value, str_keys=True)


class Custom:
    def __init__(self, v):
        self.v = v


def test_enc_hook():
    def hook(obj):
        if isinstance(obj, Custom):
            return {"custom": obj.v}
        raise NotImplementedError

    value = [Custom(1), {"k": Custom((2, b"x"))}]
    assert same(to_builtins(value, enc_hook=hook), msgspec.to_builtins(value, enc_hook=hook))
    with pytest.raises(TypeError, match="Encoding objects of type Custom is unsupported"):
        to_builtins(Custom(1))
    with pytest.raises(NotImplementedError):
        to_builtins(object(), enc_hook=hook)


@pytest.mark.parametrize("value", [object(), Custom(1), type, 1j, boltwire.Raw(b"1"), UNSET, [UNSET], {"a": UNSET}])
def test_unsupported(value):
    with pytest.raises(TypeError, match="Encoding objects of type .* is unsupported"):
        to_builtins(value)


class IntSub(int):
    pass


class StrSub(str):
    pass


class ListSub(list):
    pass


class DictSub(dict):
    pass


class TupleSub(tuple):
    pass


@pytest.mark.parametrize("value", [IntSub(1), StrSub("x"), ListSub([1, b"x"]), DictSub(a=b"y"), TupleSub((1, b"z"))])
def test_subclasses_like_msgspec(value):
    check(value, value)


def test_option_errors():
    with pytest.raises(TypeError, match="builtin_types must be an iterable of types"):
        to_builtins(1, builtin_types=(1,))
    with pytest.raises(TypeError, match="builtin_types must be an iterable of types"):
        to_builtins(1, builtin_types=list)
    with pytest.raises(TypeError, match="builtin_types must be an iterable of types"):
        to_builtins(1, builtin_types=5)
    with pytest.raises(ValueError, match="`order` must be one of"):
        to_builtins(1, order="x")
    with pytest.raises(TypeError, match="enc_hook must be callable"):
        to_builtins(1, enc_hook=1)
    with pytest.raises(TypeError):
        to_builtins()
    with pytest.raises(TypeError):
        to_builtins(1, 2)
    with pytest.raises(TypeError):
        to_builtins(1, foo=2)
    assert to_builtins(obj=[1]) == [1]
    assert to_builtins({1: 1}, str_keys=1) == {"1": 1}


def test_results_are_new_containers():
    lst, dct, tup = [1], {"a": 1}, (1,)
    assert to_builtins(lst) is not lst and to_builtins(lst) == lst
    assert to_builtins(dct) is not dct and to_builtins(dct) == dct
    assert to_builtins(tup) == tup


def test_deep_nesting_raises_recursion_error():
    value = []
    for _ in range(100000):
        value = [value]
    with pytest.raises(RecursionError):
        to_builtins(value)


def test_enc_hook_mutating_list_does_not_crash():
    data = [Custom(1), 2, 3, 4]

    def hook(obj):
        data.clear()
        return "x"

    out = to_builtins(data, enc_hook=hook)
    assert out[0] == "x" and len(out) <= 4


scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text() | st.binary(max_size=20)
           | st.datetimes() | st.dates() | st.times() | st.timedeltas() | st.uuids()
           | st.decimals(allow_nan=False, allow_infinity=False))
keys = st.text() | st.integers() | st.floats(allow_nan=False) | st.uuids() | st.dates()
documents = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.tuples(children, children)
    | st.dictionaries(keys, children, max_size=5) | st.frozensets(st.integers(), max_size=4)
    | st.builds(lambda x, y: (B["Point"](x, y), M["Point"](x, y)), st.integers(), st.floats(allow_nan=False)),
    max_leaves=30,
)


def split(doc, side):
    """The boltwire (side 0) or msgspec (side 1) version of a generated document."""
    if isinstance(doc, tuple) and len(doc) == 2 and isinstance(doc[0], boltwire.Struct):
        return doc[side]
    if isinstance(doc, list):
        return [split(x, side) for x in doc]
    if isinstance(doc, tuple):
        return tuple(split(x, side) for x in doc)
    if isinstance(doc, dict):
        return {k: split(v, side) for k, v in doc.items()}
    return doc


@settings(max_examples=300, deadline=None)
@given(documents, st.sampled_from(OPTIONS[:4]))
def test_hypothesis_matches_msgspec(doc, options):
    try:
        check(split(doc, 0), split(doc, 1), **options)
    except UnicodeEncodeError:
        pass


def test_struct_dicts_are_gc_tracked_like_builtin_dicts():
    import gc

    Point, Nested = B["Point"], B["Nested"]
    scalars = to_builtins(Point(1, 2.5))
    assert scalars == {"x": 1, "y": 2.5} and not gc.is_tracked(scalars)
    holder = to_builtins(Nested([Point(1)], {}))
    assert gc.is_tracked(holder)
    # A cycle through a converted dict is collected.
    holder["points"].append(holder)
    import weakref

    class Marker:
        pass

    marker = Marker()
    holder["mapping"]["m"] = marker
    ref = weakref.ref(marker)
    del holder, marker
    gc.collect()
    assert ref() is None


def test_struct_dicts_are_independent_copies():
    Point = B["Point"]
    first, second = to_builtins(Point(1)), to_builtins(Point(2))
    first["x"] = 99
    first["new"] = 1
    assert second == {"x": 2, "y": 0.5}
    assert to_builtins(Point(3)) == {"x": 3, "y": 0.5}


def _tb_outcome(lib, fn):
    try:
        return ("ok", fn(lib))
    except Exception as e:  # noqa: BLE001 (compared across the two libraries)
        return (type(e).__name__, str(e))


def _same_tb(fn):
    ours, theirs = _tb_outcome(boltwire, fn), _tb_outcome(msgspec, fn)
    assert ours == theirs
    return ours


class _C1:
    pass


class _C1Sub(_C1):
    pass


@pytest.mark.parametrize("col", [list, tuple, set])
def test_other_classes_in_builtin_types_pass_through_by_exact_type(col):
    c1 = _C1()
    for value in (c1, [c1, b"x"], {"k": c1}):
        result = _same_tb(lambda lib: lib.to_builtins(value, builtin_types=col([_C1, bytes])))
        assert result[0] == "ok"
    assert to_builtins(c1, builtin_types=col([_C1])) is c1
    assert _same_tb(lambda lib: lib.to_builtins(_C1Sub(), builtin_types=col([_C1])))[0] == "TypeError"


def test_str_keys_convert_keys_even_of_builtin_types():
    msg = {datetime.datetime(2022, 1, 2, 3, 4, 5): 1, datetime.date(2022, 1, 2): 2, datetime.time(12, 34): 3,
           b"ab": 4}
    types_ = (datetime.datetime, datetime.date, datetime.time, bytes)
    assert _same_tb(lambda lib: lib.to_builtins(msg, builtin_types=types_, str_keys=True)) == (
        "ok", {"2022-01-02T03:04:05": 1, "2022-01-02": 2, "12:34:00": 3, "YWI=": 4})
    dt = datetime.datetime(2022, 1, 2)
    assert to_builtins({"x": dt}, builtin_types=types_, str_keys=True)["x"] is dt
    assert to_builtins({dt: 1}, builtin_types=types_) == {dt: 1}


def test_str_subclass_key_becomes_str():
    class mystr(str):
        pass

    result = _same_tb(lambda lib: lib.to_builtins({mystr("k"): 1}))
    assert type(next(iter(result[1]))) is str


@pytest.mark.parametrize("tag", [False, True])
def test_array_like_struct_key_becomes_a_tuple(tag):
    class FruitInt(enum.IntEnum):
        APPLE = -1

    def run(lib):
        ns = {}
        exec("class Ex(Struct, array_like=True, tag=tag, frozen=True):\n    x: int\n    y: object\n",
             {"Struct": lib.Struct, "tag": tag}, ns)
        Ex = ns["Ex"]
        return lib.to_builtins({Ex(1, FruitInt.APPLE): "a"}), lib.to_builtins([Ex(1, (2, 3))])

    assert _same_tb(run)[0] == "ok"
