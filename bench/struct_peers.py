"""bench/struct_peers.py: the same five-int class written for each library the structs benchmark compares.

Each template defines a class `C` with int fields a..e, equality, and ordering where the library offers it.
`load()` returns the names the template needs and raises ImportError when the library is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

FIELDS = "    a: int\n    b: int\n    c: int\n    d: int\n    e: int\n"


@dataclass
class Peer:
    name: str
    template: str
    load: Callable[[], dict]
    orderable: bool = True


def _boltwire() -> dict:
    import boltwire

    return {"Struct": boltwire.Struct}


def _msgspec() -> dict:
    import msgspec

    return {"Struct": msgspec.Struct}


def _structtype() -> dict:
    import structtype

    return {"Struct": structtype.Struct, "StructConfig": structtype.StructConfig}


def _dataclasses() -> dict:
    from dataclasses import dataclass

    return {"dataclass": dataclass}


def _attrs() -> dict:
    import attrs

    return {"define": attrs.define}


def _pydantic() -> dict:
    import pydantic

    return {"BaseModel": pydantic.BaseModel}


STRUCT = "class C(Struct, order=True):\n" + FIELDS

STRUCTTYPE = "class C(Struct):\n    struct_config = StructConfig(order=True)\n" + FIELDS

DATACLASS = "@dataclass(order=True)\nclass C:\n" + FIELDS

# attrs.define makes a slotted class by default.
ATTRS = "@define(order=True)\nclass C:\n" + FIELDS

# pydantic models have no ordering.
PYDANTIC = "class C(BaseModel):\n" + FIELDS

# What order=True generates, written by hand: __init__, __repr__, __eq__ and the four comparisons.
_ORDER_METHOD = """
    def __{name}__(self, other):
        if type(self) is not type(other):
            return NotImplemented
        return (self.a, self.b, self.c, self.d, self.e) {op} (other.a, other.b, other.c, other.d, other.e)
"""

_PLAIN_BODY = (
    """
    def __init__(self, a, b, c, d, e):
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.e = e

    def __repr__(self):
        return f"{type(self).__name__}(a={self.a!r}, b={self.b!r}, c={self.c!r}, d={self.d!r}, e={self.e!r})"

    def __eq__(self, other):
        if type(self) is not type(other):
            return NotImplemented
        return (
            self.a == other.a and self.b == other.b and self.c == other.c
            and self.d == other.d and self.e == other.e
        )
"""
    + "".join(_ORDER_METHOD.format(name=n, op=op) for n, op in (("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")))
)

PLAIN = "class C:" + _PLAIN_BODY

SLOTS = "class C:\n    __slots__ = ('a', 'b', 'c', 'd', 'e')\n" + _PLAIN_BODY


PEERS = [
    Peer("boltwire", STRUCT, _boltwire),
    Peer("msgspec", STRUCT, _msgspec),
    Peer("structtype", STRUCTTYPE, _structtype),
    Peer("dataclasses", DATACLASS, _dataclasses),
    Peer("attrs", ATTRS, _attrs),
    Peer("pydantic", PYDANTIC, _pydantic, orderable=False),
    Peer("standard classes", PLAIN, dict),
    Peer("standard classes with __slots__", SLOTS, dict),
]
