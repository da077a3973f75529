"""Property-based round trip for the typed decoder: for generated values of several Struct types,
boltwire.json.decode(boltwire.json.encode(v), type=T) == v, and msgspec decoding the same bytes into the twin
msgspec type gives the same (normalised) result."""

import datetime
import decimal
import enum
import uuid
from typing import Literal, Optional, Union

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boltwire
from boltwire import json
from typed_decode_diff import module_with, normalise


class Kind(enum.Enum):
    A = "a"
    B = "b"


class Rank(enum.IntEnum):
    LOW = 1
    HIGH = 2


SOURCE = """
import datetime, decimal, uuid
from typing import Literal, Optional, Union
from test_json_decode_typed_hypothesis import Kind, Rank

class Item(lib.Struct):
    name: str
    price: float
    qty: int = 1
    tags: list[str] = []

class Order(lib.Struct):
    id: int
    items: list[Item]
    note: Optional[str] = None
    created: Optional[datetime.datetime] = None

class File(lib.Struct, tag="file"):
    name: str
    size: int

class Dir(lib.Struct, tag="dir"):
    name: str
    children: "list[Union[File, Dir]]" = []

class Everything(lib.Struct):
    i: int
    f: float
    s: str
    b: bytes
    flag: bool
    none: None
    ints: list[int]
    pair: tuple[int, str]
    var: tuple[float, ...]
    mapping: dict[str, int]
    int_keys: dict[int, str]
    uniq: set[int]
    frozen: frozenset[str]
    uid: uuid.UUID
    dec: decimal.Decimal
    day: datetime.date
    clock: datetime.time
    span: datetime.timedelta
    kind: Kind
    rank: Rank
    lit: Literal["x", "y", 3]
    opt: Optional[list[Optional[int]]] = None
    union: Union[int, str, None] = None

class Row(lib.Struct, array_like=True):
    a: int
    b: Optional[str] = None
    c: list[float] = []

class Camel(lib.Struct, rename="camel", omit_defaults=True, forbid_unknown_fields=True):
    user_id: int
    display_name: str = ""
    extra_tags: list[str] = []

class Holder(lib.Struct):
    rows: list[Row]
    camels: dict[str, Camel]
"""

B = module_with(boltwire, SOURCE)
M = module_with(msgspec, SOURCE)

text = st.text(max_size=12)
floats = st.floats(allow_nan=False, allow_infinity=False)
offsets = st.integers(min_value=-23 * 60 - 59, max_value=23 * 60 + 59).map(
    lambda m: datetime.timezone(datetime.timedelta(minutes=m)))
tzs = st.none() | st.just(datetime.timezone.utc) | offsets
datetimes = st.datetimes(timezones=tzs)
times = st.times(timezones=tzs)

items = st.builds(B.Item, name=text, price=floats, qty=st.integers(), tags=st.lists(text, max_size=3))
orders = st.builds(B.Order, id=st.integers(), items=st.lists(items, max_size=4), note=st.none() | text,
                   created=st.none() | datetimes)
files = st.builds(B.File, name=text, size=st.integers(min_value=0, max_value=2**40))
trees = st.recursive(files, lambda kids: st.builds(B.Dir, name=text, children=st.lists(kids, max_size=4)),
                     max_leaves=20)
dirs = st.builds(B.Dir, name=text, children=st.lists(trees, max_size=4))
everything = st.builds(
    B.Everything,
    i=st.integers(), f=floats, s=st.text(), b=st.binary(max_size=20), flag=st.booleans(), none=st.none(),
    ints=st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=5),
    pair=st.tuples(st.integers(), text), var=st.lists(floats, max_size=3).map(tuple),
    mapping=st.dictionaries(text, st.integers(), max_size=3),
    int_keys=st.dictionaries(st.integers(min_value=-(2**63), max_value=2**64 - 1), text, max_size=3),
    uniq=st.sets(st.integers(), max_size=4), frozen=st.frozensets(text, max_size=3), uid=st.uuids(),
    dec=st.decimals(allow_nan=False, allow_infinity=False), day=st.dates(), clock=times,
    span=st.timedeltas(), kind=st.sampled_from(Kind), rank=st.sampled_from(Rank),
    lit=st.sampled_from(["x", "y", 3]),
    opt=st.none() | st.lists(st.none() | st.integers(), max_size=3), union=st.none() | st.integers() | text,
)
rows = st.builds(B.Row, a=st.integers(), b=st.none() | text, c=st.lists(floats, max_size=3))
camels = st.builds(B.Camel, user_id=st.integers(), display_name=text, extra_tags=st.lists(text, max_size=2))
holders = st.builds(B.Holder, rows=st.lists(rows, max_size=3), camels=st.dictionaries(text, camels, max_size=3))

