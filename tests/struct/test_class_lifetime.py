"""Classes are collectable after use: decoder plans, encoder caches and to_builtins caches never keep a class
alive (a class that goes out of scope is freed by gc.collect())."""

import dataclasses
import gc
import sys
import types
import typing
import weakref

import attrs
import msgspec
import pytest

import boltwire

SOURCE = '''
import dataclasses
import attrs
import boltwire
import msgspec

class A(boltwire.Struct):
    b: "B | None" = None

class B(boltwire.Struct):  # A and B refer to each other
    a: "A | None" = None

@dataclasses.dataclass
class D:
    x: int
    a: "A | None" = None

@attrs.define
class At:
    x: int = 0

class M(msgspec.Struct):
    x: int = 0

class Tagged1(boltwire.Struct, tag=True):
    x: int = 0

class Tagged2(boltwire.Struct, tag=True):
    y: int = 0

class U(boltwire.Struct):
    item: "Tagged1 | Tagged2"
'''

USES = {
    "decode": lambda m: (boltwire.json.Decoder(m.A).decode(b'{"b":{"a":{}}}'),
                         boltwire.json.Decoder(m.D).decode(b'{"x":1}'),
                         boltwire.json.Decoder(m.U).decode(b'{"item":{"type":"Tagged2"}}')),
    "convert": lambda m: (boltwire.convert({"x": 1, "a": {"b": {}}}, m.D), boltwire.convert({}, m.B),
                          boltwire.convert({"item": {"type": "Tagged1"}}, m.U)),
    "encode": lambda m: (boltwire.json.encode([m.D(1, m.A(m.B())), m.At(), m.M()]),
                         boltwire.json.Encoder(order="sorted").encode([m.D(1), m.At(), m.M()])),
    "to_builtins": lambda m: boltwire.to_builtins([m.D(1, m.A()), m.At(), m.M()]),
    "inspect": lambda m: boltwire.inspect.multi_type_info([m.A, m.D, m.U]),
}


@pytest.mark.parametrize("use", list(USES))
def test_classes_collectable_after_use(use):
    def run():
        mod = types.ModuleType("lifetime_mod")
        sys.modules[mod.__name__] = mod
        try:
            exec(SOURCE, mod.__dict__)
            USES[use](mod)
            return [weakref.ref(getattr(mod, n)) for n in ("A", "B", "D", "At", "M", "Tagged1", "Tagged2", "U")]
        finally:
            del sys.modules[mod.__name__]

    refs = run()
    gc.collect()
    alive = [r().__name__ for r in refs if r() is not None]
    assert alive == []


def test_collected_class_plan_does_not_break_a_new_class_of_the_same_shape():
    for i in range(3):
        @dataclasses.dataclass
        class Row:
            x: int

        assert boltwire.json.decode(b'{"x": %d}' % i, type=Row) == Row(i)
        assert boltwire.json.encode(Row(i)) == b'{"x":%d}' % i
        del Row
        gc.collect()


COMPOSITE_SOURCE = '''
import dataclasses
import enum
import typing

import boltwire

T = typing.TypeVar("T")

class A(boltwire.Struct):
    x: int = 0

class Box(boltwire.Struct, typing.Generic[T]):
    item: T

@dataclasses.dataclass
class D:
    x: int = 0

class Color(enum.Enum):
    RED = "red"

class TD(typing.TypedDict):
    x: int

class NT(typing.NamedTuple):
    x: int

AId = typing.NewType("AId", A)
'''
COMPOSITE_NAMES = ("A", "Box", "D", "Color", "TD", "NT")


def _composite_cases(m):
    """(annotation, a value of it) pairs naming the module's classes in every way an annotation can."""
    return [
        (list[m.A], [m.A(1)]), (dict[str, m.A], {"k": m.A(1)}), (typing.Optional[m.A], m.A(2)), (m.A | None, None),
        (tuple[m.A, ...], (m.A(3),)), (typing.Annotated[m.A, boltwire.Meta(title="a")], m.A(4)),
        (m.Box[m.A], m.Box(m.A(5))), (m.Box[int], m.Box(6)), (list[m.D], [m.D(1)]), (set[m.Color], {m.Color.RED}),
        (typing.Literal[m.Color.RED], m.Color.RED), (list[m.TD], [{"x": 1}]), (list[m.NT], [m.NT(1)]),
        (m.AId, m.A(7)), (typing.List[typing.Optional[m.D]], [m.D(2), None]), (m.Color, m.Color.RED),
    ]


