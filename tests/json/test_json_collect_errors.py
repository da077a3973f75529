"""collect_errors=True and ValidationError.errors(): every error of a document at once, each with a stable
type code and a loc, through json.decode, json.Decoder and convert. The default (fail-fast) behaviour and
messages stay msgspec's (test_json_collect_errors_hypothesis.py checks the first error is fail-fast's)."""

import enum
import json as stdlib_json
from typing import Annotated, Any, Union

import msgspec
import pytest

import boltwire as bw
from boltwire import json as bj


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


def must_be_even(n):
    if n % 2:
        raise ValueError("must be even")
    return n


class Item(bw.Struct):
    name: str
    price: Annotated[float, bw.Meta(ge=0)]
    qty: int = 1


class Cat(bw.Struct, tag="cat"):
    lives: int = 9


class Dog(bw.Struct, tag="dog"):
    good: bool = True


class Order(bw.Struct, forbid_unknown_fields=True):
    id: int
    items: list[Item]
    color: Color = Color.RED
    pets: list[Union[Cat, Dog]] = []
    point: tuple[int, int] = (0, 0)
    even: Annotated[int, bw.Meta(validator=must_be_even)] = 0
    counts: dict[str, int] = {}
    bag: set[Any] = set()


BAD_ORDER = {
    "id": "x",
    "items": [{"name": "a", "price": -1}, {"price": 1.0}, {"name": 5, "price": "free"}],
    "color": "purple",
    "pets": [{"type": "cat", "lives": 9}, {"type": "cow"}, {"type": "dog", "good": "yes"}],
    "point": [1, 2, 3],
    "even": 3,
    "counts": {"a": 1, "b": "x"},
    "bag": [[1]],
    "extra": 1,
}

# (type, loc) of every error in BAD_ORDER, in input order.
EXPECTED = [
    ("wrong_type", ("id",)),
    ("constraint", ("items", 0, "price")),
    ("missing", ("items", 1)),
    ("wrong_type", ("items", 2, "name")),
    ("wrong_type", ("items", 2, "price")),
    ("invalid_value", ("color",)),
    ("invalid_tag", ("pets", 1, "type")),
    ("wrong_type", ("pets", 2, "good")),
    ("wrong_length", ("point",)),
    ("validator", ("even",)),
    ("wrong_type", ("counts", "b")),
    ("not_hashable", ("bag", 0)),
    ("unknown_field", ()),
]


def json_collect(obj, tp, **kw):
    return bj.decode(stdlib_json.dumps(obj).encode(), type=tp, collect_errors=True, **kw)


def convert_collect(obj, tp, **kw):
    return bw.convert(obj, tp, collect_errors=True, **kw)


def json_fail_fast(obj, tp):
    return bj.decode(stdlib_json.dumps(obj).encode(), type=tp)


def convert_fail_fast(obj, tp):
    return bw.convert(obj, tp)


BOTH = pytest.mark.parametrize("collect, fail_fast", [(json_collect, json_fail_fast), (convert_collect, convert_fail_fast)],
                               ids=["json", "convert"])


def errors_of(fn, *args, **kw):
    with pytest.raises(bw.ValidationError) as info:
        fn(*args, **kw)
    return info.value, info.value.errors()


@BOTH
def test_every_error_type_is_collected_with_its_loc_in_input_order(collect, fail_fast):
    exc, errors = errors_of(collect, BAD_ORDER, Order)
    assert [(e.type, e.loc) for e in errors] == EXPECTED
    assert all(isinstance(e, bw.ErrorDetail) for e in errors)
    # str(e): every error's fail-fast message, one per line; the first line is exactly the fail-fast error.
    lines = str(exc).split("\n")
    assert len(lines) == len(EXPECTED)
    _, first = errors_of(fail_fast, BAD_ORDER, Order)
    assert lines[0] == "Expected `int`, got `str` - at `$.id`"
    assert errors[0] == first[0]


@BOTH
def test_messages_are_the_fail_fast_messages_without_the_path(collect, fail_fast):
    _, errors = errors_of(collect, BAD_ORDER, Order)
    by_loc = {e.loc: e.msg for e in errors}
    assert by_loc[("id",)] == "Expected `int`, got `str`"
    assert by_loc[("items", 0, "price")] == "Expected `float` >= 0.0"
    assert by_loc[("items", 1)] == "Object missing required field `name`"
    assert by_loc[("color",)] == "Invalid enum value 'purple'"
    assert by_loc[("pets", 1, "type")] == "Invalid value 'cow'"
    assert by_loc[("point",)].startswith("Expected `array` of length 2")  # convert adds ", got 3" (msgspec)
    assert by_loc[("even",)] == "must be even"
    assert by_loc[()] == "Object contains unknown field `extra`"
    # each message is what fail-fast mode raises for that one mistake alone
    exc, _ = errors_of(fail_fast, {"id": 1, "items": [], "even": 3}, Order)
    assert str(exc) == "must be even - at `$.even`"


