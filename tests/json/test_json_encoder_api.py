"""The Encoder type and encode(): options, encode_into, encode_lines, enc_hook, errors, recursion."""

import decimal

import msgspec
import pytest

import boltwire
from boltwire import json


def test_encoder_attributes():
    enc = json.Encoder()
    assert (enc.enc_hook, enc.decimal_format, enc.uuid_format, enc.order) == (None, "string", "canonical", None)
    hook = lambda o: str(o)  # noqa: E731
    enc = json.Encoder(enc_hook=hook, decimal_format="number", uuid_format="hex", order="sorted")
    assert (enc.enc_hook, enc.decimal_format, enc.uuid_format, enc.order) == (hook, "number", "hex", "sorted")


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"order": "x"}, ValueError, "`order` must be one of"),
        ({"uuid_format": "x"}, ValueError, "`uuid_format` must be 'canonical' or 'hex'"),
        ({"decimal_format": "x"}, ValueError, "`decimal_format` must be"),
        ({"enc_hook": 1}, TypeError, "enc_hook must be callable"),
        ({"bogus": 1}, TypeError, "bogus"),
    ],
)
def test_encoder_bad_options(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        json.Encoder(**kwargs)


def test_encode_bad_arguments():
    with pytest.raises(TypeError):
        json.encode()
    with pytest.raises(TypeError):
        json.encode(1, 2)
    with pytest.raises(TypeError, match="Extra keyword arguments provided"):
        json.encode(1, bogus=1)
    with pytest.raises(TypeError, match="enc_hook must be callable"):
        json.encode(1, enc_hook=3)


def test_encode_into_offsets():
    enc = json.Encoder()
    for offset, expected in [(None, b"[1]"), (0, b"[1]"), (1, b"x[1]"), (3, b"xyz[1]"), (-1, b"xyz[1]"),
                             (5, b"xyz\x00\x00[1]")]:
        buf = bytearray(b"xyz")
        if offset is None:
            assert enc.encode_into([1], buf) is None
        else:
            enc.encode_into([1], buf, offset)
        assert buf == expected, offset
        ms = bytearray(b"xyz")
        msgspec.json.Encoder().encode_into([1], ms, 0 if offset is None else offset)
        assert buf == ms


def test_encode_into_large_and_reuse():
    enc = json.Encoder()
    buf = bytearray()
    doc = {"k": ["v" * 100] * 1000}
    enc.encode_into(doc, buf)
    assert bytes(buf) == msgspec.json.encode(doc)
    enc.encode_into(1, buf)
    assert buf == b"1"
    enc.encode_into(2, buf, -1)
    assert buf == b"12"


def test_encode_into_errors():
    enc = json.Encoder()
    with pytest.raises(TypeError, match="bytearray"):
        enc.encode_into(1, b"")
    with pytest.raises(ValueError, match="offset"):
        enc.encode_into(1, bytearray(), -2)
    buf, theirs = bytearray(b"keep"), bytearray(b"keep")
    with pytest.raises(TypeError, match="unsupported"):
        enc.encode_into([1, 2, object()], buf, -1)
    with pytest.raises(TypeError):
        msgspec.json.Encoder().encode_into([1, 2, object()], theirs, -1)
    assert buf == theirs == b"keep[1,2,"  # the array ends where the output stopped (msgspec)


@pytest.mark.parametrize("lib", ["json", "msgpack"])
def test_encode_into_keeps_capacity_and_hides_stale_bytes(lib):
    """Like msgspec: an in-bounds offset never shrinks the buffer's storage, and an error after the buffer was
    extended shows zeros up to the offset, never what the reused storage held before."""
    import boltwire.msgpack

    outcomes = []
    for mod in ((json, msgspec.json) if lib == "json" else (boltwire.msgpack, msgspec.msgpack)):
        enc = mod.Encoder()
        buf = bytearray(1000)
        capacity = buf.__sizeof__()
        enc.encode_into({"key": "value"}, buf, 4)
        kept = buf.__sizeof__() == capacity
        first = bytes(buf)
        stale = bytearray(b"Z" * 256)
        enc.encode_into(0, stale)
        with pytest.raises(TypeError):
            enc.encode_into([1, object()], stale, 20)
        outcomes.append((kept, first, bytes(stale)))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] and b"Z" not in outcomes[0][2]


def test_encode_lines():
    enc = json.Encoder()
    assert enc.encode_lines([1, {"a": 2}, "x"]) == b'1\n{"a":2}\n"x"\n'
    assert enc.encode_lines([]) == b""
    assert enc.encode_lines(iter([None, [1]])) == b"null\n[1]\n"
    assert enc.encode_lines((i for i in range(3))) == b"0\n1\n2\n"
    assert enc.encode_lines(range(3)) == msgspec.json.Encoder().encode_lines(range(3))
    with pytest.raises(TypeError):
        enc.encode_lines(5)
    with pytest.raises(TypeError, match="unsupported"):
        enc.encode_lines([1, object()])


def test_encoder_encode_matches_function():
    enc = json.Encoder()
    for value in [1, [1, 2], {"a": "b"}, "x" * 10000, [], None]:
        assert enc.encode(value) == json.encode(value)


class Thing:
    pass


def test_unsupported_type_message():
    with pytest.raises(TypeError, match="Encoding objects of type Thing is unsupported"):
        json.encode(Thing())
    for value in (object(), 1j, range(3), type):
        with pytest.raises(TypeError, match="is unsupported"):
            json.encode([value])
    # msgspec does not take str / int / float subclasses as values either.
    for value in (type("S", (str,), {})("a"), type("I", (int,), {})(1), type("F", (float,), {})(1.0)):
        with pytest.raises(TypeError, match="is unsupported"):
            json.encode(value)


def test_enc_hook():
    def hook(obj):
        if isinstance(obj, complex):
            return [obj.real, obj.imag]
        if isinstance(obj, Thing):
            return {"thing": decimal.Decimal("1.5")}
        raise NotImplementedError(f"cannot {type(obj).__name__}")

    assert json.encode([1j, Thing()], enc_hook=hook) == b'[[0.0,1.0],{"thing":"1.5"}]'
    assert json.Encoder(enc_hook=hook).encode(2j) == b"[0.0,2.0]"
    with pytest.raises(NotImplementedError, match="cannot object"):
        json.encode(object(), enc_hook=hook)


def test_enc_hook_returning_unsupported_recurses_to_an_error():
    with pytest.raises(RecursionError):
        json.encode(1j, enc_hook=lambda o: o)
    # A hook that turns the value into another supported value ends the chain.
    assert json.encode(1j, enc_hook=lambda o: 2.5j if o == 1j else "done") == b'"done"'


def test_deep_recursion_raises():
    for make in (lambda x: [x], lambda x: {"a": x}, lambda x: (x,)):
        value = []
        for _ in range(100000):
            value = make(value)
        with pytest.raises(RecursionError):
            json.encode(value)


def test_self_referencing_list_raises():
    value = []
    value.append(value)
    with pytest.raises(RecursionError):
        json.encode(value)


def test_moderate_depth_works():
    value = []
    for _ in range(200):
        value = [value]
    assert json.encode(value) == b"[" * 200 + b"[]" + b"]" * 200


def test_error_classes_exported():
    assert issubclass(boltwire.EncodeError, boltwire.BoltwireError)
    assert issubclass(boltwire.ValidationError, boltwire.DecodeError)
    assert issubclass(boltwire.DecodeError, ValueError)
    assert boltwire.json.encode is json.encode
