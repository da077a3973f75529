"""boltwire.yaml and boltwire.toml against msgspec.yaml / msgspec.toml: same bytes out, same values and errors in."""

import dataclasses
import datetime
import sys
from typing import Any

import msgspec
import pytest

import boltwire


@dataclasses.dataclass
class Row:
    x: int
    when: datetime.date


def pair(name: str):
    return getattr(boltwire, name), getattr(msgspec, name)


def outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 (compared across the two libraries)
        return (type(e).__name__, str(e))


def structs(lib: Any):
    class Point(lib.Struct):
        x: int
        y: list[float] = []
        at: datetime.datetime | None = None

    return Point


VALUES = [
    {"a": 1, "b": [1.5, "x", None, True], "c": {"d": datetime.date(2024, 1, 2)}},
    {"when": datetime.datetime(2024, 5, 6, 7, 8, 9, tzinfo=datetime.timezone.utc), "t": "text\nline"},
]


@pytest.mark.parametrize("fmt", ["yaml", "toml"])
@pytest.mark.parametrize("value", VALUES)
def test_encode_matches_msgspec(fmt, value):
    ours, theirs = pair(fmt)
    if fmt == "toml":
        value = {k: v for k, v in value.items() if v is not None}
        value = {k: ([x for x in v if x is not None] if isinstance(v, list) else v) for k, v in value.items()}
    assert ours.encode(value) == theirs.encode(value)
    assert ours.decode(ours.encode(value)) == theirs.decode(theirs.encode(value))


@pytest.mark.parametrize("fmt", ["yaml", "toml"])
def test_typed_decode_matches_msgspec(fmt):
    ours, theirs = pair(fmt)
    doc = ours.encode({"x": 1, "y": [1.5, 2.0], "at": datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)})
    ours_point, theirs_point = structs(boltwire), structs(msgspec)
    a, b = ours.decode(doc, type=ours_point), theirs.decode(doc, type=theirs_point)
    assert (a.x, a.y, a.at) == (b.x, b.y, b.at)
    assert ours.encode(a) == theirs.encode(b)
    assert ours.decode(ours.encode(Row(1, datetime.date(2020, 1, 1))), type=Row) == Row(1, datetime.date(2020, 1, 1))
    bad = ours.encode({"x": "no"})
    with pytest.raises(boltwire.ValidationError, match="Expected `int`, got `str` - at `\\$.x`"):
        ours.decode(bad, type=ours_point)
    with pytest.raises(msgspec.ValidationError, match="Expected `int`, got `str` - at `\\$.x`"):
        theirs.decode(bad, type=theirs_point)
    # lax mode reaches convert
    lax = ours.encode({"x": "5"})
    assert ours.decode(lax, type=ours_point, strict=False).x == 5


@pytest.mark.parametrize("fmt", ["yaml", "toml"])
def test_errors_match_msgspec(fmt):
    ours, theirs = pair(fmt)
    for doc in (b"a: [1", b"= = =", b"\xff\xfe", "x = 1\n[[x]]"):
        o, t = outcome(lambda: ours.decode(doc)), outcome(lambda: theirs.decode(doc))
        assert o[0] == t[0].replace("MsgspecError", "DecodeError")
        if o[0] != "ok":
            assert issubclass(getattr(boltwire, o[0]), boltwire.DecodeError)

    class Oops:
        pass

    for lib in (ours, theirs):
        with pytest.raises(TypeError, match="Encoding objects of type Oops is unsupported"):
            lib.encode({"x": Oops()})
    assert set(dir(ours)) == set(dir(theirs)) == {"encode", "decode"}


@pytest.mark.parametrize("value", [[1, 2], 1, "x"])
def test_toml_needs_a_table(value):
    for lib in pair("toml"):
        with pytest.raises(TypeError, match="TOML documents must be tables, got an object of type"):
            lib.encode(value)


def test_buffers_accepted():
    for fmt in ("yaml", "toml"):
        mod = getattr(boltwire, fmt)
        doc = mod.encode({"a": 1})
        for buf in (doc, bytearray(doc), memoryview(doc), doc.decode()):
            assert mod.decode(buf) == {"a": 1}


def test_missing_library_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "yaml", None)
    with pytest.raises(ImportError, match="PyYAML"):
        boltwire.yaml.encode({"a": 1})
    monkeypatch.setitem(sys.modules, "tomli_w", None)
    with pytest.raises(ImportError, match="conda install"):
        boltwire.toml.encode({"a": 1})


@pytest.mark.parametrize("value, tp", [
    ({1: "a", 2: "b"}, dict[int, str]),
    ({datetime.date(2022, 1, 2): 1}, dict[datetime.date, int]),
    ({datetime.datetime(2022, 1, 2, 3, 4, 5, 6, tzinfo=datetime.timezone.utc): 1}, dict[datetime.datetime, int]),
    ({datetime.time(12, 34): 1}, dict[datetime.time, int]),
    ({1.5: "x"}, dict[float, str]),
])
def test_toml_non_str_keys_round_trip_as_strings(value, tp):
    ours, theirs = pair("toml")
    encoded = outcome(lambda: ours.encode({"t": value}))
    assert encoded == outcome(lambda: theirs.encode({"t": value}))
    assert encoded[0] == "ok"
    assert outcome(lambda: ours.decode(encoded[1], type=dict[str, tp])) == outcome(
        lambda: theirs.decode(encoded[1], type=dict[str, tp])) == ("ok", {"t": value})
