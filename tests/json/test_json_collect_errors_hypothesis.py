"""Property: for any input, collect_errors=True agrees with fail-fast decoding. A valid document decodes to
the same value; an invalid one raises the same exception class, and the first collected error (its detail and
its line of str(e)) is the fail-fast error. Runs through json.decode (on well-formed documents and on byte
mutations of them) and convert."""

import json as stdlib_json
from typing import Annotated, Any, Optional, Union

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boltwire as bw
from boltwire import json as bj


class Leaf(bw.Struct):
    name: str
    score: Annotated[int, bw.Meta(ge=0, le=100)] = 0


class Cat(bw.Struct, tag="cat"):
    lives: int = 9


class Dog(bw.Struct, tag="dog"):
    good: bool = True


class Pair(bw.Struct, array_like=True):
    a: int
    b: str = ""


class Doc(bw.Struct, forbid_unknown_fields=True):
    id: int
    leaves: list[Leaf] = []
    pets: list[Union[Cat, Dog]] = []
    pairs: list[Pair] = []
    table: dict[str, float] = {}
    keyed: dict[int, str] = {}
    fixed: tuple[int, str] = (0, "")
    note: Optional[str] = None
    anything: Any = None


scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(max_size=5), st.sampled_from(["cat", "dog", "cow", "type", "name", "id"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(st.text(max_size=4), inner, max_size=4)),
                           max_leaves=12)
leaf = st.fixed_dictionaries({"name": st.one_of(st.text(max_size=3), json_values)},
                             optional={"score": st.one_of(st.integers(-5, 105), json_values)})
pet = st.fixed_dictionaries({"type": st.one_of(st.sampled_from(["cat", "dog", "cow"]), json_values)},
                            optional={"lives": json_values, "good": st.one_of(st.booleans(), json_values)})
pair = st.one_of(st.lists(st.one_of(st.integers(0, 9), st.text(max_size=2), json_values), max_size=3), json_values)
document = st.fixed_dictionaries(
    {"id": st.one_of(st.integers(0, 10), json_values)},
    optional={
        "leaves": st.one_of(st.lists(leaf, max_size=4), json_values),
        "pets": st.one_of(st.lists(pet, max_size=3), json_values),
        "pairs": st.lists(pair, max_size=3),
        "table": st.dictionaries(st.text(max_size=3), st.one_of(st.floats(allow_nan=False, allow_infinity=False), json_values), max_size=3),
        "keyed": st.dictionaries(st.one_of(st.integers(0, 99).map(str), st.text(max_size=3)), json_values, max_size=3),
        "fixed": st.lists(json_values, max_size=3),
        "note": json_values,
        "anything": json_values,
        "unknown": json_values,
    })


def outcome(fn):
    try:
        return "ok", fn()
    except bw.DecodeError as e:
        return "error", e


def assert_agrees(fail_fast, collect):
    kind, ff = outcome(fail_fast)
    ckind, col = outcome(collect)
    assert ckind == kind
    if kind == "ok":
        assert col == ff
        return
    assert type(col) is type(ff)
    # str() is one message per line; a message may itself hold a newline (an unknown key with "\n" in it), so the
    # first message is a prefix, not the first line.
    assert str(col) == str(ff) or str(col).startswith(str(ff) + "\n")
    if isinstance(ff, bw.ValidationError):
        assert col.errors()[0] == ff.errors()[0]
        assert str(col).count("\n") >= len(col.errors()) - 1


def mutate(data, buf, byte_strategy):
    """`buf` with 1-3 bytes deleted, inserted (drawn from `byte_strategy`) or replaced, as drawn from `data`."""
    buf = bytearray(buf)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(buf)))
        op = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        byte = data.draw(byte_strategy)
        if op == "delete" and at < len(buf):
            del buf[at]
        elif op == "insert":
            buf.insert(at, byte)
        elif at < len(buf):
            buf[at] = byte
    return bytes(buf)


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(document)
def test_json_first_collected_error_is_the_fail_fast_error(doc):
    buf = stdlib_json.dumps(doc).encode()
    assert_agrees(lambda: bj.decode(buf, type=Doc), lambda: bj.decode(buf, type=Doc, collect_errors=True))


@SETTINGS
@given(document, st.data())
def test_json_mutated_bytes_agree(doc, data):
    data_bytes = mutate(data, stdlib_json.dumps(doc).encode(), st.sampled_from(b'{}[],:"0 xn\\'))
    assert_agrees(lambda: bj.decode(data_bytes, type=Doc), lambda: bj.decode(data_bytes, type=Doc, collect_errors=True))


@SETTINGS
@given(document)
def test_convert_first_collected_error_is_the_fail_fast_error(doc):
    assert_agrees(lambda: bw.convert(doc, Doc), lambda: bw.convert(doc, Doc, collect_errors=True))


@SETTINGS
@given(document, st.integers(1, 5))
def test_max_errors_keeps_a_prefix(doc, cap):
    buf = stdlib_json.dumps(doc).encode()
    kind, full = outcome(lambda: bj.decode(buf, type=Doc, collect_errors=True))
    if kind == "ok" or not isinstance(full, bw.ValidationError):
        return
    _, capped = outcome(lambda: bj.decode(buf, type=Doc, collect_errors=True, max_errors=cap))
    assert capped.errors() == full.errors()[:cap]
