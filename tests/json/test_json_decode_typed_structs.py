"""Typed decoding into Structs compared with msgspec: every class option (tag / tag_field with str and int tags,
tagged unions, array_like, rename, omit_defaults, forbid_unknown_fields, kw_only), defaults and factories,
__post_init__, generic Structs, recursive types and error paths like `$.items[0].price`."""

import typing
from typing import Generic, Optional, TypeVar, Union

import pytest

from typed_decode_diff import cases, check, check_build_error, module_with, run_isolated

T = TypeVar("T")


def point(lib):
    class Point(lib.Struct):
        x: int
        y: float = 0.0
        label: str = "p"

    return Point


def order(lib):
    class Item(lib.Struct):
        name: str
        price: float
        qty: int = 1

    class Order(lib.Struct):
        id: int
        items: list[Item]
        note: Optional[str] = None

    return Order


def renamed_camel(lib):
    class R(lib.Struct, rename="camel"):
        user_id: int
        full_name: str = ""

    return R


def renamed_map(lib):
    class R(lib.Struct, rename={"a": "A-key", "b": "bee"}):
        a: int
        b: int = 2
        c: int = 3

    return R


def renamed_field(lib):
    class R(lib.Struct):
        a: int = lib.field(name="alpha")
        b: list[int] = lib.field(default_factory=list, name="beta")

    return R


def renamed_pascal(lib):
    class R(lib.Struct, rename="pascal"):
        field_one: int
        field_two: int = 0

    return R


def renamed_kebab(lib):
    class R(lib.Struct, rename="kebab"):
        field_one: int

    return R


def renamed_callable(lib):
    class R(lib.Struct, rename=lambda n: n.upper()):
        abc: int
        de: int = 0

    return R


def forbid(lib):
    class F(lib.Struct, forbid_unknown_fields=True):
        a: int
        b: int = 0

    return F


def kw_only(lib):
    class K(lib.Struct, kw_only=True):
        a: int = 1
        b: int

    return K


def omit_defaults(lib):
    class O(lib.Struct, omit_defaults=True):
        a: int
        b: list[int] = []
        c: dict[str, int] = {}

    return O


def factories(lib):
    class D(lib.Struct):
        a: list[int] = lib.field(default_factory=list)
        b: dict[str, int] = lib.field(default_factory=dict)
        c: set[int] = set()
        d: int = lib.field(default=5)

    return D


def frozen(lib):
    class Fz(lib.Struct, frozen=True):
        a: int
        b: tuple[int, ...] = ()

    return Fz


def array_like(lib):
    class A(lib.Struct, array_like=True):
        a: int
        b: str
        c: float = 1.5

    return A


def array_like_nested(lib):
    class Inner(lib.Struct, array_like=True):
        x: int
        y: int = 0

    class Outer(lib.Struct, array_like=True):
        name: str
        inner: list[Inner]

    return Outer


def array_like_tagged(lib):
    class A(lib.Struct, array_like=True, tag=True):
        a: int

    class B(lib.Struct, array_like=True, tag="bee"):
        b: str = ""

    return Union[A, B]


def array_like_int_tagged(lib):
    class A(lib.Struct, array_like=True, tag=1):
        a: int

    class B(lib.Struct, array_like=True, tag=2):
        b: str = ""

    return Union[A, B]


def tagged_single(lib):
    class Cat(lib.Struct, tag=True):
        name: str

    return Cat


def tagged_union(lib):
    class Base(lib.Struct, tag_field="kind"):
        pass

    class Cat(Base, tag="cat"):
        name: str
        lives: int = 9

    class Dog(Base, tag="dog"):
        name: str
        good: bool = True

    return Union[Cat, Dog]


def tagged_union_default_tags(lib):
    class Cat(lib.Struct, tag=True):
        name: str

    class Dog(lib.Struct, tag=True):
        name: str

    return Union[Cat, Dog, None]


def tagged_union_int(lib):
    class One(lib.Struct, tag=1, tag_field="t"):
        a: int

    class Two(lib.Struct, tag=2, tag_field="t"):
        b: int = 0

    return Union[One, Two]


def tagged_union_callable_tag(lib):
    class Base(lib.Struct, tag=str.lower):
        pass

    class MyCat(Base):
        n: int

    class MyDog(Base):
        n: str

    return list[Union[MyCat, MyDog]]


def tagged_union_in_list(lib):
    return module_with(lib, """
        from typing import Union

        class File(lib.Struct, tag="file"):
            name: str
            size: int

        class Dir(lib.Struct, tag="dir"):
            name: str
            children: "list[Union[File, Dir]]" = []
    """).Dir


