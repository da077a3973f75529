"""bench/timing.py: per-operation timing with timeit: autorange-style loop counts, median of repeats."""

from __future__ import annotations

import gc
import statistics
import timeit
from collections.abc import Callable

from progress import progress


def calibrate(timer: timeit.Timer, min_time: float) -> int:
    """Loop count (1, 2, 5, 10, 20, 50, ...) whose run takes at least `min_time` seconds, like Timer.autorange."""
    i = 1
    while True:
        for j in (1, 2, 5):
            number = i * j
            if timer.timeit(number) >= min_time:
                return number
        i *= 10


def samples_per_op(timers: dict[str, tuple[timeit.Timer, int]], repeat: int) -> dict[str, list[float]]:
    """`repeat` samples of seconds per operation for each named (timer, loop count).

    Repeats are interleaved across names so that drift in CPU clock or machine load hits every
    peer alike instead of whichever one happened to run during it, and each round starts one name
    further on, so that no name always runs first or last.
    """
    samples: dict[str, list[float]] = {name: [] for name in timers}
    names = list(timers)
    for i in range(repeat):
        progress.step(f"round {i + 1}/{repeat}", total=len(names))
        for j, name in enumerate(names[i % len(names):] + names[: i % len(names)] if names else []):
            timer, number = timers[name]
            gc.collect()  # timeit disables GC while timing; free the last round's garbage first
            samples[name].append(timer.timeit(number) / number)
            progress.advance_to(j + 1)
    return samples


def spread(samples: list[float], scale: float = 1.0) -> list[float]:
    """[min, max] of the samples, scaled: printed beside a median so that readers can judge the noise."""
    return [min(samples) * scale, max(samples) * scale]


def make_timer(stmt: str | Callable[[], object], namespace: dict | None = None) -> timeit.Timer:
    return timeit.Timer(stmt, globals=namespace)
