"""bench/timing.py: per-operation timing with timeit: autorange-style loop counts, median of repeats."""

from __future__ import annotations

import gc
import statistics
import timeit
from collections.abc import Callable


def calibrate(timer: timeit.Timer, min_time: float) -> int:
    """Loop count (1, 2, 5, 10, 20, 50, ...) whose run takes at least `min_time` seconds, like Timer.autorange."""
    i = 1
    while True:
        for j in (1, 2, 5):
            number = i * j
            if timer.timeit(number) >= min_time:
                return number
        i *= 10


def median_per_op(timers: dict[str, tuple[timeit.Timer, int]], repeat: int) -> dict[str, float]:
    """Median seconds per operation for each named (timer, loop count).

    Repeats are interleaved across names so that drift in CPU clock or machine load hits every
    peer alike instead of whichever one happened to run during it.
    """
    samples: dict[str, list[float]] = {name: [] for name in timers}
    for _ in range(repeat):
        for name, (timer, number) in timers.items():
            gc.collect()  # timeit disables GC while timing; free the last round's garbage first
            samples[name].append(timer.timeit(number) / number)
    return {name: statistics.median(s) for name, s in samples.items()}


def make_timer(stmt: str | Callable[[], object], namespace: dict | None = None) -> timeit.Timer:
    return timeit.Timer(stmt, globals=namespace)