def tagged_with_dict(lib):
    class A(lib.Struct, tag="a"):
        x: int

    return Union[A, dict[str, int]]


def tagged_with_str(lib):
    class A(lib.Struct, tag="a"):
        x: int

    return Union[A, str, None]


def tagged_union_prefix_tags(lib):
    # Tags that are prefixes of each other and a non-ASCII one: the in-place tag match must compare whole values.
    class A(lib.Struct, tag="a"):
        x: int = 0

    class AB(lib.Struct, tag="ab"):
        x: int = 0

    class N(lib.Struct, tag="\u00f1"):
        x: int = 0

    return Union[A, AB, N]


def tagged_union_odd_field(lib):
    # A tag field and a tag value that need escaping in JSON: never matched in place.
    class A(lib.Struct, tag='q"1', tag_field='k\\y'):
        x: int = 0

    class B(lib.Struct, tag="b", tag_field='k\\y'):
        x: int = 0

    return list[Union[A, B]]


def post_init(lib):
    class P(lib.Struct):
        lo: int
        hi: int

        def __post_init__(self):
            if self.lo > self.hi:
                raise ValueError("lo must be <= hi")
            if self.lo < 0:
                raise TypeError("lo must be natural")
            if self.hi > 100:
                raise KeyError("hi too big")

    class Wrap(lib.Struct):
        ranges: list[P]

    return Wrap


def post_init_array_like(lib):
    class P(lib.Struct, array_like=True):
        lo: int

        def __post_init__(self):
            if self.lo < 0:
                raise ValueError(f"negative {self.lo}")

    return dict[str, P]


def generic_box(lib):
    class Box(lib.Struct, Generic[T]):
        item: T
        items: list[T] = []

    return Box[int]


def generic_box_unparametrised(lib):
    class Box(lib.Struct, Generic[T]):
        item: T

    return Box


def generic_nested(lib):
    class Box(lib.Struct, Generic[T]):
        item: T

    class Pair(lib.Struct, Generic[T]):
        left: Box[T]
        right: Optional[Box[T]] = None

    return Pair[str]


def recursive(lib):
    return module_with(lib, """
        from typing import Optional

        class Node(lib.Struct):
            value: int
            children: "list[Node]" = []
            parent: "Optional[Node]" = None
    """).Node


def inherited(lib):
    class A(lib.Struct):
        a: int
        z: int = 0

    class B(A):
        b: str = "x"
        a: int = 5

    return B


def optional_fields(lib):
    class O(lib.Struct):
        a: Optional[int]
        b: Union[int, str, None] = None
        c: Optional[list[int]] = None

    return O


def many_fields(lib):
    ns = {"__annotations__": {f"f{i}": int for i in range(40)}}
    for i in range(20, 40):
        ns[f"f{i}"] = i
    return type(lib.Struct)("Many", (lib.Struct,), ns)


def empty(lib):
    class E(lib.Struct):
        pass

    return E


def struct_with_any(lib):
    class S(lib.Struct):
        a: typing.Any
        b: object = None

    return S


