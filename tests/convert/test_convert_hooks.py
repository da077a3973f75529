"""convert() with dec_hook for custom types and builtin_types passthrough, compared with msgspec.convert; argument
handling of convert() itself."""

import datetime
import decimal
import uuid
from typing import Any, Dict, List, Optional, Union

import pytest

import boltwire
import msgspec
from _convert_diff import both, factory


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __eq__(self, other):
        return type(other) is Money and other.cents == self.cents

    def __repr__(self):
        return f"Money({self.cents})"


class Opaque:
    pass


def money_hook(tp, obj):
    if tp is Money:
        if isinstance(obj, int):
            return Money(obj)
        if isinstance(obj, str):
            return Money(int(obj))  # ValueError on junk
        raise TypeError(f"cannot make Money from {type(obj).__name__}")
    return NotImplemented


def raising_hook(tp, obj):
    raise RuntimeError("hook exploded")


def notimpl_hook(tp, obj):
    return NotImplemented


def identity_hook(tp, obj):
    return obj


@factory
def Wallet(lib):
    class Wallet(lib.Struct):
        balance: Money
        history: List[Money] = []
        by_name: Dict[str, Money] = {}
        maybe: Optional[Money] = None

    return Wallet


HOOK_CASES = [
    (Money, 5, money_hook),
    (Money, "7", money_hook),
    (Money, "junk", money_hook),
    (Money, 1.5, money_hook),
    (Money, None, money_hook),
    (Money, Money(3), money_hook),
    (Money, 5, raising_hook),
    (Money, 5, notimpl_hook),
    (Money, 5, identity_hook),
    (Money, 5, None),
    (Money, Money(3), None),
    (List[Money], [1, "2"], money_hook),
    (List[Money], [1, "x"], money_hook),
    (Dict[str, Money], {"a": 1, "b": [1]}, money_hook),
    (Optional[Money], None, money_hook),
    (Optional[Money], 3, money_hook),
    (Union[int, Money], 3, money_hook),
    (Union[int, Money], "3", money_hook),
    (Opaque, 1, money_hook),
    (Wallet, {"balance": 1}, money_hook),
    (Wallet, {"balance": 1, "history": [2, "3"], "by_name": {"k": 4}, "maybe": 5}, money_hook),
    (Wallet, {"balance": 1, "history": [2, "bad"]}, money_hook),
    (Wallet, {"balance": 1, "by_name": {"k": 1.5}}, money_hook),
    (Wallet, {"balance": 1}, None),
    (Wallet, {"balance": 1}, raising_hook),
    (int, "1", money_hook),
    (uuid.UUID, 1, identity_hook),
    (datetime.datetime, 1, identity_hook),
]


@pytest.mark.parametrize("make,value,hook", HOOK_CASES, ids=[str(i) for i in range(len(HOOK_CASES))])
def test_dec_hook(make, value, hook):
    got, want = both(make, value, dec_hook=hook)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"


def test_dec_hook_receives_type_and_object():
    calls = []

    def hook(tp, obj):
        calls.append((tp, obj))
        return Money(obj)

    assert boltwire.convert({"a": 3}, Dict[str, Money], dec_hook=hook) == {"a": Money(3)}
    assert calls == [(Money, 3)]


def test_dec_hook_not_callable():
    got, want = both(Money, 1, dec_hook=1)
    assert got == want


BUILTIN_CASES = [
    (bytes, b"x", (bytes,)),
    (bytes, bytearray(b"x"), (bytearray,)),
    (bytearray, bytearray(b"x"), (bytearray,)),
    (bytes, "eA==", (bytes,)),
    (datetime.datetime, datetime.datetime(2020, 1, 1), (datetime.datetime,)),
    (datetime.datetime, "2020-01-01T00:00:00", (datetime.datetime,)),
    (datetime.date, datetime.date(2020, 1, 1), (datetime.date,)),
    (datetime.time, datetime.time(1), (datetime.time,)),
    (datetime.timedelta, datetime.timedelta(1), (datetime.timedelta,)),
    (uuid.UUID, uuid.UUID(int=1), (uuid.UUID,)),
    (uuid.UUID, str(uuid.UUID(int=1)), (uuid.UUID,)),
    (decimal.Decimal, decimal.Decimal("1.5"), (decimal.Decimal,)),
    (decimal.Decimal, "1.5", (decimal.Decimal,)),
    (str, b"x", (bytes,)),
    (int, datetime.datetime(2020, 1, 1), (datetime.datetime,)),
    (Any, b"x", (bytes,)),
    (List[bytes], [b"x", "eA=="], (bytes,)),
    (Dict[str, datetime.date], {"a": datetime.date(2020, 1, 1), "b": "2020-01-02"}, (datetime.date,)),
    (bytes, b"x", (bytes, bytearray, memoryview, datetime.datetime, datetime.date, datetime.time,
                   datetime.timedelta, uuid.UUID, decimal.Decimal)),
    (bytes, b"x", (int,)),
    (bytes, b"x", (Opaque,)),
    (bytes, b"x", ()),
    (bytes, b"x", None),
    (bytes, b"x", [bytes]),
]


@pytest.mark.parametrize("make,value,types", BUILTIN_CASES, ids=[str(i) for i in range(len(BUILTIN_CASES))])
def test_builtin_types(make, value, types):
    got, want = both(make, value, builtin_types=types)
    assert got == want, f"boltwire={got!r}\nmsgspec ={want!r}"


@pytest.mark.parametrize(
    "args,kwargs",
    [
        ((), {}),
        ((1,), {}),
        ((1, int, 2), {}),
        ((1,), {"type": int}),
        ((), {"obj": 1, "type": int}),
        ((1, int), {"bogus": True}),
        ((1, int), {"strict": "yes"}),
        ((1, int), {"builtin_types": 5}),
        ((1, int), {"builtin_types": (5,)}),
        ((1, 5), {}),
        ((1, "int"), {}),
        ((1, List["Undefined"]), {}),
    ],
)
def test_argument_handling(args, kwargs):
    def run(lib):
        try:
            return ("ok", lib.convert(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001
            return ("error", type(exc).__name__)

    # Exception *types* must agree; argument-parsing messages name the function, so only types are compared.
    assert run(boltwire) == run(msgspec)
