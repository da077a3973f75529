"""UNSET (omitted fields) and Raw (pre-encoded JSON written verbatim), compared with msgspec where it exists."""

import copy
import dataclasses
import gc
import pickle
import sys

import pytest

import boltwire
from boltwire import UNSET, Raw, UnsetType, json

msgspec = pytest.importorskip("msgspec")


# ---- UNSET ------------------------------------------------------------------------------------------------


def test_unset_singleton_behaviour():
    assert repr(UNSET) == "UNSET"
    assert str(UNSET) == "UNSET"
    assert not UNSET
    assert bool(UNSET) is False
    assert type(UNSET) is UnsetType
    assert UnsetType() is UNSET
    assert copy.copy(UNSET) is UNSET
    assert copy.deepcopy(UNSET) is UNSET
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(UNSET, protocol=proto)) is UNSET
    assert UNSET == UNSET and UNSET != None  # noqa: E711
    assert hash(UNSET) == hash(UNSET)


def test_unset_type_takes_no_arguments():
    with pytest.raises(TypeError, match="takes no arguments"):
        UnsetType(1)
    with pytest.raises(TypeError, match="takes no arguments"):
        UnsetType(x=1)


def test_unset_refcount_is_stable():
    before = sys.getrefcount(UNSET)
    for _ in range(1000):
        UnsetType()
        json.encode(Point(x=UNSET))
    assert sys.getrefcount(UNSET) == before


class Point(boltwire.Struct):
    x: object = UNSET
    y: int = 0


class MPoint(msgspec.Struct):
    x: object = msgspec.UNSET
    y: int = 0


class Omit(boltwire.Struct, omit_defaults=True):
    a: int = 1
    b: object = UNSET
    c: int = 2


class MOmit(msgspec.Struct, omit_defaults=True):
    a: int = 1
    b: object = msgspec.UNSET
    c: int = 2


class Tagged(boltwire.Struct, tag="t"):
    a: object = UNSET
    b: object = UNSET


class MTagged(msgspec.Struct, tag="t"):
    a: object = msgspec.UNSET
    b: object = msgspec.UNSET


def mirror(value):
    return msgspec.UNSET if value is UNSET else value


@pytest.mark.parametrize("order", [None, "deterministic", "sorted"])
@pytest.mark.parametrize("x", [UNSET, 1, None, "s"])
def test_struct_unset_fields_are_omitted(order, x):
    assert json.encode(Point(x=x), order=order) == msgspec.json.encode(MPoint(x=mirror(x)), order=order)
    assert json.encode(Point(x=x, y=UNSET), order=order) == msgspec.json.encode(
        MPoint(x=mirror(x), y=msgspec.UNSET), order=order
    )


@pytest.mark.parametrize("order", [None, "sorted"])
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"a": UNSET}, {"b": 5}, {"a": 2, "b": UNSET, "c": 3}, {"a": UNSET, "b": UNSET, "c": UNSET}],
)
def test_omit_defaults_with_unset(order, kwargs):
    mkwargs = {k: mirror(v) for k, v in kwargs.items()}
    assert json.encode(Omit(**kwargs), order=order) == msgspec.json.encode(MOmit(**mkwargs), order=order)


@pytest.mark.parametrize("kwargs", [{}, {"a": 1}, {"b": 2}, {"a": 1, "b": 2}])
def test_tagged_struct_with_unset(kwargs):
    mkwargs = {k: mirror(v) for k, v in kwargs.items()}
    assert json.encode(Tagged(**kwargs)) == msgspec.json.encode(MTagged(**mkwargs))
    assert json.encode([Tagged(**kwargs)], order="sorted") == msgspec.json.encode([MTagged(**mkwargs)], order="sorted")


def test_struct_all_fields_unset_gives_empty_object():
    assert json.encode(Point(x=UNSET, y=UNSET)) == b"{}"


@dataclasses.dataclass
class DC:
    a: int = 1
    b: object = UNSET
    c: object = UNSET


@pytest.mark.parametrize("order", [None, "sorted"])
def test_dataclass_unset_fields_are_omitted(order):
    assert json.encode(DC(), order=order) == b'{"a":1}'
    assert json.encode(DC(b=2), order=order) == b'{"a":1,"b":2}'
    assert json.encode(DC(a=UNSET), order=order) == b"{}"
    assert json.encode(DC(c=3, b=UNSET), order=order) == b'{"a":1,"c":3}'


@pytest.mark.parametrize("value", [UNSET, [UNSET], {"a": UNSET}, (1, UNSET)])
def test_unset_outside_a_field_is_unsupported(value):
    with pytest.raises(TypeError, match="Encoding objects of type boltwire.UnsetType is unsupported"):
        json.encode(value)


def test_array_like_with_unset_is_unsupported():
    class A(boltwire.Struct, array_like=True):
        a: int = 1
        b: object = UNSET

    with pytest.raises(TypeError, match="UnsetType is unsupported"):
        json.encode(A())
    assert json.encode(A(b=2)) == b"[1,2]"


def test_enc_hook_is_not_called_for_unset_fields():
    calls = []

    def hook(obj):
        calls.append(obj)
        return str(obj)

    assert json.encode(Point(x=UNSET), enc_hook=hook) == b'{"y":0}'
    assert calls == []


