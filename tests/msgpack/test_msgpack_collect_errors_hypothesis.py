"""Property: for any input, msgpack collect_errors=True agrees with fail-fast decoding (the documents, types and
the agreement rule of tests/json/test_json_collect_errors_hypothesis.py): a valid document decodes to the same
value; an invalid one raises the same exception class, and the first collected error is the fail-fast error.
Runs on encoded documents and on byte mutations of them."""

import msgpack_diff  # noqa: F401 - puts tests/json on sys.path
import test_json_collect_errors_hypothesis as jh
from hypothesis import assume, given
from hypothesis import strategies as st

import boltwire as bw
from boltwire import msgpack as bm


def encoded(doc):
    try:
        return bm.encode(doc)
    except (bw.EncodeError, OverflowError):  # ints past 64 bits have no MessagePack form
        assume(False)


@jh.SETTINGS
@given(jh.document)
def test_msgpack_first_collected_error_is_the_fail_fast_error(doc):
    buf = encoded(doc)
    jh.assert_agrees(lambda: bm.decode(buf, type=jh.Doc), lambda: bm.decode(buf, type=jh.Doc, collect_errors=True))


@jh.SETTINGS
@given(jh.document, st.data())
def test_msgpack_mutated_bytes_agree(doc, data):
    data_bytes = jh.mutate(data, encoded(doc), st.integers(0, 255))
    jh.assert_agrees(lambda: bm.decode(data_bytes, type=jh.Doc),
                     lambda: bm.decode(data_bytes, type=jh.Doc, collect_errors=True))


@jh.SETTINGS
@given(jh.document, st.integers(1, 5))
def test_msgpack_max_errors_keeps_a_prefix(doc, cap):
    buf = encoded(doc)
    kind, full = jh.outcome(lambda: bm.decode(buf, type=jh.Doc, collect_errors=True))
    if kind == "ok" or not isinstance(full, bw.ValidationError):
        return
    _, capped = jh.outcome(lambda: bm.decode(buf, type=jh.Doc, collect_errors=True, max_errors=cap))
    assert capped.errors() == full.errors()[:cap]
