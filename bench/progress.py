"""bench/progress.py: the live progress line of `make bench` (section, contestant, round, requests done).

One module-level `progress` object that the sections call; it draws with rich when stdout is a terminal and
rich is installed, and does nothing otherwise (a log file or CI gets only the tables and the per-round lines).

    with progress.running():                  # run.py, around every section
        progress.section("http", steps=30)    # a section and how many steps it will take (or None)
        progress.step("async pyreqwest round 1/3", total=10_000)   # one contestant run; total requests
        progress.advance_to(4_000)            # requests done so far in that run
        progress.log("  async pyreqwest: 52,000 req/s")   # a line kept above the live display
"""

from __future__ import annotations

import contextlib
import sys


class Progress:
    def __init__(self) -> None:
        self._bar = None  # rich.progress.Progress while running on a terminal
        self._section = None
        self._step = None

    @property
    def live(self) -> bool:
        return self._bar is not None

    @contextlib.contextmanager
    def running(self, enabled: bool = True):
        bar = make_bar() if enabled and sys.stdout.isatty() else None
        if bar is None:
            yield self
            return
        self._bar = bar
        try:
            with bar:  # rich redirects print() above the display while it runs
                yield self
        finally:
            self._bar = self._section = self._step = None

    def section(self, name: str, steps: int | None = None) -> None:
        if not self._bar:
            return
        if self._section is not None:
            self._bar.remove_task(self._section)
        if self._step is not None:
            self._bar.remove_task(self._step)
            self._step = None
        self._section = self._bar.add_task(f"[bold]{name}", total=steps)

    def step(self, description: str, total: int | None = None) -> None:
        """Start the next step of the section: counts one step done for the previous one."""
        if not self._bar:
            return
        if self._step is None:
            self._step = self._bar.add_task(description, total=total)
        else:
            self._bar.advance(self._section, 1)
            self._bar.reset(self._step, total=total, description=description)

    def advance_to(self, completed: int) -> None:
        if self._bar and self._step is not None:
            self._bar.update(self._step, completed=completed)

    def log(self, line: str) -> None:
        if self._bar:
            # soft_wrap: a wide table keeps its lines whole (the terminal cuts or wraps them, not rich)
            self._bar.console.print(line, highlight=False, markup=False, soft_wrap=True)
        else:
            print(line, flush=True)


def make_bar():
    try:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    except ImportError:
        return None  # rich is in the bench extra; without it the run is just quiet
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    )


progress = Progress()
