"""JSON behaviours fixed for msgspec parity, each compared with msgspec on the same input."""

import datetime
import decimal
import enum
import subprocess
import sys
import textwrap
from typing import Annotated, Literal

import msgspec
import pytest

import boltwire

LIBS = [boltwire, msgspec]


def outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 (compared across the two libraries)
        return (type(e).__name__, str(e))


@pytest.mark.parametrize(
    "typ",
    [Literal[True], Literal[False], Literal[True, False], Literal[1, False], Literal[True, "yes", None],
     Literal[True] | bool, Literal[True] | Literal[False]],
)
@pytest.mark.parametrize("doc", [b"true", b"false", b"1", b'"yes"', b"null", b"0"])
def test_bool_literals_match_msgspec(typ, doc):
    ours = outcome(lambda: boltwire.json.decode(doc, type=typ))
    theirs = outcome(lambda: msgspec.json.decode(doc, type=typ))
    assert ours == theirs


@pytest.mark.parametrize("value", [True, False, 1, "yes"])
def test_bool_literals_convert_like_msgspec(value):
    for typ in (Literal[True], Literal[False], Literal[True, False]):
        assert outcome(lambda: boltwire.convert(value, typ)) == outcome(lambda: msgspec.convert(value, typ))


def test_literal_bool_lax_int():
    # lax mode: 0 / 1 read as bools, still limited to the Literal's values
    for doc in (b"0", b"1"):
        ours = outcome(lambda: boltwire.json.decode(doc, type=Literal[True], strict=False))
        theirs = outcome(lambda: msgspec.json.decode(doc, type=Literal[True], strict=False))
        assert ours == theirs


@pytest.mark.parametrize(
    "offset",
    [datetime.timedelta(0), datetime.timedelta(seconds=30), datetime.timedelta(seconds=-30),
     datetime.timedelta(days=1, seconds=-30), datetime.timedelta(days=-1, seconds=30),
     datetime.timedelta(minutes=19, seconds=32, microseconds=130000), datetime.timedelta(days=1, seconds=-29),
     datetime.timedelta(days=-1, seconds=29), datetime.timedelta(days=1, microseconds=-1),
     datetime.timedelta(days=-1, microseconds=1), datetime.timedelta(hours=5, minutes=30, seconds=31)],
)
def test_datetime_offsets_round_like_msgspec(offset):
    tz = datetime.timezone(offset)
    values = [datetime.datetime(1234, 12, 31, 14, 56, 27, 123456, tz), datetime.time(14, 56, 27, 123456, tz)]
    for v in values:
        assert boltwire.json.encode(v) == msgspec.json.encode(v)


def test_decimal_format_callable_matches_msgspec():
    d = decimal.Decimal("1.21")
    for fn in (lambda x: str(x.quantize(decimal.Decimal("0.000"))), lambda x: [str(x), str(x)],
               lambda x: {str(x): "v"}, lambda x: float(x), lambda x: int(x * 100)):
        assert boltwire.json.Encoder(decimal_format=fn).encode([d, {"k": d}]) == \
            msgspec.json.Encoder(decimal_format=fn).encode([d, {"k": d}])
    fn = lambda x: x  # noqa: E731
    assert boltwire.json.Encoder(decimal_format=fn).decimal_format is fn
    for bad in (lambda x: [x], lambda x: x.quantize(decimal.Decimal("0.0"))):
        for lib in LIBS:
            with pytest.raises(TypeError, match="callable returned a value containing a Decimal"):
                lib.json.Encoder(decimal_format=bad).encode(d)
    for bad in ("bad", 1, {}):
        for lib in LIBS:
            with pytest.raises(ValueError, match="must be 'string', 'number', or a callable"):
                lib.json.Encoder(decimal_format=bad)

    def boom(x):
        raise NotImplementedError

    with pytest.raises(NotImplementedError):
        boltwire.json.Encoder(decimal_format=boom).encode(d)


def test_enum_missing_hook_matches_msgspec():
    class Ex(enum.Enum):
        A = "a"
        B = "b"

        @classmethod
        def _missing_(cls, val):
            if val == "return-A":
                return cls.A
            if val == "error":
                raise ValueError("oh no!")
            return None

    class Num(enum.IntEnum):
        ONE = 1

        @classmethod
        def _missing_(cls, val):
            return cls.ONE if val == 100 else None

    for doc, typ in [(b'"a"', Ex), (b'"return-A"', Ex), (b'"error"', Ex), (b'"other"', Ex), (b"100", Num),
                     (b"3", Num)]:
        assert outcome(lambda: boltwire.json.decode(doc, type=typ)) == \
            outcome(lambda: msgspec.json.decode(doc, type=typ))


