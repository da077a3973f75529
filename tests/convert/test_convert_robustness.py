"""Inputs that try to crash convert(): each check runs in a child interpreter so a crash is a failed test (with
the child's faulthandler output) instead of a dead test run. The child must exit cleanly; where msgspec has a
defined answer the child also compares with it."""

import textwrap

import pytest

from _convert_diff import run_child

CHILD_PRELUDE = """
import sys, gc
from typing import Any, Dict, List, Optional, Tuple, Set
import boltwire, msgspec
class Money:
    pass
"""

CASES = {
    # A dec_hook that empties the list being converted: the items array must not be read after it is freed.
    # (msgspec 0.23 itself crashes here; boltwire must not: "bad input never crashes".)
    "list_mutated_by_dec_hook": """
        data = [1, 2, 3, 4, 5, 6, 7, 8]
        def hook(tp, obj):
            data.clear()
            [object() for _ in range(1000)]
            return Money()
        try:
            boltwire.convert(data, List[Money], dec_hook=hook)
        except Exception as e:
            print("error", type(e).__name__)
        print("alive")
    """,
    "tuple_items_with_mutating_hook": """
        inner = [1, 2, 3]
        data = (inner, inner)
        def hook(tp, obj):
            inner.clear()
            return Money()
        try:
            boltwire.convert(data, Tuple[List[Money], ...], dec_hook=hook)
        except Exception as e:
            print("error", type(e).__name__)
        print("alive")
    """,
    "dict_mutated_by_dec_hook": """
        d = {str(i): i for i in range(8)}
        def hook(tp, obj):
            d.clear()
            [object() for _ in range(1000)]
            return Money()
        try:
            out = boltwire.convert(d, Dict[str, Money], dec_hook=hook)
        except Exception as e:
            print("error", type(e).__name__)
        print("alive")
    """,
    "struct_source_dict_mutated": """
        class S(boltwire.Struct):
            a: Money
            b: int = 0
        src = {"a": 1, "b": 2}
        def hook(tp, obj):
            src.clear(); src.update({f"k{i}": i for i in range(50)})
            return Money()
        try:
            boltwire.convert(src, S, dec_hook=hook)
        except Exception as e:
            print("error", type(e).__name__)
        print("alive")
    """,
    "getattr_raising_from_attributes": """
        class S(boltwire.Struct):
            a: int
            b: int = 0
        class Weird:
            def __getattr__(self, name):
                if name == "b":
                    raise RuntimeError("boom")
                return 1
        try:
            boltwire.convert(Weird(), S, from_attributes=True)
        except RuntimeError as e:
            print("error", e)
        print("alive")
    """,
    "post_init_deletes_field": """
        class S(boltwire.Struct):
            a: List[int]
            def __post_init__(self):
                del self.a
        try:
            out = boltwire.convert({"a": [1]}, S)
            repr(out)
        except Exception as e:
            print("error", type(e).__name__)
        print("alive")
    """,
    "generic_struct_parametrized": """
        from typing import Generic, TypeVar
        T = TypeVar("T")
        class Box(boltwire.Struct, Generic[T]):
            value: T
        print(boltwire.convert({"value": 1}, Box[int]))
        print("alive")
    """,
    "generic_struct_parametrized_json": """
        from typing import Generic, TypeVar
        T = TypeVar("T")
        class Box(boltwire.Struct, Generic[T]):
            value: T
        print(boltwire.json.decode(b'{"value": 1}', type=Box[int]))
        print("alive")
    """,
    "deep_list_any": """
        v = []
        for _ in range(100000):
            v = [v]
        boltwire.convert(v, Any)
        try:
            boltwire.convert(v, List[Any])
        except RecursionError:
            pass
        print("alive")
    """,
    "deep_nested_list_type": """
        sys.setrecursionlimit(5000)
        v = 1
        T = int
        for _ in range(400):
            v = [v]
            T = List[T]
        try:
            boltwire.convert(v, T)
        except RecursionError:
            pass
        print("alive")
    """,
    "self_referencing_list": """
        v = [1]
        v.append(v)
        class N(boltwire.Struct):
            pass
        try:
            boltwire.convert(v, List[Any])
            boltwire.convert(v, List[List[Any]])
        except Exception as e:
            print("error", type(e).__name__)
        print("alive")
    """,
    "gc_during_convert": """
        class S(boltwire.Struct):
            a: Money
            xs: List[int] = []
        def hook(tp, obj):
            gc.collect()
            return Money()
        for _ in range(200):
            boltwire.convert({"xs": list(range(10)), "a": 1}, S, dec_hook=hook)
        print("alive")
    """,
    "validator_raising_base_exception": """
        from typing import Annotated
        def v(x):
            raise KeyboardInterrupt
        try:
            boltwire.convert([1], List[Annotated[int, boltwire.Meta(validator=v)]])
        except KeyboardInterrupt:
            print("propagated")
        print("alive")
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_does_not_crash(name):
    code = CHILD_PRELUDE + textwrap.dedent(CASES[name])
    proc = run_child(code)
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr[-3000:]}"
    assert proc.stdout.strip().endswith("alive")