STRUCT_CASES = {
    "point": (point, [b'{"x":1}', b'{"x":1,"y":2,"label":"q"}', b'{"y":2,"x":1}', b'{"label":"q","y":2.5,"x":1}',
                      b'{"x":1,"x":2}', b'{"x":1,"unknown":{"deep":[1,2,{"a":null}]}}', b'{}', b'{"y":1}',
                      b'{"x":"1"}', b'{"x":1,"y":"a"}', b'[1,2]', b'null', b'1', b'"x"', b'{"x":1,}', b'{"x":1',
                      b'{"x":null}', b'{"x":1.0}', b'{"x":true}', b'{"x":1,"y":1e400}',
                      b'{"X":1}', b'{"x ":1}']),
    "order": (order, [b'{"id":1,"items":[]}', b'{"id":1,"items":[{"name":"a","price":1.5}]}',
                      b'{"id":1,"items":[{"name":"a","price":"x"}]}', b'{"id":1,"items":[{"name":"a"}]}',
                      b'{"id":1,"items":[{"name":"a","price":1},{"price":2,"name":3}]}',
                      b'{"id":1,"items":[{"name":"a","price":1,"qty":2.5}],"note":null}',
                      b'{"id":1,"items":{}}', b'{"items":[]}', b'{"id":1,"items":[],"note":5}',
                      b'{"id":1,"items":[null]}']),
    "camel": (renamed_camel, [b'{"userId":1}', b'{"user_id":1}', b'{"userId":1,"fullName":"a"}', b'{}',
                              b'{"userId":"x"}', b'{"userId":1,"fullName":1}']),
    "map": (renamed_map, [b'{"A-key":1}', b'{"a":1}', b'{"A-key":1,"bee":5,"c":7}', b'{"A-key":1,"b":5}',
                          b'{"A-key":"1"}', b'{"bee":1}']),
    "field_name": (renamed_field, [b'{"alpha":1}', b'{"alpha":1,"beta":[1]}', b'{"a":1}', b'{"alpha":1,"beta":[""]}']),
    "pascal": (renamed_pascal, [b'{"FieldOne":1}', b'{"FieldOne":1,"FieldTwo":"x"}', b'{"field_one":1}']),
    "kebab": (renamed_kebab, [b'{"field-one":1}', b'{"field_one":1}']),
    "callable_rename": (renamed_callable, [b'{"ABC":1}', b'{"ABC":1,"DE":2}', b'{"abc":1}', b'{"ABC":1,"DE":"x"}']),
    "forbid": (forbid, [b'{"a":1}', b'{"a":1,"b":2}', b'{"a":1,"c":2}', b'{"c":2,"a":1}', b'{"a":1,"b":2,"zz":[1]}']),
    "kw_only": (kw_only, [b'{"b":2}', b'{"a":5,"b":2}', b'{"a":5}', b'{}']),
    "omit_defaults": (omit_defaults, [b'{"a":1}', b'{"a":1,"b":[1],"c":{"x":1}}', b'{"b":[]}']),
    "factories": (factories, [b'{}', b'{"a":[1],"c":[2,2],"d":6}', b'{"b":{"k":"v"}}']),
    "frozen": (frozen, [b'{"a":1}', b'{"a":1,"b":[1,2]}', b'{"a":1,"b":[1,"x"]}']),
    "array_like": (array_like, [b'[1,"a"]', b'[1,"a",2.5]', b'[1,"a",2.5,4]', b'[1]', b'[]', b'{"a":1,"b":"a"}',
                                b'[1,2]', b'["a","b"]', b'[1,"a",2.5,', b'null', b'[1,"a",null]']),
    "array_like_nested": (array_like_nested, [b'["n",[[1],[2,3]]]', b'["n",[[1,2,3]]]', b'["n",[["x"]]]',
                                              b'["n",[[]]]', b'["n",[{}]]']),
    "array_like_tagged": (array_like_tagged, [b'["A",1]', b'["bee"]', b'["bee","x"]', b'["C",1]', b'[1]', b'[]',
                                              b'[null]', b'["A"]', b'["A","x"]', b'{"type":"A"}']),
    "array_like_int_tagged": (array_like_int_tagged, [b'[1,5]', b'[2]', b'[3]', b'["1",5]', b'[1.0,5]', b'[]']),
    "tagged_single": (tagged_single, [b'{"type":"Cat","name":"x"}', b'{"name":"x","type":"Cat"}', b'{"name":"x"}',
                                      b'{"type":"Dog","name":"x"}', b'{"type":1,"name":"x"}',
                                      b'{"type":null,"name":"x"}']),
    "tagged_union": (tagged_union, [
        b'{"kind":"cat","name":"tom"}', b'{"kind":"dog","name":"rex","good":false}', b'{"name":"rex","kind":"dog"}',
        b'{"name":"rex"}', b'{"kind":"cow","name":"x"}', b'{"kind":5}', b'{"kind":"cat"}', b'{"kind":"cat","name":1}',
        b'{"kind":"cat","kind":"dog","name":"x"}', b'[]', b'null', b'"cat"', b'{"kind":"cat","name":"t","lives":"9"}',
        b'{"kind":"\\u0063at","name":"t"}', b'{}', b'{"kind":"cat","name":"t",}']),
    "tagged_default": (tagged_union_default_tags, [b'{"type":"Cat","name":"x"}', b'{"type":"Dog","name":"x"}',
                                                   b'null', b'{"type":"cat","name":"x"}', b'1']),
    "tagged_int": (tagged_union_int, [b'{"t":1,"a":5}', b'{"t":2}', b'{"a":5,"t":1}', b'{"t":3}', b'{"t":"1"}',
                                      b'{"t":1.0}', b'{"t":true}', b'{"t":-1}', b'{"t":99999999999999999999}',
                                      b'{"t":1}']),
    "tagged_callable": (tagged_union_callable_tag, [b'[{"type":"mycat","n":1},{"type":"mydog","n":"x"}]',
                                                    b'[{"type":"MyCat","n":1}]', b'[{"type":"mydog","n":1}]']),
    "tree": (tagged_union_in_list, [
        b'{"type":"dir","name":"/","children":[{"type":"file","name":"a","size":1},{"type":"dir","name":"b",'
        b'"children":[{"type":"file","name":"c","size":"big"}]}]}',
        b'{"type":"dir","name":"/","children":[{"type":"file","name":"a","size":1}]}',
        b'{"type":"dir","name":"/","children":[{"type":"link"}]}', b'{"name":"/"}']),
    "tagged_prefix": (tagged_union_prefix_tags, [
        b'{"type":"a","x":1}', b'{"type":"ab","x":2}', b'{"type":"abc"}', b'{"type":""}', b'{"type":"\xc3\xb1","x":3}',
        b'{"type":"\\u00f1"}', b'{"type" : "ab" , "x" : 4}', b'{ "type":"a"}', b'{"type":"a"}', b'{"type":"a"',
        b'{"type":"a",', b'{"type":"a"x', b'{"type":"ab', b'{"type":"a\\"}', b'{"typ":"a"}', b'{"types":"a"}',
        b'{"type":"a","type":"ab"}', b'{"x":1,"type":"ab"}', b'{"type":"a","x":"1"}']),
    "tagged_odd_field": (tagged_union_odd_field, [
        b'[{"k\\\\y":"q\\"1","x":1},{"k\\\\y":"b"}]', b'[{"k\\y":"b"}]', b'[{"k\\\\y":"q"1"}]', b'[{"k\\\\y":"c"}]']),
    "tagged_with_dict": (tagged_with_dict, [b'{"type":"a","x":1}', b'{"x":1}', b'{"type":"b"}']),
    "tagged_with_str": (tagged_with_str, [b'{"type":"a","x":1}', b'"s"', b'null', b'1']),
    "post_init": (post_init, [b'{"ranges":[{"lo":1,"hi":2}]}', b'{"ranges":[{"lo":1,"hi":2},{"lo":3,"hi":2}]}',
                              b'{"ranges":[{"lo":-1,"hi":2}]}', b'{"ranges":[{"lo":1,"hi":200}]}']),
    "post_init_array_like": (post_init_array_like, [b'{"a":[1]}', b'{"a":[1],"b":[-4]}']),
    "generic": (generic_box, [b'{"item":1}', b'{"item":1,"items":[2,3]}', b'{"item":"x"}', b'{"item":1,"items":["x"]}']),
    "generic_raw": (generic_box_unparametrised, [b'{"item":1}', b'{"item":"x"}', b'{"item":[1,{"a":null}]}']),
    "generic_nested": (generic_nested, [b'{"left":{"item":"a"}}', b'{"left":{"item":"a"},"right":{"item":1}}']),
    "recursive": (recursive, [b'{"value":1}', b'{"value":1,"children":[{"value":2,"children":[{"value":3}]}]}',
                              b'{"value":1,"children":[{"value":2,"children":[{"value":"x"}]}]}',
                              b'{"value":1,"parent":{"value":0,"parent":null}}']),
    "inherited": (inherited, [b'{}', b'{"a":1,"z":2,"b":"q"}', b'{"b":1}']),
    "optional": (optional_fields, [b'{"a":null}', b'{"a":1,"b":"x","c":[1]}', b'{}', b'{"a":1,"b":1.5}',
                                   b'{"a":1,"c":null}']),
    "many": (many_fields, [b"{" + b",".join(b'"f%d":%d' % (i, i) for i in range(20)) + b"}",
                           b"{" + b",".join(b'"f%d":%d' % (i, i) for i in reversed(range(40))) + b"}",
                           b"{" + b",".join(b'"f%d":%d' % (i, i) for i in range(19)) + b"}"]),
    "empty": (empty, [b"{}", b'{"a":1}', b"[]"]),
    "any": (struct_with_any, [b'{"a":1}', b'{"a":[1,{"b":2.5}],"b":"x"}', b'{}']),
}