def test_unhashable_annotation_metadata_accepted():
    typ = Annotated[int, {"not", "hashable"}]
    for lib in LIBS:
        assert lib.json.Decoder(typ).decode(b"3") == 3
        assert lib.convert(3, typ) == 3


def test_dataclass_fields_raising_attribute_or_key_error_are_omitted():
    import dataclasses

    @dataclasses.dataclass
    class Row:
        first: int
        last: int

    class Missing(KeyError):
        pass

    row = Row(1, 3)
    del row.last
    for lib in LIBS:
        assert lib.json.encode(row) == b'{"first":1}'
        assert lib.to_builtins(row) == {"first": 1}

    class Prop:
        __dataclass_fields__ = Row.__dataclass_fields__

        def __init__(self):
            self.first = 1

        @property
        def last(self):
            raise Missing("x")

    assert boltwire.json.encode(Prop()) == msgspec.json.encode(Prop()) == b'{"first":1}'


@pytest.mark.parametrize("present", ["ab", "a", "b", ""])
def test_ducktyped_dataclass_fields_read_from_the_instance(present):
    # gel.Object's shape: the class says it is a dataclass with no fields, the instance carries the real table and
    # answers through __getattr__ (a KeyError leaves the field out). msgspec reads the instance's table.
    import dataclasses

    import boltwire.msgpack
    import msgspec.msgpack

    @dataclasses.dataclass
    class Ex:
        a: int
        b: int

    msg = {k: v for k, v in zip("ab", range(2)) if k in present}

    class Duck:
        __dataclass_fields__ = {}

        def __getattr__(self, key):
            return msg[key]

    x = Duck()
    x.__dataclass_fields__ = Ex.__dataclass_fields__
    assert boltwire.json.encode(x) == msgspec.json.encode(x) == msgspec.json.encode(msg)
    assert boltwire.msgpack.encode(x) == msgspec.msgpack.encode(x)
    assert boltwire.to_builtins(x) == msgspec.to_builtins(x) == msg
    assert boltwire.json.encode(Duck()) == msgspec.json.encode(Duck()) == b"{}"  # the class's table otherwise
    # the dataclass itself (its class dict holds __dataclass_fields__) is a type, not an instance
    for f in (boltwire.json.encode, boltwire.msgpack.encode, boltwire.to_builtins):
        with pytest.raises(TypeError, match="Encoding objects of type type"):
            f(Ex)


def test_failed_recursive_build_leaves_no_dangling_table():
    # A is half-built when B (its field) completes; A then fails. B must not stay cached with a borrowed pointer
    # into A's freed table: decoding B afterwards used to read freed memory. Run in a child: a crash is a failure.
    source = textwrap.dedent(
        """
        from typing import TypedDict, NotRequired
        import boltwire

        class A(TypedDict):
            child: NotRequired["B"]
            bad: list | tuple

        class B(TypedDict):
            parent: A

        for _ in range(3):
            for call in (lambda: boltwire.convert({"parent": {"child": {}}}, B),
                         lambda: boltwire.json.decode(b'{"parent": {"child": {}}}', type=B)):
                try:
                    call()
                except TypeError as e:
                    assert "array-like" in str(e)
                else:
                    raise AssertionError("an unsupported union was accepted")
        assert boltwire.convert({"x": 1}, dict[str, int]) == {"x": 1}
        print("ok")
        """
    )
    result = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_union_of_two_same_class_kinds_message_matches_msgspec():
    import dataclasses
    from typing import NamedTuple, TypedDict

    class A(NamedTuple):
        x: int

    class B(NamedTuple):
        y: int

    class C(TypedDict):
        x: int

    class D(TypedDict):
        y: int

    @dataclasses.dataclass
    class E:
        x: int

    @dataclasses.dataclass
    class F:
        y: int

    for typ in (A | B, C | D, E | F, dict[str, int] | dict[int, int], list[int] | tuple[int, ...]):
        ours = outcome(lambda: boltwire.json.Decoder(typ))
        theirs = outcome(lambda: msgspec.json.Decoder(typ))
        assert ours[0] == theirs[0] == "TypeError"
        assert ours[1].split(" - ")[0] == theirs[1].split(" - ")[0]


