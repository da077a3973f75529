"""Reference and memory leak checks: repeat every Struct operation many times and check that neither reference
counts nor process memory keep growing. No timing is asserted."""

import copy
import gc
import os
import pickle
import sys

import pytest

from boltwire import Struct, field, structs

ITERATIONS = 100_000
WARMUP = 10_000
# Allowed RSS growth after warm-up. A leak of one small object per iteration over 10^5 iterations is >= 3 MB.
RSS_NOISE = 768 * 1024
# Under `make sanitize` (ASan preloaded) freed memory sits in ASan's quarantine, so RSS grows without a leak: only the
# refcount checks are meaningful there; the RSS checks run in `make test`.
UNDER_ASAN = "asan" in os.environ.get("LD_PRELOAD", "")


class Point(Struct):
    x: object
    y: object = 0
    z: list = []


class FPoint(Struct, frozen=True, cache_hash=True):
    x: object
    y: object = 0


class KwTagged(Struct, kw_only=True, tag=True, rename="camel", order=True):
    field_a: object
    field_b: object = field(default_factory=dict)


class NoGC(Struct, gc=False):
    a: object
    b: object = None


class PostInitFails(Struct):
    x: object

    def __post_init__(self):
        if self.x is None:
            raise ValueError("x is None")


class Rec(Struct, weakref=True, dict=True):
    other: object = None


PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc/self/statm")


def measure(op, sentinels, iterations=ITERATIONS, warmup=WARMUP):
    """Run op() warmup times, then iterations times; return (rss growth, refcount growth per sentinel)."""
    for _ in range(warmup):
        op()
    gc.collect()
    refs_before = [sys.getrefcount(s) for s in sentinels]
    rss_before = rss_bytes()
    for _ in range(iterations):
        op()
    gc.collect()
    rss_after = rss_bytes()
    refs_after = [sys.getrefcount(s) for s in sentinels]
    return rss_after - rss_before, [a - b for a, b in zip(refs_after, refs_before)]


@needs_proc
def test_main_loop_no_leak():
    """Create, compare, copy, pickle round-trip and drop instances."""
    sentinel = "leak-sentinel-" + str(os.getpid())  # a unique object referenced from every instance

    def op():
        a = Point(sentinel, 2)
        b = Point(sentinel, 2)
        assert a == b
        assert not (a != b)
        c = copy.copy(a)
        d = pickle.loads(pickle.dumps(a, protocol=pickle.HIGHEST_PROTOCOL))
        assert c == d
        f = FPoint(sentinel)
        hash(f)
        del a, b, c, d, f

    classes = [Point, FPoint]
    cls_refs = [sys.getrefcount(c) for c in classes]
    growth, refs = measure(op, [sentinel, Point, FPoint])
    assert refs == [0, 0, 0], f"refcount growth of (sentinel, Point, FPoint): {refs}"
    assert UNDER_ASAN or growth < RSS_NOISE, f"RSS grew by {growth} bytes over {ITERATIONS} iterations"
    assert [sys.getrefcount(c) for c in classes] == cls_refs


SENTINEL = object()


def _replace_unknown():
    try:
        structs.replace(Point(SENTINEL), nope=1)
    except TypeError:
        pass


def _init_missing():
    try:
        Point()
    except TypeError:
        pass


def _init_unexpected():
    try:
        Point(SENTINEL, q=SENTINEL)
    except TypeError:
        pass


def _init_too_many():
    try:
        Point(SENTINEL, 1, [], 4)
    except TypeError:
        pass


def _init_multiple():
    try:
        Point(SENTINEL, x=SENTINEL)
    except TypeError:
        pass


def _post_init_fails():
    try:
        PostInitFails(None)
    except ValueError:
        pass
    PostInitFails(SENTINEL)


def _frozen_setattr():
    f = FPoint(SENTINEL)
    try:
        f.x = SENTINEL
    except AttributeError:
        pass


def _unhashable():
    try:
        hash(Point(SENTINEL))
    except TypeError:
        pass


def _order_mismatch():
    try:
        KwTagged(field_a=1) < KwTagged(field_a="a")
    except TypeError:
        pass
    KwTagged(field_a=SENTINEL) <= KwTagged(field_a=SENTINEL)


def _cycle():
    r = Rec()
    r.other = [r, SENTINEL]
    r.extra = SENTINEL


