"""bench/bench_gc.py: GC pause and memory of a dict of 1,000,000 small instances (the seed page's "Garbage Collection").

Each case runs in its own process (gc_case.py) so that one case's heap cannot slow or bloat the next.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from report import Row, Section, Table, Target

N = 1_000_000
CASES = [
    "standard class",
    "standard class with __slots__",
    "boltwire Struct",
    "boltwire Struct gc=False",
    "msgspec Struct",
    "msgspec Struct gc=False",
]
BASELINE = "dict of ints"  # the same dict holding the bare ints: subtracted to get bytes per instance
NOISE_MS = 0.1  # below this a GC pause is timer noise, and a ratio of two such pauses means nothing
GC_HEADER = 16  # bytes of PyGC_Head that gc=False saves on every instance


def run(args) -> Section:
    repeat, timeout = (3, 60) if args.quick else (7, 120)
    results = {case: run_case(case, repeat, timeout) for case in [BASELINE, *CASES]}
    base = results[BASELINE].get("traced_bytes")

    def rows(value, show_tracking=False):
        out = []
        for case in CASES:
            r = results[case]
            if "error" in r:
                out.append(Row(case, None, r["error"]))
                continue
            note = "" if r["fields_ok"] else "wrong field values"
            if show_tracking and "Struct" in case and r["tracked"]:
                note += " instances are GC-tracked"
            out.append(Row(case, value(r), note.strip()))
        return out

    tables = [
        Table("GC time (ms), one full gc.collect()", "ms", rows(lambda r: r["gc_ms"], True), "msgspec Struct"),
        Table("Memory (MiB), tracemalloc", "MiB", rows(lambda r: r["traced_bytes"] / 2**20), "msgspec Struct"),
        Table("Bytes per instance, tracemalloc", "B", rows(lambda r: (r["traced_bytes"] - base) / N if base else None), None),
        Table("RSS growth (MiB), cross-check", "MiB", rows(lambda r: r["rss_bytes"] / 2**20 if r["rss_bytes"] else None), "msgspec Struct"),
    ]
    notes = [
        f"a dict of {N:,} instances with three int fields, int keys; each case in a fresh process",
        f"GC time: median of {repeat} full gc.collect() after one untimed first pass; gc.freeze() keeps the "
        "interpreter's own objects out of it",
        "Memory: tracemalloc, bytes requested from Python's allocators (before pymalloc's 16-byte rounding); "
        "bytes per instance subtract the same dict holding bare ints",
        "RSS growth: resident set before and after building, which also sees memory malloc'd outside Python",
    ]
    return Section("gc", tables, targets(tables), notes)


def run_case(case: str, repeat: int, timeout: float) -> dict:
    cmd = [sys.executable, str(Path(__file__).with_name("gc_case.py")), case, str(N), str(repeat)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f}s"}
    if proc.returncode != 0:  # e.g. a segfault in a half-built extension
        tail = proc.stderr.strip().splitlines()[-1:] or [""]
        return {"error": f"crashed (exit {proc.returncode}) {tail[0]}"[:100]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def targets(tables: list[Table]) -> list[Target]:
    gc_time, _, per_instance, _ = tables
    value = {t.title: {r.name: r.value for r in t.rows} for t in tables}
    times, sizes = value[gc_time.title], value[per_instance.title]
    out = [
        gc_target("GC pass: boltwire Struct <= 1.0x msgspec Struct", times, "boltwire Struct", "msgspec Struct"),
        gc_target(
            "GC pass: boltwire gc=False <= 1.0x msgspec gc=False", times, "boltwire Struct gc=False", "msgspec Struct gc=False"
        ),
    ]
    slots = sizes.get("standard class with __slots__")
    if slots is not None:
        out.append(Target("bytes/instance: boltwire Struct <= __slots__ class", sizes.get("boltwire Struct"), slots, "B"))
        out.append(
            Target("bytes/instance: boltwire gc=False <= __slots__ - 16", sizes.get("boltwire Struct gc=False"), slots - GC_HEADER, "B")
        )
    return out


def gc_target(label: str, times: dict, ours: str, theirs: str) -> Target:
    a, b = times.get(ours), times.get(theirs)
    if a is None or not b:
        return Target(label, None, 1.0, note="no number")
    if max(a, b) < NOISE_MS:
        return Target(label, a / b, 1.0, note=f"both under {NOISE_MS} ms: a tie within timer noise", ok=True)
    return Target(label, a / b, 1.0)