CASES = [("Order", orders), ("Dir", dirs), ("Everything", everything), ("Holder", holders)]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def round_trip(name, value):
    buf = json.encode(value)
    ours = json.decode(buf, type=getattr(B, name))
    assert ours == value, (buf, ours, value)
    assert normalise(ours) == normalise(value)
    theirs = msgspec.json.decode(buf, type=getattr(M, name))
    assert normalise(ours) == normalise(theirs), buf
    # the str, bytearray and memoryview inputs decode the same
    assert json.decode(buf.decode(), type=getattr(B, name)) == value
    assert json.decode(memoryview(bytearray(buf)), type=getattr(B, name)) == value


@SETTINGS
@given(orders)
def test_round_trip_order(value):
    round_trip("Order", value)


@SETTINGS
@given(dirs)
def test_round_trip_tagged_tree(value):
    round_trip("Dir", value)


@SETTINGS
@given(everything)
def test_round_trip_every_field_type(value):
    round_trip("Everything", value)


@SETTINGS
@given(holders)
def test_round_trip_array_like_and_renamed(value):
    round_trip("Holder", value)


@SETTINGS
@given(st.lists(orders, max_size=4))
def test_round_trip_decode_lines(values):
    buf = b"".join(json.encode(v) + b"\n" for v in values)
    assert json.Decoder(B.Order).decode_lines(buf) == values
    theirs = msgspec.json.Decoder(M.Order).decode_lines(buf)
    assert [normalise(v) for v in values] == [normalise(v) for v in theirs]


@SETTINGS
@given(everything, st.data())
def test_truncated_input_is_decode_error_like_msgspec(value, data):
    buf = json.encode(value)
    cut = data.draw(st.integers(min_value=0, max_value=len(buf) - 1))
    out = []
    for dec, tp in ((json.decode, B.Everything), (msgspec.json.decode, M.Everything)):
        try:
            dec(buf[:cut], type=tp)
            out.append("ok")
        except (boltwire.DecodeError, msgspec.DecodeError) as e:
            out.append(type(e).__name__.replace("msgspec.", ""))
    assert out[0] == out[1] == "DecodeError" or out[0] == out[1], (buf[:cut], out)


# ---- mutated documents: robustness and agreement with msgspec ----------------------------------------------------

def _valid_utf8(buf):
    try:
        buf.decode()
        return True
    except UnicodeDecodeError:
        return False


def _outcome(fn, lib):
    try:
        return ("ok", normalise(fn()))
    except lib.ValidationError:
        return ("ValidationError",)
    except lib.DecodeError:
        return ("DecodeError",)


ALPHABET = b'[]{}",:0123456789-+.eE\\u tfnalsrx'


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.data())
def test_mutated_documents_agree_with_msgspec(case, data):
    """Insert, delete or replace a few bytes of a valid document: boltwire raises only DecodeError (never another
    exception, never a crash); when the mutated input is valid UTF-8 its outcome (value, or the error class)
    equals msgspec's."""
    name, strategy = case
    value = data.draw(strategy)
    buf = bytearray(json.encode(value))
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(buf)))
        op = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        if op == "insert":
            buf.insert(pos, data.draw(st.sampled_from(ALPHABET)))
        elif op == "delete" and buf:
            del buf[min(pos, len(buf) - 1)]
        elif buf:
            buf[min(pos, len(buf) - 1)] = data.draw(st.integers(32, 126))
    buf = bytes(buf)
    for strict in (True, False):
        ours = _outcome(lambda: json.decode(buf, type=getattr(B, name), strict=strict), boltwire)
        if not _valid_utf8(buf):
            continue
        theirs = _outcome(lambda: msgspec.json.decode(buf, type=getattr(M, name), strict=strict), msgspec)
        assert ours == theirs, (buf, strict)