def _repr_recursive():
    p = Point(SENTINEL)
    p.y = p
    repr(p)
    p.y = None


OPERATIONS = {
    "init_positional": lambda: Point(SENTINEL, SENTINEL),
    "init_keyword": lambda: Point(x=SENTINEL, y=SENTINEL, z=[SENTINEL]),
    "init_kw_only_factory": lambda: KwTagged(field_a=SENTINEL),
    "init_nogc": lambda: NoGC(SENTINEL, [SENTINEL]),
    "eq": lambda: Point(SENTINEL) == Point(SENTINEL),
    "ne_other_type": lambda: Point(SENTINEL) != FPoint(SENTINEL),
    "hash_cached": lambda: hash(FPoint(SENTINEL)),
    "order": lambda: KwTagged(field_a=1) < KwTagged(field_a=2),
    "repr": lambda: repr(Point(SENTINEL)),
    "rich_repr": lambda: list(Point(SENTINEL).__rich_repr__()),
    "copy": lambda: copy.copy(Point(SENTINEL)),
    "deepcopy": lambda: copy.deepcopy(Point(SENTINEL, [1])),
    "replace": lambda: structs.replace(Point(SENTINEL), y=SENTINEL),
    "dunder_replace": lambda: Point(SENTINEL).__replace__(y=SENTINEL),
    "pickle": lambda: pickle.loads(pickle.dumps(KwTagged(field_a=SENTINEL))),
    "asdict": lambda: structs.asdict(Point(SENTINEL)),
    "astuple": lambda: structs.astuple(Point(SENTINEL)),
    "fields": lambda: structs.fields(Point),
    "force_setattr": lambda: structs.force_setattr(FPoint(1), "x", SENTINEL),
    "setattr": lambda: (lambda p: (setattr(p, "y", SENTINEL), setattr(p, "x", [SENTINEL])))(Point(SENTINEL)),
    "replace_unknown_error": _replace_unknown,
    "init_missing_error": _init_missing,
    "init_unexpected_error": _init_unexpected,
    "init_too_many_error": _init_too_many,
    "init_multiple_error": _init_multiple,
    "post_init_error": _post_init_fails,
    "frozen_setattr_error": _frozen_setattr,
    "unhashable_error": _unhashable,
    "order_error": _order_mismatch,
    "cycle_collected": _cycle,
    "repr_recursive": _repr_recursive,
}


@needs_proc
@pytest.mark.parametrize("name", list(OPERATIONS))
def test_operation_no_leak(name):
    op = OPERATIONS[name]
    growth, refs = measure(op, [SENTINEL, Point, FPoint, KwTagged], iterations=50_000, warmup=5_000)
    assert refs == [0, 0, 0, 0], f"{name}: refcount growth of (SENTINEL, Point, FPoint, KwTagged): {refs}"
    assert UNDER_ASAN or growth < RSS_NOISE, f"{name}: RSS grew by {growth} bytes"


def test_class_creation_no_refcount_leak():
    base_refs = sys.getrefcount(Point)
    default = "default-sentinel-" + str(os.getpid())
    default_refs = sys.getrefcount(default)
    for _ in range(2000):
        type(Struct)("Tmp", (Point,), {"__annotations__": {"w": int}, "w": default})
    gc.collect()
    assert sys.getrefcount(Point) == base_refs
    assert sys.getrefcount(default) == default_refs


def test_failed_class_creation_no_refcount_leak():
    default = "bad-default-" + str(os.getpid())
    refs = sys.getrefcount(default)
    for _ in range(2000):
        with pytest.raises(TypeError):
            type(Struct)("Tmp", (Struct,), {"__annotations__": {"a": int, "b": int}, "a": default})
        with pytest.raises(TypeError):
            type(Struct)("Tmp", (Struct,), {"__annotations__": {"a": int}, "a": default}, rename=1)
    gc.collect()
    assert sys.getrefcount(default) == refs


def test_dropped_instances_release_field_values():
    value = "field-value-" + str(os.getpid())
    refs = sys.getrefcount(value)
    objs = [Point(value, value, [value]) for _ in range(1000)]
    assert sys.getrefcount(value) == refs + 3000
    nogc = [NoGC(value, value) for _ in range(1000)]
    assert sys.getrefcount(value) == refs + 5000
    del objs, nogc
    assert sys.getrefcount(value) == refs
