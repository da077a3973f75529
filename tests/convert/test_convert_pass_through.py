"""convert()'s pass-through paths: values already of the exact type a field asks for are kept as they are, dicts
and lists whose entries all pass through are copied whole. The results must still be new containers, hold the
same items, be tracked by the GC when they hold containers, and keep Python's recursion counter balanced."""

import gc
import sys
from typing import Any, Dict, List, Optional

import pytest

import boltwire
import msgspec


class Holder(boltwire.Struct):
    name: str
    anything: Any = None
    count: Optional[int] = None


@pytest.mark.parametrize("lib", [boltwire, msgspec])
def test_dict_of_plain_values_is_a_new_equal_dict(lib):
    src = {"a": "x", "b": "y"}
    out = lib.convert(src, Dict[str, str])
    assert out == src and out is not src and type(out) is dict
    out["c"] = "z"
    assert src == {"a": "x", "b": "y"}


@pytest.mark.parametrize("lib", [boltwire, msgspec])
def test_dict_with_one_value_to_convert_converts_it(lib):
    out = lib.convert({"a": 1.5, "b": 2}, Dict[str, float])
    assert out == {"a": 1.5, "b": 2.0} and type(out["b"]) is float


def test_dict_values_keep_their_identity():
    inner = [1, 2]
    out = boltwire.convert({"k": inner}, Dict[str, Any])
    assert out["k"] is inner


@pytest.mark.parametrize("lib", [boltwire, msgspec])
@pytest.mark.parametrize("src", [["a", "b"], ("a", "b"), []])
def test_list_of_plain_items_is_a_new_list(lib, src):
    out = lib.convert(src, List[str])
    assert out == list(src) and out is not src and type(out) is list
    out.append("c")
    assert list(src) != out


@pytest.mark.parametrize("lib", [boltwire, msgspec])
def test_list_with_one_item_to_convert_fails_or_converts_like_msgspec(lib):
    assert lib.convert([1, 2.0], List[float]) == [1.0, 2.0]
    with pytest.raises(lib.ValidationError, match=r"\$\[1\]"):
        lib.convert(["a", 1], List[str])


def test_struct_holding_a_passed_through_container_is_tracked():
    inner = {"deep": [1]}
    obj = boltwire.convert({"name": "n", "anything": inner}, Holder)
    assert obj.anything is inner
    assert gc.is_tracked(obj)
    plain = boltwire.convert({"name": "n", "count": 3}, Holder)
    assert plain.count == 3 and not gc.is_tracked(plain)


def test_struct_fields_of_the_wrong_type_still_fail_with_their_path():
    with pytest.raises(boltwire.ValidationError, match=r"Expected `int \| null`, got `str` - at `\$.count`"):
        boltwire.convert({"name": "n", "count": "3"}, Holder)


def _reachable_depth():
    def down(n):
        try:
            return down(n + 1)
        except RecursionError:
            return n

    return down(0)


def test_recursion_counter_stays_balanced():
    # Nested containers enter the interpreter's recursion counter once per level; successes, validation errors
    # and recursion errors must all leave it where it was.
    nested_type = List[List[List[Dict[str, List[int]]]]]
    good = [[[{"k": [1, 2]}]]] * 3
    bad = [[[{"k": [1, "x"]}]]]
    cyclic = []
    cyclic.append(cyclic)
    deep_type = int
    for _ in range(60):
        deep_type = List[deep_type]
    before = _reachable_depth()
    old = sys.getrecursionlimit()
    for _ in range(50):
        assert boltwire.convert(good, nested_type) == good
        with pytest.raises(boltwire.ValidationError):
            boltwire.convert(bad, nested_type)
        sys.setrecursionlimit(len(_frames()) + 20)
        try:
            with pytest.raises(RecursionError):
                boltwire.convert(cyclic, deep_type)
        finally:
            sys.setrecursionlimit(old)
    assert _reachable_depth() == before


def _frames():
    frame, out = sys._getframe(), []
    while frame is not None:
        out.append(frame)
        frame = frame.f_back
    return out