_COMPOSITE_USES = {
    "json.Decoder": lambda t, v: boltwire.json.Decoder(t).decode(boltwire.json.encode(v)),
    "json.decode": lambda t, v: boltwire.json.decode(boltwire.json.encode(v), type=t),
    "msgpack.Decoder": lambda t, v: boltwire.msgpack.Decoder(t).decode(boltwire.msgpack.encode(v)),
    "msgpack.decode": lambda t, v: boltwire.msgpack.decode(boltwire.msgpack.encode(v), type=t),
    "convert": lambda t, v: boltwire.convert(boltwire.to_builtins(v), t),
    "to_builtins": lambda t, v: boltwire.to_builtins(v),
    "json.Encoder": lambda t, v: boltwire.json.Encoder(order="sorted").encode(v),
    "msgpack.Encoder": lambda t, v: boltwire.msgpack.Encoder().encode(v),
    "inspect.type_info": lambda t, v: boltwire.inspect.type_info(t),
}


@pytest.mark.parametrize("use", list(_COMPOSITE_USES))
def test_classes_named_by_composite_annotations_are_collectable(use):
    """list[A], dict[str, A], Box[A], Literal[Color.RED], NewType(..., A), ...: the plan of a composite
    annotation is cached on the class it names, never process-wide, so the class dies with its last user."""
    def run():
        mod = types.ModuleType("lifetime_composite")
        sys.modules[mod.__name__] = mod
        try:
            exec(COMPOSITE_SOURCE, mod.__dict__)
            for t, value in _composite_cases(mod):
                for _ in range(2):  # the second use is the cache hit
                    result = _COMPOSITE_USES[use](t, value)
                if use.endswith(("decode", "Decoder", "convert")):
                    assert result == value, t
            return [weakref.ref(getattr(mod, n)) for n in COMPOSITE_NAMES]
        finally:
            del sys.modules[mod.__name__]

    refs = run()
    _clear_typing_caches()
    gc.collect()
    alive = [r().__name__ for r in refs if r() is not None]
    assert alive == []


def _clear_typing_caches():
    """typing keeps its own strong cache of Optional[A], Annotated[A, ...], Box[A] (functools.lru_cache): cleared
    here so that what is left alive can only be boltwire's doing."""
    for clear in getattr(typing, "_cleanups", ()):
        clear()


def test_composite_plan_cache_hits_and_results_stay_right():
    """The cache entry found again for an equal annotation (a new list[A] object) decodes the same way."""
    class Item(boltwire.Struct):
        x: int

    for i in range(3):
        assert boltwire.json.decode(b'[{"x": %d}]' % i, type=list[Item]) == [Item(i)]
        assert boltwire.convert([{"x": i}], list[Item]) == [Item(i)]
        assert boltwire.convert({"k": {"x": i}}, dict[str, typing.Optional[Item]]) == {"k": Item(i)}
    with pytest.raises(boltwire.ValidationError, match=r"Expected `int`, got `str` - at `\$\[0\].x`"):
        boltwire.convert([{"x": "a"}], list[Item])
    assert "__boltwire_plans__" in Item.__dict__  # where the entries live


def test_class_that_refuses_new_attributes_still_hits_the_cache(monkeypatch):
    """A metaclass that refuses `__boltwire_plans__`: the entry goes process-wide (the class then stays alive),
    and later lookups find it there instead of planning the annotation again."""
    class Locked(type):
        def __setattr__(cls, name, value):
            raise TypeError("locked")

    class C(metaclass=Locked):
        def __init__(self, x):
            self.x = x

    def hook(tp, obj):
        return tp(obj)

    import boltwire._typeinfo as typeinfo

    calls = []
    real = typeinfo.describe
    monkeypatch.setattr(typeinfo, "describe", lambda t: calls.append(t) or real(t))
    first = boltwire.convert([1], list[C], dec_hook=hook)
    planned = len(calls)
    second = boltwire.convert([2], list[C], dec_hook=hook)
    assert planned > 0 and len(calls) == planned  # the second lookup hit
    assert (first[0].x, second[0].x) == (1, 2)
    assert "__boltwire_plans__" not in C.__dict__
