"""bench/race_svg.py: an animated SVG of an HTTP race (the seed page's style) from a results JSON.

Every contestant gets a track; its bar fills the track in a time proportional to 1/throughput (the time the
seed's 10,000 requests took it, scaled so that the slowest row takes at most 8 s), then shows its req/s. The
animation is SMIL (no script), loops with a pause, and renders statically (every bar full) where SMIL is off.

    python bench/race_svg.py bench/results/http.json                       # every race table -> bench/results/
    python bench/race_svg.py bench/results/http-20261201T170000Z.json --race async --out docs/bench/http-async.svg
"""

from __future__ import annotations

import argparse
import json
from html import escape
from pathlib import Path

from charts import COLORS, color

SLOWEST_SECONDS = 8.0  # the slowest bar's fill time at most (real time when the race was shorter)
PAUSE = 2.5  # seconds every bar stays full before the race starts again
WIDTH, LABEL_W, VALUE_W, ROW_H, TOP = 860, 190, 150, 30, 64


def render(table: dict, environment: dict | None = None, requests: int | None = None) -> str:
    """The SVG text for one race table (a table of a results JSON: rows with name, value = req/s, note)."""
    ceiling = table.get("ceiling", "")
    measured = sorted((r for r in table["rows"] if r.get("value")), key=lambda r: -r["value"])  # fastest on top
    missing = [r for r in table["rows"] if not r.get("value")]
    n = requests or 10_000
    slowest = min((r["value"] for r in measured if r["name"] != ceiling), default=1.0)
    scale = min(1.0, SLOWEST_SECONDS / (n / slowest))  # real seconds, shortened when the slowest is slower
    cycle = max(n / r["value"] * scale for r in measured) + PAUSE if measured else PAUSE
    track = WIDTH - LABEL_W - VALUE_W - 20
    height = TOP + ROW_H * (len(measured) + len(missing)) + 46
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="Helvetica, Arial, sans-serif" font-size="13">',
        f"<title>{escape(table['title'])}: each bar fills in the time the contestant took, fastest on top</title>",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="12" y="24" font-size="16" font-weight="bold">{escape(table["title"])}</text>',
        f'<text x="12" y="46" fill="#555">each bar fills in the time its client took for {n:,} requests'
        + (f" (played {1 / scale:.1f}x faster than real time)" if scale < 1 else " (real time)")
        + "; grey = the wrk ceiling on the same server</text>",
    ]
    for i, row in enumerate(measured):
        y = TOP + i * ROW_H
        seconds = n / row["value"] * scale
        f = min(max(seconds / cycle, 0.001), 0.999)
        c = COLORS["ceiling"] if row["name"] == ceiling else color(row["name"])
        weight = ' font-weight="bold"' if row["name"].startswith("boltwire") else ""
        out += [
            f'<text x="{LABEL_W - 8}" y="{y + 19}" text-anchor="end"{weight}>{escape(row["name"])}</text>',
            f'<rect x="{LABEL_W}" y="{y + 5}" width="{track}" height="{ROW_H - 10}" rx="3" fill="#eeeeee"/>',
            f'<rect x="{LABEL_W}" y="{y + 5}" width="{track}" height="{ROW_H - 10}" rx="3" fill="{c}">',
            f'<animate attributeName="width" values="0;{track};{track}" keyTimes="0;{f:.4f};1" '
            f'dur="{cycle:.3f}s" repeatCount="indefinite"/></rect>',
            f'<text x="{LABEL_W + track + 10}" y="{y + 19}"{weight}>{row["value"]:,.0f} req/s'
            f'<animate attributeName="opacity" values="0;1" keyTimes="0;{f:.4f}" calcMode="discrete" '
            f'dur="{cycle:.3f}s" repeatCount="indefinite"/></text>',
        ]
    for j, row in enumerate(missing):
        y = TOP + (len(measured) + j) * ROW_H
        out += [
            f'<text x="{LABEL_W - 8}" y="{y + 19}" text-anchor="end" fill="#888">{escape(row["name"])}</text>',
            f'<text x="{LABEL_W}" y="{y + 19}" fill="#888">{escape(row.get("note") or "no number")[:90]}</text>',
        ]
    if environment:
        facts = [environment.get("CPU", ""), f"{environment.get('cores', '?')} cores",
                 f"Python {str(environment.get('Python', '')).split(' ')[0]}", f"lothc {environment.get('lothc', '-')}",
                 f"nginx {environment.get('nginx', '')}", f"load average {environment.get('load average', '-')}"]
        out.append(f'<text x="12" y="{height - 14}" fill="#777" font-size="11">{escape(", ".join(facts))}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def race_tables(data: dict, kind: str = "headline") -> list[dict]:
    return [t for t in data.get("tables", []) if t.get("race") and t.get("kind") == kind]


def write_all(data: dict, outdir: Path) -> list[Path]:
    """One SVG per race of a section's results (none for a section without races): <section>-<race>.svg."""
    paths = []
    requests = data.get("raw", {}).get("plan", {}).get("requests")
    for table in race_tables(data):
        path = outdir / f"{data['name']}-{table['race']}.svg"
        path.write_text(render(table, data.get("environment"), requests))
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="a results JSON of the http section")
    parser.add_argument("--race", choices=["async", "sync"], help="only this race (needs --out)")
    parser.add_argument("--out", type=Path, help="the SVG to write (default: one per race beside the results)")
    a = parser.parse_args()
    data = json.loads(a.results.read_text())
    if a.race:
        table = next((t for t in race_tables(data) if t["race"] == a.race), None)
        if table is None:
            parser.error(f"{a.results} has no {a.race} race")
        out = a.out or a.results.with_name(f"{data['name']}-{a.race}.svg")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render(table, data.get("environment"), data.get("raw", {}).get("plan", {}).get("requests")))
        print(out)
    else:
        for path in write_all(data, a.out or a.results.parent):
            print(path)


if __name__ == "__main__":
    main()
