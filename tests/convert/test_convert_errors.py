"""Error paths of convert(): every path shape (`$.a[0].b`, `$[...]`, "`key` in `$`", renamed names, array_like
positions, tags) compared with msgspec's exact message; then leak loops over error paths (10^4 iterations each)
checking the refcounts of the types involved and the traced Python memory stay flat."""

import datetime
import gc
import sys
import tracemalloc
import uuid
from typing import Annotated, Any, Dict, List, Literal, Optional, Set, Tuple, Union

import pytest

import boltwire
from _convert_diff import both, factory


@factory
def Doc(lib):
    class Leaf(lib.Struct, rename="camel"):
        leaf_value: int
        tags: List[str] = []

    class Row(lib.Struct, array_like=True):
        id: int
        name: str
        leaf: Optional[Leaf] = None

    class Base(lib.Struct, tag=True, tag_field="kind"):
        pass

    class Circle(Base):
        r: float

    class Square(Base):
        side: Annotated[float, lib.Meta(gt=0)]

    class Doc(lib.Struct):
        a: List[Leaf] = []
        rows: List[Row] = []
        by_key: Dict[str, Leaf] = {}
        by_int: Dict[int, List[int]] = {}
        pair: Tuple[int, str] = (0, "")
        shapes: List[Union[Circle, Square]] = []
        when: Optional[datetime.datetime] = None
        ids: Set[uuid.UUID] = set()
        nested: Dict[str, Dict[str, List[Leaf]]] = {}
        lit: Literal["x", "y"] = "x"

    return Doc


ERROR_INPUTS = [
    {"a": [{"leafValue": "x"}]},
    {"a": [{"leafValue": 1}, {"leafValue": 2, "tags": ["ok", 3]}]},
    {"a": [{"leaf_value": 1}]},
    {"a": {"leafValue": 1}},
    {"rows": [[1, "n"], [2]]},
    {"rows": [[1, "n"], ["2", "n"]]},
    {"rows": [[1, "n", {"leafValue": "bad"}]]},
    {"rows": [{"id": 1, "name": "n"}]},
    {"by_key": {"k": {"leafValue": []}}},
    {"by_key": {1: {"leafValue": 1}}},
    {"by_key": {"k": 5}},
    {"by_int": {"1": [1]}},
    {"by_int": {1: [1, "2"]}},
    {"by_int": {1.5: []}},
    {"pair": [1]},
    {"pair": [1, 2]},
    {"pair": ["1", "x"]},
    {"pair": [1, "x", 3]},
    {"shapes": [{"kind": "Circle", "r": 1}, {"kind": "Square", "side": 0}]},
    {"shapes": [{"kind": "Triangle"}]},
    {"shapes": [{"r": 1}]},
    {"shapes": [{"kind": "Circle", "r": "big"}]},
    {"shapes": [{"kind": 5}]},
    {"when": "tuesday"},
    {"when": 5},
    {"ids": ["nope"]},
    {"ids": [str(uuid.UUID(int=1)), 5]},
    {"nested": {"a": {"b": [{"leafValue": 1}, {"leafValue": None}]}}},
    {"nested": {"a": {"b": {"leafValue": 1}}}},
    {"nested": {"a": []}},
    {"lit": "z"},
    {"lit": 1},
    [],
    None,
]


@pytest.mark.parametrize("value", ERROR_INPUTS, ids=[str(i) for i in range(len(ERROR_INPUTS))])
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_error_message_and_path(value, strict):
    got, want = both(Doc, value, strict=strict)
    if strict:
        assert want[0] == "error", "the case list must only hold invalid inputs (lax mode may accept some)"
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"


@pytest.mark.parametrize(
    "target,value",
    [
        (List[int], [1, "x"]),
        (List[List[int]], [[1], [2, "x"]]),
        (Dict[str, int], {"a": "x"}),
        (Dict[int, int], {"a": 1}),
        (Dict[str, List[int]], {"a": [1, None]}),
        (Tuple[int, Tuple[str, int]], [1, ["a", "b"]]),
        (List[Dict[str, Set[int]]], [{}, {"k": [1, "x"]}]),
        (Dict[str, Dict[int, str]], {"a": {"x": "y"}}),
        (Optional[List[int]], ["x"]),
    ],
)
def test_error_paths_in_plain_containers(target, value):
    got, want = both(target, value)
    assert want[0] == "error"
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"


def test_validation_error_is_decode_error_and_value_error():
    with pytest.raises(boltwire.ValidationError) as info:
        boltwire.convert("x", int)
    assert isinstance(info.value, boltwire.DecodeError)
    assert isinstance(info.value, ValueError)


# ---------------------------------------------------------------- leak loops

N = 10_000


