"""bench/report.py: the result types every section returns, and their text and JSON forms."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field


@dataclass
class Row:
    name: str
    value: float | None  # None when there is no number; `note` says why
    note: str = ""  # "not installed", "N/A", an error message
    spread: list[float] | None = None  # [min, max] over the rounds, in the table's unit


@dataclass
class Table:
    """One measured quantity across peers, printed like the seed page: value and ratio to a baseline row."""

    title: str
    unit: str  # printed after each value: "μs", "ms", "MiB", "B"
    rows: list[Row]
    baseline: str | None = "msgspec"  # ratios are relative to this row, measured in the same run

    def baseline_value(self) -> float | None:
        for row in self.rows:
            if row.name == self.baseline and row.value:
                return row.value
        return None

    def ratio(self, row: Row) -> float | None:
        base = self.baseline_value()
        return row.value / base if base and row.value is not None else None

    def format(self) -> str:
        width = max(len(r.name) for r in self.rows) + 2
        spread_note = "  [min-max over rounds]" if any(r.spread for r in self.rows) else ""
        lines = [self.title + spread_note, "-" * 64]
        for row in self.rows:
            if row.value is None:
                lines.append(f"  {row.name:<{width}}{row.note}")
                continue
            ratio = self.ratio(row)
            rel = f"({ratio:.2f}x)" if ratio is not None else ""
            rng = f"[{format_number(row.spread[0])}-{format_number(row.spread[1])}]" if row.spread else ""
            extra = f"  {row.note}" if row.note else ""
            line = f"  {row.name:<{width}}{format_number(row.value):>10} {self.unit:<4} {rel:<10}{rng}{extra}"
            lines.append(line.rstrip())
        return "\n".join(lines)


@dataclass
class Target:
    """A goal from the brief: `value <= limit`. A miss is reported, never fatal."""

    label: str
    value: float | None
    limit: float
    unit: str = "x"  # "x" for a ratio to msgspec, otherwise a unit such as "B"
    note: str = ""
    ok: bool | None = None  # set only to override the plain comparison (e.g. below timer noise)

    @property
    def status(self) -> str:
        if self.value is None:
            return "N/A"
        # A ratio is judged as printed (2 decimals), so that "1.00x" never reads as a miss.
        value = round(self.value, 2) if self.unit == "x" else self.value
        ok = self.ok if self.ok is not None else value <= self.limit
        return "PASS" if ok else "MISS"

    def format(self, width: int) -> str:
        if self.value is None:
            shown = "-"
        elif self.unit == "x":
            shown = f"{self.value:.2f}x"
        else:
            shown = f"{format_number(self.value)} {self.unit}"
        note = f"  ({self.note})" if self.note else ""
        return f"  {self.label:<{width}}{shown:>12}   {self.status}{note}"


@dataclass
class Section:
    name: str
    tables: list[Table]
    targets: list[Target] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # method notes printed under the tables
    raw: dict = field(default_factory=dict)  # raw samples, saved in the JSON only, for judging the noise

    def format(self) -> str:
        parts = [t.format() for t in self.tables]
        if self.notes:
            parts.append("\n".join(f"note: {n}" for n in self.notes))
        if self.targets:
            width = max(len(t.label) for t in self.targets) + 2
            lines = [f"Targets ({self.name})", "-" * 64]
            lines += [t.format(width) for t in self.targets]
            parts.append("\n".join(lines))
        return "\n\n".join(parts)

    def to_json(self) -> dict:
        data = asdict(self)
        for table, out in zip(self.tables, data["tables"]):
            for row, row_out in zip(table.rows, out["rows"]):
                row_out["ratio"] = table.ratio(row)
        for target, out in zip(self.targets, data["targets"]):
            out["status"] = target.status
        return data


def format_number(v: float) -> str:
    # Three significant digits, never scientific notation: 0.000561, 0.0853, 1.27, 12.7, 127.
    if v >= 100 or v == 0:
        return f"{v:.0f}"
    return f"{v:.{2 - math.floor(math.log10(abs(v)))}f}"
