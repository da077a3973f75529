"""bench/gc_case.py: one GC benchmark case, run in its own process by bench_gc.py; prints one JSON line.

Usage: python bench/gc_case.py CASE N REPEAT memory|no-memory

Builds {i: Point(i, i, i) for i in range(N)}, then reports:
- first_gc_ms_samples: the first full gc.collect() after building (what the seed page times)
- gc_ms_samples: REPEAT timings of a full gc.collect() after that first pass (the steady state)
- rss_bytes: growth of the resident set while building it, a cross-check that also sees plain malloc
- traced_bytes (with "memory"): the structure's size as tracemalloc sees it (bytes asked of Python's allocators)
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
import tracemalloc


def point_class(case: str):
    """The three-int class for a case; None for the baseline (a dict of the bare ints)."""
    if case == "dict of ints":
        return None
    if case == "standard class":

        class Point:
            def __init__(self, x, y, z):
                self.x = x
                self.y = y
                self.z = z

        return Point
    if case == "standard class with __slots__":

        class Point:
            __slots__ = ("x", "y", "z")

            def __init__(self, x, y, z):
                self.x = x
                self.y = y
                self.z = z

        return Point
    library, _, option = case.partition(" Struct")
    Struct = __import__(library).Struct
    if option == " gc=False":

        class Point(Struct, gc=False):
            x: int
            y: int
            z: int

        return Point

    class Point(Struct):
        x: int
        y: int
        z: int

    return Point


def build(cls, n: int) -> dict:
    # Keys and fields share the same int objects, so the ints are counted once, as in the baseline.
    if cls is None:
        return {i: i for i in range(n)}
    return {i: cls(i, i, i) for i in range(n)}


def rss() -> int | None:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return None  # not Linux: the RSS cross-check is simply missing


def measure(case: str, n: int, repeat: int, with_memory: bool) -> dict:
    cls = point_class(case)
    gc.disable()  # no automatic passes while building; gc.collect() still runs when called
    gc.collect()
    gc.freeze()  # move the interpreter's own objects out of the way: time only the structure

    before = rss()
    data = build(cls, n)
    after = rss()

    start = time.perf_counter()
    gc.collect()  # the first pass ages everything into the oldest generation and untracks what it can
    first = time.perf_counter() - start
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        gc.collect()
        samples.append((time.perf_counter() - start) * 1e3)
    result = {
        "gc_ms_samples": samples,
        "first_gc_ms_samples": [first * 1e3],
        "rss_bytes": after - before if before is not None and after is not None else None,
        "fields_ok": cls is None or (data[n - 1].x, data[n - 1].z) == (n - 1, n - 1),
        "tracked": gc.is_tracked(data[n - 1]),  # scalar-only Structs should stay untracked
    }
    if with_memory:
        del data
        gc.collect()
        result["traced_bytes"] = traced_size(cls, n)
    return result


def traced_size(cls, n: int) -> int:
    # Built again under tracemalloc: its own bookkeeping would distort the GC timings and RSS.
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    data = build(cls, n)
    traced = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del data
    return traced


def main() -> None:
    case, n, repeat, with_memory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "memory"
    try:
        result = measure(case, n, repeat, with_memory)
    except ImportError:
        result = {"error": "not installed"}
    except Exception as e:  # report it in the table instead of a traceback in the middle of the output
        result = {"error": f"error: {type(e).__name__}: {e}"[:100]}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
