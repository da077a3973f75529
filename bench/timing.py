"""bench/timing.py: per-operation timing with timeit: autorange-style loop counts, median of repeats."""

from __future__ import annotations

import gc
import statistics
import timeit
from collections.abc import Callable
from typing import TypeVar

from progress import progress

K = TypeVar("K")
T = TypeVar("T")


def calibrate(timer: timeit.Timer, min_time: float) -> int:
    """Loop count (1, 2, 5, 10, 20, 50, ...) whose run takes at least `min_time` seconds, like Timer.autorange."""
    i = 1
    while True:
        for j in (1, 2, 5):
            number = i * j
            if timer.timeit(number) >= min_time:
                return number
        i *= 10


SLICES = 5  # a sample is this many short slices, alternated with the other peers of its operation


def samples_per_op(
    timers: dict[K, tuple[timeit.Timer, int]], repeat: int, group_of: Callable[[K], object]
) -> dict[K, list[float]]:
    """`repeat` samples of seconds per operation for each key's (timer, loop count); `group_of(key)` names the
    operation, whose peers are compared with each other (see sample_groups)."""
    groups: dict[object, list[K]] = {}
    for key in timers:
        groups.setdefault(group_of(key), []).append(key)
    return sample_groups(list(groups.values()), timers, repeat)


def sample_groups(
    groups: list[list[K]], timers: dict[K, tuple[timeit.Timer, int]], repeat: int, slices: int = SLICES
) -> dict[K, list[float]]:
    """`repeat` samples of seconds per operation for every key of every group (the peers of one operation).

    A round times each group in turn. Within a group, each peer's sample is `slices` short runs (its loop
    count split in `slices`), alternated with the other peers' runs: A B C A B C ... On this VM the machine's
    speed changes within tens of milliseconds, and a peer whose whole sample fell in a slow patch made that
    round's ratio up to 2x off; alternating short runs puts every peer of a group in the same patches, so the
    per-round ratios (which the targets use) compare like with like. Each round starts one group and one peer
    further on, so that no one always runs first or last.
    """
    samples: dict[K, list[float]] = {key: [] for group in groups for key in group}
    keys = sum(len(group) for group in groups)
    for i in range(repeat):
        progress.step(f"round {i + 1}/{repeat}", total=keys)
        done = 0
        for group in rotated(groups, i):
            gc.collect()  # timeit pauses GC while timing; free the last round's garbage first
            per_slice = {key: max(1, timers[key][1] // slices) for key in group}
            seconds = dict.fromkeys(group, 0.0)
            for s in range(slices):
                for key in rotated(group, i + s):
                    seconds[key] += timers[key][0].timeit(per_slice[key])
            for key in group:
                samples[key].append(seconds[key] / (per_slice[key] * slices))
            done += len(group)
            progress.advance_to(done)
    return samples


def rotated(items: list[T], i: int) -> list[T]:
    """items starting at the i-th (mod its length): round i starts at the i-th contestant, so that no one always
    runs first (cold) or last (after the rest). The timeit sections, the HTTP races and the downloads share it."""
    k = i % len(items) if items else 0
    return items[k:] + items[:k]


def spread(samples: list[float], scale: float = 1.0) -> list[float]:
    """[min, max] of the samples, scaled: printed beside a median so that readers can judge the noise."""
    return [min(samples) * scale, max(samples) * scale]


def median_ratio(samples: dict, num, den) -> float | None:
    """Median over rounds of samples[num] / samples[den], the two taken in the same round (sample_groups), or
    None when either is missing. The targets use it: a ratio of samples taken side by side cancels the machine's
    drift between rounds."""
    if num not in samples or den not in samples:
        return None
    return statistics.median(a / b for a, b in zip(samples[num], samples[den]))


def ratio_note(samples: dict, num, den) -> str:
    """The per-round ratios' min-max and round count, printed beside a target so that its noise shows."""
    if num not in samples or den not in samples:
        return ""
    ratios = [a / b for a, b in zip(samples[num], samples[den])]
    return f"per-round {min(ratios):.2f}-{max(ratios):.2f}, {len(ratios)} rounds"


def make_timer(stmt: str | Callable[[], object], namespace: dict | None = None) -> timeit.Timer:
    return timeit.Timer(stmt, globals=namespace)