def test_input_is_the_value_when_at_hand_else_its_json_type_name():
    _, errors = errors_of(json_collect, BAD_ORDER, Order)
    inputs = {e.loc: e.input for e in errors}
    assert inputs[("id",)] == "str"  # a type mismatch: the JSON type it got
    assert inputs[("items", 0, "price")] == -1.0  # a constraint: the value
    assert inputs[("items", 1)] is None  # missing: nothing offending; loc and msg name the object and field
    assert inputs[("pets", 1, "type")] == "cow"
    assert inputs[("even",)] == 3
    assert inputs[()] == "number"  # the unknown field's value, unread


def test_convert_inputs_are_the_offending_objects():
    _, errors = errors_of(convert_collect, BAD_ORDER, Order)
    inputs = {e.loc: e.input for e in errors}
    assert inputs[("items", 0, "price")] == -1
    assert inputs[("pets", 1, "type")] == "cow"
    assert inputs[()] == 1  # the unknown field's value
    assert inputs[("items", 1)] is None


@BOTH
def test_valid_input_decodes_the_same_with_collect_errors(collect, fail_fast):
    good = {"id": 1, "items": [{"name": "a", "price": 2.5}], "pets": [{"type": "dog"}], "counts": {"a": 1},
            "bag": [1, "x"], "point": [3, 4], "even": 2}
    assert collect(good, Order) == fail_fast(good, Order)
    assert collect(good, Order).items == [Item("a", 2.5)]


@BOTH
def test_a_single_error_raises_exactly_the_fail_fast_exception(collect, fail_fast):
    doc = {"id": 1, "items": [{"name": "a", "price": "x"}]}
    exc, errors = errors_of(collect, doc, Order)
    ff, ff_errors = errors_of(fail_fast, doc, Order)
    assert str(exc) == str(ff) == "Expected `float`, got `str` - at `$.items[0].price`"
    assert errors == ff_errors
    assert errors[0].loc == ("items", 0, "price")


@BOTH
def test_max_errors_caps_the_list(collect, fail_fast):
    doc = [{"name": i, "price": 1} for i in range(50)]
    _, errors = errors_of(collect, doc, list[Item], max_errors=7)
    assert [e.loc for e in errors] == [(i, "name") for i in range(7)]
    _, errors = errors_of(collect, doc, list[Item])
    assert len(errors) == 50
    _, errors = errors_of(collect, [{"name": i, "price": 1} for i in range(150)], list[Item])
    assert len(errors) == 100  # the default cap


def test_fail_fast_errors_have_one_detail():
    exc, errors = errors_of(bj.decode, b'{"id": 1, "items": [{"name": "a"}]}', type=Order)
    assert errors == [bw.ErrorDetail("missing", ("items", 0), "Object missing required field `price`", None)]
    assert str(exc) == "Object missing required field `price` - at `$.items[0]`"


def test_error_detail_is_a_frozen_struct():
    detail = bw.ErrorDetail("missing", ("a", 0), "m", None)
    with pytest.raises(AttributeError):
        detail.type = "x"
    assert bw.to_builtins(detail) == {"type": "missing", "loc": ("a", 0), "msg": "m", "input": None}


# ---- shapes: deeply nested, array_like, tagged, dict-keyed ---------------------------------------------------


class Node(bw.Struct):
    value: int
    children: "list[Node]" = []


def nested(depth, bad_every):
    node = {"value": 0, "children": []}
    root = node
    for level in range(1, depth):
        child = {"value": "bad" if level % bad_every == 0 else level, "children": []}
        node["children"].append({"value": 1})
        node["children"].append(child)
        node = child
    return root


@BOTH
def test_deeply_nested_errors_keep_their_full_loc(collect, fail_fast):
    _, errors = errors_of(collect, nested(60, 10), Node)
    assert len(errors) == 5
    for n, e in enumerate(errors, 1):
        assert e.type == "wrong_type"
        assert e.loc == ("children", 1) * (10 * n) + ("value",)


class Point(bw.Struct, array_like=True):
    x: int
    y: int
    label: str = ""


class TaggedPoint(bw.Struct, array_like=True, tag="p"):
    x: int
    y: int