def _leak_check(fn, watched):
    """Call fn N times; the refcounts of `watched` objects and traced memory must not grow."""
    for _ in range(200):  # warm caches (type plans, interned strings)
        fn()
    gc.collect()
    before = [sys.getrefcount(o) for o in watched]
    tracemalloc.start()
    snap0 = tracemalloc.take_snapshot()
    for _ in range(N):
        fn()
    gc.collect()
    snap1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    after = [sys.getrefcount(o) for o in watched]
    growth = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    assert after == before, f"refcounts changed: {list(zip(watched, before, after))}"
    # One leaked small object per iteration would be >= 10_000 * 16 bytes; allow far less than that.
    assert growth < 64 * 1024, f"traced memory grew by {growth} bytes over {N} iterations"


def _expect_error(target, value, exc=boltwire.ValidationError, **kw):
    def fn():
        try:
            boltwire.convert(value, target, **kw)
        except exc:
            return
        raise AssertionError("expected an error")

    return fn


LEAK_CASES = [
    "struct_field_path",
    "array_like_path",
    "dict_value_path",
    "dict_key_path",
    "tag_unknown",
    "constraint",
    "post_init",
    "dec_hook_error",
    "missing_field",
    "unknown_field",
    "fixed_tuple_length",
    "union_mismatch",
    "datetime_str",
    "uuid_str",
    "set_unhashable",
    "from_attributes",
    "validator",
]


@pytest.mark.parametrize("case", LEAK_CASES)
def test_no_leaks_on_error_paths(case):
    Doc_ = Doc.fn(boltwire)
    doc_types = [Doc_] + [t for t in Doc_.__annotations__.values()]

    class Item(boltwire.Struct, forbid_unknown_fields=True):
        price: Annotated[float, boltwire.Meta(gt=0)]
        qty: int = 1

        def __post_init__(self):
            if self.qty == 99:
                raise ValueError("qty 99 is not allowed")

    class Money:
        pass

    def hook(tp, obj):
        raise ValueError("no money")

    def validator(v):
        raise ValueError("never valid")

    V = Annotated[int, boltwire.Meta(validator=validator)]

    class Obj:
        price = "x"
        qty = 1

    value_key = "key-" + "x" * 20
    cases = {
        "struct_field_path": (_expect_error(Doc_, {"a": [{"leafValue": "x"}]}), doc_types),
        "array_like_path": (_expect_error(Doc_, {"rows": [[1, "n", {"leafValue": "bad"}]]}), doc_types),
        "dict_value_path": (_expect_error(Dict[str, int], {value_key: "x"}), [value_key]),
        "dict_key_path": (_expect_error(Dict[int, int], {value_key: 1}), [value_key]),
        "tag_unknown": (_expect_error(Doc_, {"shapes": [{"kind": "Triangle"}]}), doc_types),
        "constraint": (_expect_error(Item, {"price": -1.0}), [Item]),
        "post_init": (_expect_error(List[Item], [{"price": 1.0, "qty": 99}]), [Item]),
        "dec_hook_error": (_expect_error(Dict[str, Money], {"k": 1}, dec_hook=hook), [Money, hook]),
        "missing_field": (_expect_error(Item, {"qty": 1}), [Item]),
        "unknown_field": (_expect_error(Item, {"price": 1.0, "bogus": 1}), [Item]),
        "fixed_tuple_length": (_expect_error(Tuple[int, str], [1, "a", 3]), [int, str]),
        "union_mismatch": (_expect_error(Union[int, str], [1]), [int, str]),
        "datetime_str": (_expect_error(datetime.datetime, "not a date"), [datetime.datetime]),
        "uuid_str": (_expect_error(uuid.UUID, "not-a-uuid"), [uuid.UUID]),
        "set_unhashable": (_expect_error(Set[Any], [[1]], exc=(boltwire.ValidationError, TypeError)), [list]),
        "from_attributes": (_expect_error(Item, Obj(), from_attributes=True), [Item, Obj]),
        "validator": (_expect_error(List[V], [1, 2]), [validator]),
    }
    fn, watched = cases[case]
    _leak_check(fn, watched)


def test_no_leaks_on_success_paths():
    Doc_ = Doc.fn(boltwire)
    good = {
        "a": [{"leafValue": 1, "tags": ["x"]}],
        "rows": [[1, "n", {"leafValue": 2}]],
        "by_key": {"k": {"leafValue": 3}},
        "by_int": {1: [1, 2]},
        "pair": [1, "x"],
        "shapes": [{"kind": "Circle", "r": 1.0}, {"kind": "Square", "side": 2.0}],
        "when": "2021-01-01T00:00:00Z",
        "ids": [str(uuid.UUID(int=3))],
        "nested": {"a": {"b": [{"leafValue": 4}]}},
        "lit": "y",
    }

    def fn():
        boltwire.convert(good, Doc_)

    _leak_check(fn, [Doc_])