def test_generic_specialised_by_subclassing_decodes_bound_types():
    import dataclasses
    from typing import Generic, TypeVar

    T = TypeVar("T")

    def make(lib):
        class Box(lib.Struct, Generic[T]):
            item: T
            items: list[T] = []

        class IntBox(Box[int]):
            extra: str = ""

        @dataclasses.dataclass
        class DBox(Generic[T]):
            item: T

        @dataclasses.dataclass
        class IntDBox(DBox[int]):
            pass

        return IntBox, IntDBox

    doc_ok, doc_bad = b'{"item": 1, "items": [2]}', b'{"item": "x", "items": ["y"]}'
    for ours_t, theirs_t in zip(make(boltwire), make(msgspec)):
        for doc in (doc_ok, doc_bad):
            o = outcome(lambda: boltwire.json.decode(doc, type=ours_t))
            t = outcome(lambda: msgspec.json.decode(doc, type=theirs_t))
            assert o[0] == t[0]
            if o[0] != "ok":
                assert o[1] == t[1]


@pytest.mark.parametrize("typ", [str | Literal["a"], Literal["a"] | str, int | Literal[1, 2], Literal["a"] | bytes])
@pytest.mark.parametrize("doc", [b'"a"', b'"zz"', b"1", b"7"])
def test_literal_beside_its_base_type_matches_msgspec(typ, doc):
    ours = outcome(lambda: boltwire.json.decode(doc, type=typ))
    theirs = outcome(lambda: msgspec.json.decode(doc, type=typ))
    assert ours[0] == theirs[0]
    if ours[0] == "ok":
        assert ours == theirs


TYPEDDICT_SOURCE = """
{header}
from typing import Annotated, Generic, NotRequired, Required, TypedDict, TypeVar

L = TypeVar("L")

class Base(TypedDict):
    x: NotRequired[Annotated[int, {lib}.Meta(ge=0)]]

class Ex(Base, total=False):
    y: Required[int]
    z: int

class GBase(TypedDict, Generic[L]):
    b: L

class Sub(GBase[int]):
    n: str
"""


@pytest.mark.parametrize("future", [False, True])
def test_typeddict_required_qualifiers_and_generic_bases_match_msgspec(future):
    import sys
    import types

    mods = {}
    for lib in ("boltwire", "msgspec"):
        mod = types.ModuleType(f"td_{lib}_{future}")
        sys.modules[mod.__name__] = mod
        header = "from __future__ import annotations" if future else ""
        source = header + f"\nimport {lib}\n" + TYPEDDICT_SOURCE.format(header="", lib=lib)
        exec(source, mod.__dict__)
        mods[lib] = mod
    try:
        docs = [b'{"y": 1}', b'{"x": 1}', b'{"x": -1, "y": 1}', b'{"y": 1, "z": 2}']
        for doc in docs:
            assert outcome(lambda: boltwire.json.decode(doc, type=mods["boltwire"].Ex)) == \
                outcome(lambda: msgspec.json.decode(doc, type=mods["msgspec"].Ex))
        for doc in (b'{"b": 1, "n": "a"}', b'{"b": "no", "n": "a"}'):
            assert outcome(lambda: boltwire.json.decode(doc, type=mods["boltwire"].Sub)) == \
                outcome(lambda: msgspec.json.decode(doc, type=mods["msgspec"].Sub))
    finally:
        for mod in mods.values():
            del sys.modules[mod.__name__]


def _raw_cases(lib):
    class Custom:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def __eq__(self, other):
            return (self.a, self.b) == (other.a, other.b)

    default = lib.Raw()

    class Union3(lib.Struct):
        x: int | str | lib.Raw

    class WithCustom(lib.Struct):
        x: Custom | lib.Raw

    class WithDefault(lib.Struct):
        x: int
        y: lib.Raw = default

    def dec_hook(typ, obj):
        return typ(*obj)

    def raw_bytes(value):
        return bytes(value) if isinstance(value, lib.Raw) else value

    return [
        lambda: lib.json.decode(b'{"x": 1}', type=Union3).x,
        lambda: lib.json.decode(b'{"x": "a"}', type=Union3).x,
        lambda: vars(lib.json.decode(b'{"x": [1, 2]}', type=WithCustom, dec_hook=dec_hook).x),
        lambda: raw_bytes(lib.json.decode(b'{"x": 1, "y": [1, 2]}', type=WithDefault).y),
        lambda: lib.json.decode(b'{"x": 1}', type=WithDefault).y is default,
        lambda: raw_bytes(lib.json.decode(b"[1]", type=lib.Raw | None)),
        lambda: lib.json.decode(b"null", type=lib.Raw | None),
        lambda: raw_bytes(lib.convert(1, int | lib.Raw)),
    ]


