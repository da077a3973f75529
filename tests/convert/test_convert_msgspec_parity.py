"""convert() behaviours fixed for msgspec parity, each compared with msgspec on the same input."""

import builtins
import datetime
from typing import Annotated, Literal

import msgspec
import pytest

import boltwire
import boltwire.msgpack


def outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 (compared across the two libraries)
        return (type(e).__name__, str(e))


def same(fn_of_lib):
    ours, theirs = outcome(lambda: fn_of_lib(boltwire)), outcome(lambda: fn_of_lib(msgspec))
    assert ours == theirs
    return ours


@pytest.mark.parametrize("seconds", [-86399999999999, -86399999913601, 86399999999999.5, 1e300, -1e20, 123.456])
def test_lax_timedelta_out_of_range_is_a_validation_error(seconds):
    result = same(lambda lib: lib.convert(seconds, datetime.timedelta, strict=False))
    assert result[0] in ("ok", "ValidationError")  # never OverflowError
    same(lambda lib: lib.json.decode(str(seconds).encode(), type=datetime.timedelta, strict=False))


@pytest.mark.parametrize("text", ["P-1000000000D", "P999999999DT86399.999999S", "P1000000000D"])
def test_iso_duration_range(text):
    same(lambda lib: lib.convert(text, datetime.timedelta))


@pytest.mark.parametrize("value", ["null", "Null", "nUll", "NULL", "xull", "nul"])
def test_lax_null_is_case_insensitive(value):
    same(lambda lib: lib.convert(value, None, strict=False))


@pytest.mark.parametrize("value", [123, -123, 123.456, "123.456"])
def test_lax_timestamp_checks_tz_constraint(value):
    for tz in (False, True):
        typ = Annotated[datetime.datetime, boltwire.Meta(tz=tz)]
        mtyp = Annotated[datetime.datetime, msgspec.Meta(tz=tz)]
        ours = outcome(lambda: boltwire.convert(value, typ, strict=False))
        theirs = outcome(lambda: msgspec.convert(value, mtyp, strict=False))
        assert ours == theirs


@pytest.mark.parametrize("value", ["true", "false", "1", 0, 1, True, False])
def test_bool_literals_take_no_lax_values(value):
    for typ in (Literal[True], Literal[False], bool):
        same(lambda lib: lib.convert(value, typ, strict=False))


def test_unhashable_converted_dict_key_is_a_validation_error():
    for dictcls in (dict,):
        for lib in (boltwire, msgspec):
            with pytest.raises(lib.ValidationError, match=r"Expected a hashable value, got `list` - at `key` in `\$`"):
                lib.convert(dictcls({(1, 2): 0}), dict[list[int], int])

    def nested(lib):
        class Ex(lib.Struct):
            values: dict[list[int], int]

        return lib.convert({"values": {(1, 2): 0}}, Ex)

    with pytest.raises(boltwire.ValidationError) as ours:
        nested(boltwire)
    with pytest.raises(msgspec.ValidationError) as theirs:
        nested(msgspec)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("value", [1, "a", [1, 2], {"a": 1}])
def test_raw_field_mismatch_names_raw(value):
    def run(lib):
        class Ex(lib.Struct):
            x: lib.Raw

        try:
            lib.convert({"x": value}, type=Ex)
        except lib.ValidationError as e:
            return str(e)

    assert run(boltwire) == run(msgspec)
    assert run(boltwire).startswith("Expected `raw`, got")


@pytest.mark.parametrize("kw", ["gt", "ge", "lt", "le", "multiple_of"])
def test_meta_bound_that_no_float_holds_is_refused(kw):
    for lib in (boltwire, msgspec):
        with pytest.raises(ValueError, match="out of range"):
            lib.Meta(**{kw: 10**400})


@pytest.mark.parametrize("base", ["ValidationError", "DecodeError", "ValueError", "TypeError"])
def test_hook_errors_wrap_like_msgspec(base):
    """A TypeError / ValueError from dec_hook becomes a ValidationError with the path; a DecodeError or
    ValidationError (or a subclass) the hook raises propagates as it is."""
    def run(lib):
        error_cls = type("MyError", (getattr(lib, base, None) or getattr(builtins, base),), {})

        class Foo:
            pass

        def dec_hook(tp, val):
            raise error_cls("custom message")

        out = []
        for fn in (lambda: lib.json.Decoder(type=list[Foo], dec_hook=dec_hook).decode(b"[[]]"),
                   lambda: lib.msgpack.Decoder(type=list[Foo], dec_hook=dec_hook).decode(lib.msgpack.encode([[]])),
                   lambda: lib.convert([[]], list[Foo], dec_hook=dec_hook)):
            try:
                fn()
            except Exception as e:  # noqa: BLE001
                out.append((type(e).__name__, str(e)))
        return out

    assert run(boltwire) == run(msgspec)


@pytest.mark.parametrize("strict", [True, False])
def test_int_past_float_range_is_a_validation_error(strict):
    for tp, value in ((float, 10**400), (dict[str, float], {"x": 10**400})):
        ours, theirs = outcome(lambda: boltwire.convert(value, tp, strict=strict)), outcome(
            lambda: msgspec.convert(value, tp, strict=strict))
        assert ours == theirs
        assert "Number out of range" in ours[1]


