"""bench/bench_gc.py: GC pause and memory of a dict of 1,000,000 small instances (seed page, "Garbage Collection").

Each case runs in its own process (gc_case.py) so that one case's heap cannot slow or bloat the next.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

from progress import progress
from report import Row, Section, Table, Target
from timing import spread

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
REFERENCE = "msgspec Struct"  # ratio column
NOISE_MS = 0.1  # below this a GC pause is timer noise, and a ratio of two such pauses means nothing
GC_HEADER = 16  # bytes of PyGC_Head that gc=False saves on every instance


def run(args) -> Section:
    # Rounds of one process per case, interleaved, so that a burst of load elsewhere on the machine lands on
    # several cases instead of skewing one; the GC time is the median over every round's samples.
    rounds, repeat, timeout = (1, 3, 60) if args.quick else (3, 5, 120)
    rounds = args.rounds or rounds
    results = {case: {} for case in [BASELINE, *CASES]}
    for i in range(rounds):
        for case, merged in results.items():
            if "error" not in merged:
                progress.step(f"round {i + 1}/{rounds}: {case}")
                merge(merged, run_case(case, repeat, timeout, with_memory=i == 0))

    base = results[BASELINE].get("traced_bytes")

    def per_instance(r):
        return (r["traced_bytes"] - base) / N if base else None

    def mib(key):
        return lambda r: r[key] / 2**20 if r[key] else None

    tables = [
        Table("GC time (ms), one full gc.collect()", "ms", rows(results, lambda r: r["gc_ms"], True), REFERENCE),
        Table("GC time (ms), first pass after building", "ms", rows(results, lambda r: r["first_gc_ms"]), REFERENCE),
        Table("Memory (MiB), tracemalloc", "MiB", rows(results, mib("traced_bytes")), REFERENCE),
        Table("Bytes per instance, tracemalloc", "B", rows(results, per_instance), None),
        Table("RSS growth (MiB), cross-check", "MiB", rows(results, mib("rss_bytes")), REFERENCE),
    ]
    notes = [
        f"a dict of {N:,} instances with three int fields, int keys; each case in a fresh process",
        f"GC time: median of {rounds}x{repeat} full gc.collect() ({rounds} interleaved process round{'s' if rounds > 1 else ''}) after "
        f"the first pass, which is reported apart (median of {rounds}); gc.freeze() keeps the interpreter's "
        "own objects out",
        "Memory: tracemalloc, bytes requested from Python's allocators (before pymalloc's 16-byte rounding); "
        "bytes per instance subtract the same dict holding bare ints",
        "RSS growth: resident set before and after building, which also sees memory malloc'd outside Python",
    ]
    return Section("gc", tables, targets(tables[0], tables[3]), notes, raw=results)


def rows(results: dict, value, show_tracking: bool = False) -> list[Row]:
    out = []
    for case in CASES:
        r = results[case]
        if "error" in r:
            out.append(Row(case, None, r["error"]))
            continue
        note = "" if r["fields_ok"] else "wrong field values"
        if show_tracking and "Struct" in case and r["tracked"]:
            note += " instances are GC-tracked"  # explains a slow pass: scalar-only Structs should not be
        samples = r.get("gc_ms_samples") if show_tracking else None  # the GC-time table: spread over its samples
        out.append(Row(case, value(r), note.strip(), spread(samples) if samples else None))
    return out


def merge(merged: dict, result: dict) -> None:
    """Fold one process's result into the case's: `*_samples` lists accumulate (their median goes under the
    name without the suffix); everything else comes from the first round."""
    if "error" in result:
        merged.clear()
        merged.update(result)
        return
    for key in [k for k in result if k.endswith("_samples")]:
        samples = merged.get(key, []) + result.pop(key)
        merged[key] = samples
        merged[key.removesuffix("_samples")] = statistics.median(samples)
    merged.update({k: v for k, v in result.items() if k not in merged})


def run_case(case: str, repeat: int, timeout: float, with_memory: bool) -> dict:
    script = str(Path(__file__).with_name("gc_case.py"))
    cmd = [sys.executable, script, case, str(N), str(repeat), "memory" if with_memory else "no-memory"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f}s"}
    if proc.returncode != 0:  # e.g. a segfault in a half-built extension
        tail = proc.stderr.strip().splitlines()[-1:] or [""]
        return {"error": f"crashed (exit {proc.returncode}) {tail[0]}"[:100]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def targets(gc_time: Table, per_instance: Table) -> list[Target]:
    times = {r.name: r.value for r in gc_time.rows}
    sizes = {r.name: r.value for r in per_instance.rows}
    out = [
        gc_target("GC pass: boltwire Struct <= 1.0x msgspec", times, "boltwire Struct", "msgspec Struct"),
        gc_target(
            "GC pass: boltwire gc=False <= 1.0x msgspec", times, "boltwire Struct gc=False", "msgspec Struct gc=False"
        ),
    ]
    slots = sizes.get("standard class with __slots__")
    if slots is not None:
        ours, ours_no_gc = sizes.get("boltwire Struct"), sizes.get("boltwire Struct gc=False")
        out.append(Target("bytes/instance: boltwire Struct <= __slots__", ours, slots, "B"))
        out.append(Target("bytes/instance: boltwire gc=False <= __slots__ - 16", ours_no_gc, slots - GC_HEADER, "B"))
    return out


def gc_target(label: str, times: dict, ours: str, theirs: str) -> Target:
    a, b = times.get(ours), times.get(theirs)
    if a is None or not b:
        return Target(label, None, 1.0, note="no number")
    if max(a, b) < NOISE_MS:
        return Target(label, a / b, 1.0, note=f"both under {NOISE_MS} ms: a tie within timer noise", ok=True)
    return Target(label, a / b, 1.0)