@pytest.mark.parametrize("case", range(8))
def test_raw_beside_other_types_is_ignored_and_may_be_a_default(case):
    """msgspec: Raw in a union changes nothing (the other members decide), may sit beside a custom type, and a
    Raw instance is an acceptable field default."""
    assert outcome(_raw_cases(boltwire)[case]) == outcome(_raw_cases(msgspec)[case])


def test_invalid_dataclass_fields_is_a_runtime_error_like_msgspec():
    import dataclasses

    @dataclasses.dataclass
    class Ex:
        x: int

    Ex.__dataclass_fields__ = ()
    for enc in (boltwire.json.encode, boltwire.msgpack.encode, boltwire.to_builtins):
        with pytest.raises(RuntimeError, match="is not a dict"):
            enc(Ex(1))
    with pytest.raises(RuntimeError, match="is not a dict"):
        msgspec.json.encode(Ex(1))


def _attrs_decode_outcome(lib, make_class, payload):
    """Decodes `payload` into a fresh attrs class through json.decode, msgpack and convert, with the hooks' log."""
    log = []
    cls = make_class(log)
    out = []
    for run in (lambda: lib.json.decode(lib.json.encode(payload), type=cls),
                lambda: lib.msgpack.decode(lib.msgpack.encode(payload), type=cls),
                lambda: lib.convert(payload, cls)):
        log.clear()
        result = outcome(lambda: run().a)
        out.append((result, list(log)))
    return out


def test_attrs_pre_init_runs_first_and_its_errors_propagate():
    attrs = pytest.importorskip("attrs")

    def good(log):
        @attrs.define
        class Example:
            a: int

            def __attrs_pre_init__(self):
                log.append(("pre", hasattr(self, "a")))

            def __attrs_post_init__(self):
                log.append(("post", self.a))
        return Example

    def bad(log):
        @attrs.define
        class Example:
            a: int

            def __attrs_pre_init__(self):
                raise KeyError("Oh no!")
        return Example

    for make in (good, bad):
        ours, theirs = (_attrs_decode_outcome(lib, make, {"a": 1}) for lib in LIBS)
        assert ours == theirs
        if make is good:
            assert ours[0] == (("ok", 1), [("pre", False), ("post", 1)])
        else:
            assert ours[0][0][0] == "KeyError"


def test_attrs_factory_taking_self_is_not_implemented():
    attrs = pytest.importorskip("attrs")

    @attrs.define
    class Test:
        x: int = attrs.Factory(lambda self: 0, takes_self=True)

    for lib in LIBS:
        with pytest.raises(NotImplementedError):
            lib.json.Decoder(Test)


def test_generic_attrs_field_typed_by_type_argument():
    attrs = pytest.importorskip("attrs")
    from typing import Generic, TypeVar

    T = TypeVar("T")

    @attrs.define(auto_attribs=False)
    class G(Generic[T]):
        x = attrs.field(type=T)

    @attrs.define(auto_attribs=False)
    class H(G[str]):
        y = attrs.field(type=int)

    for tp, payload in [(G[int], {"x": 1}), (G[int], {"x": "s"}), (H, {"x": "s", "y": 1}), (H, {"x": 1, "y": 1})]:
        ours, theirs = (outcome(lambda: vars(lib.json.decode(lib.json.encode(payload), type=tp))) for lib in LIBS)
        assert ours == theirs


@pytest.mark.parametrize("key", ["1.5", "inf", "-inf", "NaN", "-nan", "Infinity", "INF", "+inf", "+1", "1e", "abc",
                                 "0", "-1.5e12"])
@pytest.mark.parametrize("tp", [dict[float, int], dict[int | float, int], dict[int, int]])
def test_float_dict_keys_read_nonfinite_words(key, tp):
    buf = ('{"%s": 1}' % key).encode()

    def plain(v):  # nan != nan: compare reprs
        return repr(v)
    ours, theirs = (outcome(lambda: plain(lib.json.decode(buf, type=tp))) for lib in LIBS)
    assert ours == theirs


