"""Classes are collectable after use: decoder plans, encoder caches and to_builtins caches never keep a class
alive (a class that goes out of scope is freed by gc.collect())."""

import dataclasses
import gc
import sys
import types
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
