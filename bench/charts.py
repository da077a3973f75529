"""bench/charts.py: one PNG per section, a horizontal bar chart per table (whiskers: the slowest and fastest
round); skipped when matplotlib is absent."""

from __future__ import annotations

from pathlib import Path

from report import Section, format_number

# One palette for every chart (PNG and race SVG): boltwire, lothc (the seed page's client), a ceiling, the rest.
COLORS = {"boltwire": "#e8710a", "lothc": "#8e44ad", "ceiling": "#9e9e9e", "other": "#1a73e8"}


def color(name: str) -> str:
    if name.endswith("(ceiling)"):
        return COLORS["ceiling"]
    if name.startswith("boltwire"):
        return COLORS["boltwire"]
    if name.startswith("lothc"):
        return COLORS["lothc"]
    return COLORS["other"]


def draw(section: Section, outdir: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display on CI or over ssh
        import matplotlib.pyplot as plt
    except ImportError:
        return None  # charts are optional; matplotlib is not a dependency

    tables = [t for t in section.tables if any(r.value is not None for r in t.rows)]
    if not tables:
        return None
    fig, axes = plt.subplots(len(tables), 1, figsize=(8, 2.2 + 0.35 * sum(len(t.rows) for t in tables)), squeeze=False)
    for ax, table in zip(axes[:, 0], tables):
        rows = [r for r in table.rows if r.value is not None]
        names = [r.name for r in rows][::-1]  # first row on top
        values = [r.value for r in rows][::-1]
        colors = [color(n) for n in names]
        # Whiskers: the slowest and fastest round, where the table has them.
        spreads = [r.spread or [r.value, r.value] for r in rows][::-1]
        xerr = [[max(0.0, v - s[0]) for v, s in zip(values, spreads)], [max(0.0, s[1] - v) for v, s in zip(values, spreads)]]
        bars = ax.barh(names, values, color=colors, xerr=xerr, error_kw={"elinewidth": 0.8, "capsize": 2})
        ax.bar_label(bars, labels=[format_number(v) for v in values], fontsize=7, padding=2)
        ax.margins(x=0.15)  # room for the labels
        ax.set_title(table.title, fontsize=10)
        ax.set_xlabel(table.unit)
        ax.tick_params(labelsize=8)
    fig.tight_layout()
    path = outdir / f"{section.name}.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