def test_hook_error_wrapped_by_the_first_validation_error_of_a_process():
    """The first ValidationError of a fresh process may come from a hook's TypeError (the error class is looked
    up lazily then): it must still be a ValidationError with the cause chained, never a SystemError."""
    import subprocess
    import sys

    code = (
        "import boltwire, boltwire.json\n"
        "class C: pass\n"
        "def hook(t, v): raise TypeError('Oh no!')\n"
        "try:\n"
        "    boltwire.json.decode(b'[1]', type=list[C], dec_hook=hook)\n"
        "except boltwire.ValidationError as e:\n"
        "    assert type(e.__cause__) is TypeError and e.__cause__ is e.__context__, e\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "Oh no! - at `$[0]`"


class _ItemsOnly:
    """A mapping-like object (collections.abc.Mapping) with attributes named like its keys' neighbours."""

    def __init__(self, data, fail=None):
        self._data, self._fail = data, fail

    def __getitem__(self, key):
        if self._fail is not None:
            raise self._fail
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)


__import__("collections.abc").abc.Mapping.register(_ItemsOnly)


def test_typeddict_from_a_mapping_reads_items_only():
    from typing import NotRequired, TypedDict

    class Inner(TypedDict):
        b: int

    class Ex(TypedDict):
        keys: int
        items: NotRequired[str]
        inner: NotRequired[Inner]

    for obj in [_ItemsOnly({"keys": 1}), _ItemsOnly({"keys": 1, "items": "x", "extra": 0}), _ItemsOnly({"items": "x"}),
                _ItemsOnly({"keys": "1"}), _ItemsOnly({"keys": 1, "inner": _ItemsOnly({"b": 2})}),
                _ItemsOnly({"keys": 1, "inner": _ItemsOnly({"b": "2"})}), _ItemsOnly({}, fail=ZeroDivisionError()),
                _ItemsOnly({}, fail=KeyError("keys"))]:
        result = same(lambda lib: lib.convert(obj, Ex))
        assert result[0] != "ValidationError" or "Expected `object`" not in result[1]


@pytest.mark.parametrize("tex", [False, True])
def test_typeddict_with_contradictory_required_keys_is_refused(tex):
    import typing

    mod = pytest.importorskip("typing_extensions") if tex else typing

    class Ex(mod.TypedDict, total=False):
        c: str

    Ex.__annotations__ = {"c": "str"}
    Ex.__required_keys__ = frozenset({"a", "b"})
    ours, theirs = (outcome(lambda: lib.json.Decoder(Ex)) for lib in (boltwire, msgspec))
    assert ours[0] == theirs[0] == "RuntimeError"


def test_hand_built_alias_of_a_non_generic_class_is_refused():
    import dataclasses
    import types
    from typing import Generic, NamedTuple, TypedDict, TypeVar

    T = TypeVar("T")

    class TD(TypedDict):
        a: int

    class NT(NamedTuple):
        a: int

    @dataclasses.dataclass
    class DC:
        a: int

    @dataclasses.dataclass
    class GDC(Generic[T]):
        a: T

    for cls in (TD, NT, DC):
        ours, theirs = (outcome(lambda: lib.json.Decoder(types.GenericAlias(cls, (int,)))) for lib in (boltwire, msgspec))
        assert ours[0] == theirs[0] == "TypeError" and "not a generic type" in ours[1]
    for lib in (boltwire, msgspec):
        with pytest.raises(TypeError):
            lib.json.Decoder(types.GenericAlias(GDC, (int, str)))
        assert lib.json.decode(b'{"a": 1}', type=types.GenericAlias(GDC, (int,))) == GDC(1)

    def struct_case(lib):
        class Plain(lib.Struct):
            x: int
        return lib.json.Decoder(types.GenericAlias(Plain, (int,)))

    ours, theirs = outcome(lambda: struct_case(boltwire)), outcome(lambda: struct_case(msgspec))
    assert ours[0] == theirs[0] == "TypeError"


@pytest.mark.parametrize("base", ["EnumMeta", "EnumType"])
def test_enum_with_a_custom_metaclass(base):
    import enum

    class ChoicesMeta(getattr(enum, base)):
        pass

    class Test(enum.Enum, metaclass=ChoicesMeta):
        A = "apple"
        B = "banana"

    assert boltwire.convert(Test.A, Test) is Test.A
    for value in [Test.B, "apple", "ceeee", 1]:
        same(lambda lib: lib.convert(value, Test))


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_cyclic_input_hits_the_recursion_limit(kind):
    import sys

    typ = int
    for _ in range(50):
        typ = list[typ] if kind == "list" else dict[str, typ]
    cyclic = [] if kind == "list" else {}
    if kind == "list":
        cyclic.append(cyclic)
    else:
        cyclic["x"] = cyclic

    def depth():
        frame, n = sys._getframe(), 0
        while frame is not None:
            frame, n = frame.f_back, n + 1
        return n

    # Up to 3.11 the interpreter's recursion limit also bounds C recursion, so 10 frames of headroom stop both
    # libraries inside the 50-deep type. From 3.12 C code has its own, fixed limit: both walk the 50 levels and
    # reject the innermost item as not an int. Either way the two libraries must agree.
    outcomes = []
    for lib in (boltwire, msgspec):
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(depth() + 10)
        try:  # plain try: pytest.raises would itself run out of the 10 frames
            lib.convert(cyclic, typ)
            outcome = "no error"
        except (RecursionError, lib.ValidationError) as exc:
            outcome = type(exc).__name__
        finally:
            sys.setrecursionlimit(old)
        outcomes.append(outcome)
    expected = "RecursionError" if sys.version_info < (3, 12) else "ValidationError"
    assert outcomes == [expected, expected]