# ---- Raw ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "msg",
    [b"[1,2]", bytearray(b"[1,2]"), memoryview(b"[1,2]"), "[1,2]", memoryview(b"xx[1,2]yy")[2:7]],
    ids=["bytes", "bytearray", "memoryview", "str", "slice"],
)
def test_raw_from_buffers(msg):
    r = Raw(msg)
    assert len(r) == 5
    assert bytes(r) == b"[1,2]"
    assert memoryview(r).tobytes() == b"[1,2]"
    assert memoryview(r).readonly
    assert r == Raw(b"[1,2]")
    assert not (r != Raw(b"[1,2]"))
    assert r != Raw(b"[1,3]")
    assert json.encode({"a": r, "b": [r, 1]}) == b'{"a":[1,2],"b":[[1,2],1]}'
    c = r.copy()
    assert c == r and bytes(c) == b"[1,2]"


def test_raw_str_non_ascii_is_utf8():
    r = Raw('"é"')
    assert bytes(r) == '"é"'.encode()
    assert json.encode([r]) == '["é"]'.encode()


def test_raw_empty_and_errors():
    assert len(Raw()) == 0 and bytes(Raw()) == b""
    assert json.encode(Raw()) == b""
    with pytest.raises(TypeError):
        Raw(1)
    with pytest.raises(TypeError, match="no keyword arguments"):
        Raw(msg=b"1")
    with pytest.raises(TypeError):
        Raw(b"1", b"2")
    with pytest.raises(TypeError, match="unhashable"):
        hash(Raw(b"1"))
    with pytest.raises(UnicodeEncodeError):
        Raw("\ud800")


def test_raw_comparisons_with_other_types():
    assert (Raw(b"1") == b"1") is False
    assert (Raw(b"1") != 1) is True
    with pytest.raises(TypeError):
        Raw(b"1") < Raw(b"2")


def test_raw_copy_owns_bytes():
    r = Raw(b"[1]")
    assert r.copy() is r  # already owns a bytes object
    buf = bytearray(b"[2]")
    view = Raw(memoryview(buf))
    owned = view.copy()
    assert owned is not view and owned == view
    del view
    buf.extend(b"more")  # the view was released, so the bytearray can resize; the copy is unaffected
    assert bytes(owned) == b"[2]"


def test_raw_pickle():
    for msg in [b"[1,2]", memoryview(b"{}")]:
        r = Raw(msg)
        assert pickle.loads(pickle.dumps(r)) == r


def test_raw_matches_msgspec():
    docs = [b'{"a":1}', b"[]", b'"x"', b"null", b"1.5"]
    value = [Raw(d) for d in docs] + [{"k": Raw(docs[0])}]
    expected = [msgspec.Raw(d) for d in docs] + [{"k": msgspec.Raw(docs[0])}]
    assert json.encode(value) == msgspec.json.encode(expected)


def test_raw_struct_field():
    assert json.encode(Point(x=Raw(b"[true]"))) == b'{"x":[true],"y":0}'


def test_raw_no_leak():
    payload = b"[1,2,3]" * 10
    gc.collect()
    before = sys.getrefcount(payload)
    for _ in range(2000):
        r = Raw(payload)
        json.encode([r])
        r.copy()
        pickle.loads(pickle.dumps(r))
    del r
    assert sys.getrefcount(payload) == before


@pytest.mark.parametrize("fmt", ["json", "msgpack"])
def test_decoded_raw_is_a_view_like_msgspec(fmt):
    import boltwire
    import boltwire.msgpack
    import msgspec.msgpack

    def run(lib):
        codec = getattr(lib, fmt)
        doc = codec.encode({"x": [1, 2]})
        whole = codec.decode(doc, type=lib.Raw)
        inner = codec.decode(doc, type=dict[str, lib.Raw])["x"]
        copied = whole.copy()
        # a view of the document: copy() makes a new, owning Raw, whose copy() is itself
        return bytes(whole) == doc, copied is not whole, copied.copy() is copied, bytes(inner), whole.__reduce__()[1]

    ours, theirs = run(boltwire), run(msgspec)
    assert ours == theirs


def test_raw_from_str_pickles_as_that_str_and_decoding_str_holds_it():
    import msgspec

    text = "test"
    for lib in (msgspec, __import__("boltwire")):
        assert lib.Raw(text).__reduce__()[1][0] is text
    msg = '{"x": 1}'
    before = sys.getrefcount(msg)
    r = json.decode(msg, type=Raw)
    assert bytes(r) == b'{"x": 1}' and sys.getrefcount(msg) == before + 1
    del r
    assert sys.getrefcount(msg) == before
    raw = bytearray(b"[1]")  # a mutable document: the Raw owns a copy
    r = json.decode(raw, type=Raw)
    raw[1:2] = b"2"
    assert bytes(r) == b"[1]"


def test_convert_takes_a_raw_for_a_raw_field_like_msgspec():
    import boltwire
    import msgspec

    for lib in (boltwire, msgspec):
        class Ex(lib.Struct):
            x: lib.Raw

        r = lib.Raw(b"123")
        assert lib.convert({"x": r}, Ex).x is r
        with pytest.raises(lib.ValidationError, match="Expected `raw`, got `int`"):
            lib.convert({"x": 1}, Ex)