@BOTH
def test_array_like_structs(collect, fail_fast):
    _, errors = errors_of(collect, [[1, "a", 3], ["b", 2], [1]], list[Point])
    assert [(e.type, e.loc) for e in errors] == [
        ("wrong_type", (0, 1)), ("wrong_type", (0, 2)), ("wrong_type", (1, 0)), ("wrong_length", (2,))]
    _, errors = errors_of(collect, [["p", "x", "y"], ["q", 1, 2]], list[TaggedPoint])
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", (0, 1)), ("wrong_type", (0, 2)), ("invalid_tag", (1, 0))]


class Circle(bw.Struct, tag_field="kind", tag="circle"):
    r: float


class Square(bw.Struct, tag_field="kind", tag="square"):
    side: float


@BOTH
def test_tagged_unions_read_the_variant_and_collect_inside_it(collect, fail_fast):
    doc = [{"kind": "circle", "r": "big"}, {"side": 1, "kind": "square"}, {"r": 1}, {"kind": 3}, {"side": "x", "kind": "square"}]
    _, errors = errors_of(collect, doc, list[Union[Circle, Square]])
    assert [(e.type, e.loc) for e in errors] == [
        ("wrong_type", (0, "r")), ("invalid_tag", (2,)), ("invalid_tag", (3, "kind")), ("wrong_type", (4, "side"))]


def test_dict_keyed_values_and_keys():
    doc = b'{"1": 1, "x": 2, "3": "y", "4": 4}'
    _, errors = errors_of(bj.decode, doc, type=dict[int, int], collect_errors=True)
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", ("x", "[key]")), ("wrong_type", (3,))]
    exc, _ = errors_of(bj.decode, doc, type=dict[int, int])
    assert str(exc) == "Expected `int`, got `str` - at `key` in `$`"  # msgspec's rendering, unchanged


def test_dict_keyed_convert():
    _, errors = errors_of(convert_collect, {"a": 1, "b": "x", 3: 4, "c": None}, dict[str, int])
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", ("b",)), ("wrong_type", (3, "[key]")), ("wrong_type", ("c",))]


class WithClasses(bw.Struct):
    td: "TD"
    points: list[tuple[int, str]]


from typing import NamedTuple, TypedDict  # noqa: E402
import dataclasses  # noqa: E402


class TD(TypedDict):
    a: int
    b: str


@dataclasses.dataclass
class DC:
    a: int
    b: str


class NT(NamedTuple):
    a: int
    b: str = ""


@BOTH
def test_typeddict_dataclass_namedtuple_and_tuples(collect, fail_fast):
    _, errors = errors_of(collect, [{"b": 1}, {"a": "x", "b": 2}], list[TD])
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", (0, "b")), ("missing", (0,)), ("wrong_type", (1, "a")), ("wrong_type", (1, "b"))]
    _, errors = errors_of(collect, [{"b": 1}, {"a": "x", "b": "y"}], list[DC])
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", (0, "b")), ("missing", (0,)), ("wrong_type", (1, "a"))]
    _, errors = errors_of(collect, [["x", 1], [2]], list[NT])
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", (0, 0)), ("wrong_type", (0, 1))]
    _, errors = errors_of(collect, [[1, 2], ["a", "b"]], list[tuple[int, str]])
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", (0, 1)), ("wrong_type", (1, 0))]
    _, errors = errors_of(collect, [["a", 1], "b"], list[tuple[int, ...]])
    assert [(e.type, e.loc) for e in errors] == [("wrong_type", (0, 0)), ("wrong_type", (1,))]


@BOTH
def test_missing_fields_are_each_reported(collect, fail_fast):
    _, errors = errors_of(collect, {}, Item)
    assert [(e.type, e.msg) for e in errors] == [
        ("missing", "Object missing required field `name`"), ("missing", "Object missing required field `price`")]
    exc, ff = errors_of(fail_fast, {}, Item)
    assert ff == errors[:1]


# ---- the JSON reader: stepping over invalid values, malformed input -----------------------------------------


def test_invalid_values_of_every_json_shape_are_stepped_over():
    doc = b'[{"name": {"a": [1, {"b": "}"}]}, "price": 1}, {"name": [1, [2, "]"]], "price": 1}, {"name": "ok", "price": 2}]'
    _, errors = errors_of(bj.decode, doc, type=list[Item], collect_errors=True)
    assert [(e.type, e.loc, e.input) for e in errors] == [
        ("wrong_type", (0, "name"), "object"), ("wrong_type", (1, "name"), "array")]