def test_custom_dict_keys_go_through_the_hooks():
    class Custom:
        def __init__(self, value):
            self.value = value

        def __hash__(self):
            return hash(self.value)

        def __eq__(self, other):
            return self.value == other.value

    def dec_hook(typ, obj):
        if typ is Custom:
            return Custom(obj)
        raise NotImplementedError

    for lib in LIBS:
        assert lib.json.decode(b'{"a":1,"b":2}', type=dict[Custom, int], dec_hook=dec_hook) == {Custom("a"): 1,
                                                                                                 Custom("b"): 2}
        assert lib.json.encode({Custom("a"): 1, Custom(2): 2}, enc_hook=lambda x: x.value) == b'{"a":1,"2":2}'
        with pytest.raises(RecursionError):
            lib.json.encode({Custom("x"): 1}, enc_hook=lambda x: x)
    ours, theirs = (outcome(lambda: lib.json.decode(b'{"a":1}', type=dict[Custom, int])) for lib in LIBS)
    assert ours == theirs
    ours, theirs = (outcome(lambda: lib.json.encode({Custom("x"): 1}, enc_hook=lambda x: [1])) for lib in LIBS)
    assert ours == theirs


def test_msgpack_str_subclass_key_is_written_as_str():
    class mystr(str):
        pass

    for lib in LIBS:
        assert lib.msgpack.encode({mystr("test"): 1}) == lib.msgpack.encode({"test": 1})
    ours, theirs = (outcome(lambda: lib.msgpack.encode(mystr("v"))) for lib in LIBS)
    assert ours == theirs


def test_decoders_are_subscriptable_at_runtime():
    for lib in LIBS:
        for proto in (lib.json, lib.msgpack):
            dec = proto.Decoder[int](int)
            assert isinstance(dec, proto.Decoder)
            assert dec.decode(proto.encode(2)) == 2


META_CONFLICTS = [
    lambda M: Annotated[int, M(ge=1), M(ge=2)],
    lambda M: Annotated[int, M(gt=1), M(ge=2)],
    lambda M: Annotated[int, M(lt=2), M(le=1)],
    lambda M: Annotated[float, M(gt=1), M(ge=2)],
    lambda M: Annotated[float, M(gt=0), M(gt=1)],
    lambda M: Annotated[str, M(min_length=1), M(min_length=2)],
    lambda M: Annotated[str, M(pattern="a"), M(pattern="b")],
    lambda M: Annotated[list[int], M(max_length=1), M(max_length=2)],
    lambda M: Annotated[Annotated[int, M(ge=1)], M(ge=2)],
    lambda M: Annotated[int, M(gt=0), M(multiple_of=2), M(multiple_of=3)],
    lambda M: Annotated[int, M(ge=1), M(le=2)],
    lambda M: Annotated[int, M(title="a"), M(title="b")],
    lambda M: Annotated[int, M(gt=2**63 - 1)],
    lambda M: Annotated[int, M(lt=-(2**63))],
    lambda M: Annotated[int, M(ge=2**63)],
    lambda M: Annotated[int, M(le=2**63)],
]


@pytest.mark.parametrize("make", META_CONFLICTS)
def test_meta_conflicts_and_int64_bounds_refused_like_msgspec(make):
    def outcome(lib):
        try:
            lib.json.Decoder(make(lib.Meta))
        except Exception as e:
            return type(e), str(e).replace(lib.__name__ + ".", "")
        return None

    theirs = outcome(msgspec)
    assert outcome(boltwire) == theirs
    if theirs is not None:  # convert builds the same plan
        with pytest.raises(theirs[0]):
            boltwire.convert(1, make(boltwire.Meta))


INT_TAG_DOCS = [b'{"type": 18446744073709551615}', b'{"type": 18446744073709551616}', b'{"type": 1' + b"0" * 30 + b"}",
                b'{"type": -9223372036854775809}', b'{"type": 9223372036854775808}',
                b'{"type": 9223372036854775807}', b'{"type": -9223372036854775808}', b"[]", b'["Test"]']


