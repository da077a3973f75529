"""Property test: for arbitrary JSON-able builtins, boltwire's bytes equal msgspec's."""

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from boltwire import json

scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text()
    | st.binary(max_size=40)
)
keys = st.text() | st.integers() | st.floats(allow_nan=False)
documents = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=6)
    | st.tuples(children, children)
    | st.dictionaries(keys, children, max_size=6),
    max_leaves=40,
)
str_key_documents = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(st.text(), children, max_size=6),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(documents)
def test_matches_msgspec(doc):
    try:
        expected = msgspec.json.encode(doc)
    except UnicodeEncodeError:  # lone surrogates in generated text
        try:
            json.encode(doc)
        except UnicodeEncodeError:
            return
        raise AssertionError("expected UnicodeEncodeError")
    assert json.encode(doc) == expected


@settings(max_examples=200, deadline=None)
@given(str_key_documents)
def test_sorted_matches_msgspec(doc):
    try:
        expected = msgspec.json.encode(doc, order="deterministic")
    except UnicodeEncodeError:
        return
    assert json.encode(doc, order="deterministic") == expected