# Cases that have crashed the process are compared in a subprocess so one crash fails one test, not the run.
ISOLATED = {generic_box, generic_nested}


def run_case(name, index, strict):
    make, inputs = STRUCT_CASES[name]
    check(make, inputs[index], strict=strict)


def compare(make, buf, strict):
    if make not in ISOLATED:
        check(make, buf, strict=strict)
        return
    name = next(k for k, v in STRUCT_CASES.items() if v[0] is make)
    index = STRUCT_CASES[name][1].index(buf)
    run_isolated(f"import test_json_decode_typed_structs as m; m.run_case({name!r}, {index}, {strict})")


@pytest.mark.parametrize("make, buf", cases(STRUCT_CASES))
def test_struct_decode_matches_msgspec(make, buf):
    compare(make, buf, True)


@pytest.mark.parametrize("make, buf", cases(STRUCT_CASES))
def test_struct_decode_lax_matches_msgspec(make, buf):
    compare(make, buf, False)


def test_error_path_in_nested_list():
    out = check(order, b'{"id":1,"items":[{"name":"a","price":1.5},{"name":"b","price":"x"}]}')
    assert out == ("error", "ValidationError", "Expected `float`, got `str` - at `$.items[1].price`")


def test_post_init_error_becomes_validation_error_with_path():
    out = check(post_init, b'{"ranges":[{"lo":1,"hi":2},{"lo":3,"hi":2}]}')
    assert out == ("error", "ValidationError", "lo must be <= hi - at `$.ranges[1]`")