@pytest.mark.parametrize("doc", INT_TAG_DOCS)
def test_int_tags_at_the_int64_edges_and_array_like_lengths_like_msgspec(doc):
    def outcome(lib):
        class T(lib.Struct, tag=123):
            pass

        class A(lib.Struct, tag=2**63 - 1):
            pass

        class B(lib.Struct, tag=-(2**63)):
            pass

        class C(lib.Struct, tag="Test", array_like=True):
            a: int
            b: int
            c: int = 0

        results = []
        for t in (T, B, A | B, C):
            try:
                results.append(type(lib.json.decode(doc, type=t)).__name__)
            except (lib.ValidationError, lib.DecodeError) as e:
                results.append(str(e))
        return results

    assert outcome(boltwire) == outcome(msgspec)


@pytest.mark.parametrize("fmt", [lambda d: str(d.quantize(decimal.Decimal("0.000"))), lambda d: {d: "v"}, lambda d: 1.5,
                                 lambda d: d])
def test_decimal_format_callable_applies_to_dict_keys_like_msgspec(fmt):
    doc = {"key": decimal.Decimal("1.3449"), decimal.Decimal("1.3449"): "value"}

    def outcome(lib):
        try:
            return lib.json.Encoder(decimal_format=fmt).encode(doc)
        except TypeError as e:
            assert "callable returned a value containing a Decimal" in str(e)
            return TypeError

    assert outcome(boltwire) == outcome(msgspec)


def test_float_hook_errors_become_validation_errors_like_msgspec():
    from typing import Any

    unicode_error = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "callback error")

    def value_error(v):
        raise ValueError("Oh no!")

    def decode_error(v):
        raise unicode_error

    def key_error(v):
        raise KeyError("k")

    def outcome(lib):
        class Ex(lib.Struct):
            a: float
            b: Any

        out = []
        for hook, doc, t in [(value_error, b"[1.5]", Any), (value_error, b'{"a": 1.5, "b": 2.5}', Ex),
                             (decode_error, b"1.5", Any), (key_error, b"1.5", Any)]:
            try:
                lib.json.Decoder(t, float_hook=hook).decode(doc)
            except Exception as e:
                out.append((type(e).__name__, str(e), repr(e.__cause__), e.__cause__ is unicode_error))
        return out

    assert outcome(boltwire) == outcome(msgspec)


@pytest.mark.parametrize("proto", ["json", "msgpack"])
@pytest.mark.parametrize("call", [
    lambda p: p.decode(),
    lambda p: p.decode(b"[]", list),
    lambda p: p.decode(b"[]", bad=1),
    lambda p: p.decode(b"[]", type=list, extra=1),
    lambda p: p.encode(),
    lambda p: p.encode(1, 2),
    lambda p: p.encode(1, bad=1),
    lambda p: p.encode(1, enc_hook=None, extra="x"),
])
def test_encode_decode_argument_errors_match_msgspec(proto, call):
    import boltwire.msgpack
    import msgspec.msgpack

    ours = outcome(lambda: call(getattr(boltwire, proto)))
    theirs = outcome(lambda: call(getattr(msgspec, proto)))
    assert ours == theirs
    assert ours[0] == "TypeError"


@pytest.mark.parametrize("proto", ["json", "msgpack"])
@pytest.mark.parametrize("target", [str, decimal.Decimal, dict])
def test_invalid_utf8_in_typed_strings_matches_msgspec(proto, target):
    import boltwire.msgpack
    import msgspec.msgpack

    buf = getattr(msgspec, proto).encode("MARKER").replace(b"MARKER", b"\xffXXXXX")
    if target is dict:
        buf = getattr(msgspec, proto).encode({"MARKER": 1}).replace(b"MARKER", b"\xffXXXXX")
    ours = outcome(lambda: getattr(boltwire, proto).decode(buf, type=target))
    theirs = outcome(lambda: getattr(msgspec, proto).decode(buf, type=target))
    assert ours == theirs
    assert "Invalid UTF-8" in ours[1]


@pytest.mark.parametrize("proto", ["json", "msgpack"])
def test_invalid_utf8_unknown_field_of_a_forbidding_struct_matches_msgspec(proto):
    import boltwire.msgpack
    import msgspec.msgpack

    def run(lib):
        class Ex(lib.Struct, forbid_unknown_fields=True):
            x: int = 0

        buf = getattr(lib, proto).encode({"MARKER": 1}).replace(b"MARKER", b"\xffXXXXX")
        return outcome(lambda: getattr(lib, proto).decode(buf, type=Ex))

    ours, theirs = run(boltwire), run(msgspec)
    assert ours == theirs
    assert "Invalid UTF-8" in ours[1]