def test_malformed_input_after_errors_is_reported_last():
    doc = b'[{"name": 1, "price": 1}, {"name": "a", "price": 1,}]'
    exc, errors = errors_of(bj.decode, doc, type=list[Item], collect_errors=True)
    assert [e.type for e in errors] == ["wrong_type", "malformed"]
    with pytest.raises(bw.ValidationError) as ff:
        bj.decode(doc, type=list[Item])
    assert str(exc).split("\n")[0] == str(ff.value)
    with pytest.raises(bw.DecodeError) as malformed:
        bj.decode(doc)
    assert errors[1].msg == str(malformed.value) == "JSON is malformed: trailing comma in object (byte 51)"
    assert errors[1].loc == () and errors[1].input is None
    # malformed inside a value being stepped over ends the walk the same way
    _, errors = errors_of(bj.decode, b'[{"name": [1, 2,], "price": 1}]', type=list[Item], collect_errors=True)
    assert [e.type for e in errors] == ["wrong_type", "malformed"]


@pytest.mark.parametrize("doc", [b'[{"name": "a", "price": 1', b'[{"name": "a" "price": 1}]', b'[{"name": "a", "price": 1},]', b'[] x'])
def test_malformed_input_before_any_error_raises_what_fail_fast_raises(doc):
    with pytest.raises(bw.DecodeError) as ff:
        bj.decode(doc, type=list[Item])
    with pytest.raises(bw.DecodeError) as collected:
        bj.decode(doc, type=list[Item], collect_errors=True)
    assert type(collected.value) is type(ff.value)
    assert str(collected.value) == str(ff.value)


def test_user_validation_errors_from_hooks_are_collected():
    class Money:
        def __init__(self, cents):
            self.cents = cents

    def dec_hook(tp, obj):
        if tp is Money:
            if not isinstance(obj, int):
                raise bw.ValidationError("money must be cents")
            return Money(obj)
        raise NotImplementedError

    class Bill(bw.Struct):
        total: Money
        tip: Money

    _, errors = errors_of(bj.decode, b'{"total": "x", "tip": 1.5}', type=Bill, dec_hook=dec_hook, collect_errors=True)
    assert [(e.type, e.loc, e.msg) for e in errors] == [("validator", (), "money must be cents")] * 2


def test_other_exceptions_propagate():
    def dec_hook(tp, obj):
        raise RuntimeError("boom")

    class Weird:
        pass

    class Holder(bw.Struct):
        a: int
        w: Weird

    with pytest.raises(RuntimeError, match="boom"):
        bj.decode(b'{"a": "x", "w": 1}', type=Holder, dec_hook=dec_hook, collect_errors=True)


# ---- API ------------------------------------------------------------------------------------------------------


def test_decoder_options():
    dec = bj.Decoder(list[Item], collect_errors=True, max_errors=2)
    assert dec.collect_errors is True and dec.max_errors == 2
    assert bj.Decoder(Item).collect_errors is False and bj.Decoder(Item).max_errors == 100
    _, errors = errors_of(dec.decode, b'[{"name": 1, "price": "x"}, {}]')
    assert [e.loc for e in errors] == [(0, "name"), (0, "price")]
    with pytest.raises(ValueError, match="max_errors must be >= 1"):
        bj.Decoder(Item, max_errors=0)
    with pytest.raises(TypeError, match="max_errors must be an int"):
        bj.decode(b"1", type=int, collect_errors=True, max_errors="3")
    with pytest.raises(TypeError, match="max_errors must be an int"):
        bw.convert(1, int, collect_errors=True, max_errors=True)


def test_collect_errors_false_is_fail_fast():
    exc, errors = errors_of(bj.decode, b'[{"name": 1, "price": "x"}]', type=list[Item], collect_errors=False)
    assert len(errors) == 1 and str(exc) == "Expected `str`, got `int` - at `$[0].name`"


def test_user_raised_validation_error_has_a_fallback_detail():
    assert bw.ValidationError("plain").errors() == [bw.ErrorDetail("validator", (), "plain", None)]


# ---- differential: fail-fast messages and classes are msgspec's -----------------------------------------------


class MItem(msgspec.Struct):
    name: str
    price: Annotated[float, msgspec.Meta(ge=0)]
    qty: int = 1


@pytest.mark.parametrize("doc", [
    b'[{"name": 1, "price": 1}]',
    b'[{"name": "a", "price": -1}]',
    b'[{"price": 1}]',
    b'[{"name": "a", "price": 1, "qty": "2"}]',
    b'{"a": 1}',
    b'[{"name": "a", "price": 1,}]',
    b'[{"name": "a", "price": 1e999}]',
])
@pytest.mark.parametrize("collect_errors", [False, True])
def test_single_error_messages_match_msgspec(doc, collect_errors):
    with pytest.raises(msgspec.DecodeError) as theirs:
        msgspec.json.decode(doc, type=list[MItem])
    with pytest.raises(bw.DecodeError) as ours:
        bj.decode(doc, type=list[Item], collect_errors=collect_errors)
    assert str(ours.value) == str(theirs.value)
    assert isinstance(ours.value, bw.ValidationError) == isinstance(theirs.value, msgspec.ValidationError)