def test_decoded_struct_is_real_instance():
    from boltwire import json

    Order = order(__import__("boltwire"))
    o = json.decode(b'{"id":1,"items":[{"name":"a","price":1}]}', type=Order)
    assert type(o) is Order and o.items[0].price == 1.0 and type(o.items[0].price) is float
    assert o.note is None and o.items[0].qty == 1


def test_default_factory_gives_fresh_objects():
    import boltwire
    from boltwire import json

    D = factories(boltwire)
    a = json.decode(b"{}", type=D)
    b = json.decode(b"{}", type=D)
    assert a.a == [] and a.a is not b.a and a.c is not b.c


# Invalid tagged unions / struct unions: msgspec refuses them with a TypeError when the decoder is built.

def two_untagged_structs(lib):
    class A(lib.Struct):
        a: int

    class B(lib.Struct):
        b: int

    return Union[A, B]


def duplicate_tags(lib):
    class A(lib.Struct, tag="x"):
        a: int

    class B(lib.Struct, tag="x"):
        b: int

    return Union[A, B]


def different_tag_fields(lib):
    class A(lib.Struct, tag="a", tag_field="k1"):
        a: int

    class B(lib.Struct, tag="b", tag_field="k2"):
        b: int

    return Union[A, B]


def mixed_tag_types(lib):
    class A(lib.Struct, tag="a"):
        a: int

    class B(lib.Struct, tag=2):
        b: int

    return Union[A, B]


def struct_and_array_like(lib):
    class A(lib.Struct, tag="a"):
        a: int

    class B(lib.Struct, tag="b", array_like=True):
        b: int

    return Union[A, B]


def struct_and_dict(lib):
    class A(lib.Struct):
        a: int

    return Union[A, dict]


def array_like_and_list(lib):
    class A(lib.Struct, array_like=True):
        a: int

    return Union[A, list[int]]


def tag_field_collides(lib):
    class A(lib.Struct, tag="a", tag_field="a"):
        a: int

    return A


@pytest.mark.parametrize("make", [two_untagged_structs, duplicate_tags, different_tag_fields, mixed_tag_types,
                                  struct_and_array_like, struct_and_dict, array_like_and_list],
                         ids=lambda f: f.__name__)
def test_invalid_struct_unions_raise_same_type_error(make):
    check_build_error(make)


def test_tag_field_colliding_with_field_is_refused_like_msgspec():
    import boltwire
    import msgspec

    outs = []
    for lib in (boltwire, msgspec):
        try:
            tag_field_collides(lib)
            outs.append(None)
        except Exception as e:  # noqa: BLE001
            outs.append((type(e).__name__, str(e)))
    assert outs[0] == outs[1]


def wrappers(lib):
    from typing import Final, NewType

    UserId = NewType("UserId", int)

    class Inner(lib.Struct):
        v: int

    class W(lib.Struct):
        uid: UserId
        const: Final[int] = 3
        inners: dict[str, Inner] = {}
        by_id: dict[int, Optional[Inner]] = {}
        maybe: Optional[Inner] = None

    return W


@pytest.mark.parametrize("buf", [b'{"uid":1}', b'{"uid":"x"}', b'{"uid":1,"const":4}', b'{"uid":1,"const":"x"}',
                                 b'{"uid":1,"inners":{"a":{"v":1},"b":{"v":"x"}}}',
                                 b'{"uid":1,"by_id":{"1":{"v":1},"2":null,"x":null}}',
                                 b'{"uid":1,"by_id":{"1":{"w":1}}}', b'{"uid":1,"maybe":{"v":[]}}'], ids=repr)
def test_struct_wrappers_and_paths_match_msgspec(buf):
    check(wrappers, buf)
    check(wrappers, buf, strict=False)
