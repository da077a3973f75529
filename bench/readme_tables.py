"""bench/readme_tables.py: writes the latest full `make bench` run into README.md's Benchmarks section.

    .venv/bin/python bench/readme_tables.py            # after a full `make bench`
    .venv/bin/python bench/readme_tables.py --allow-quick   # to try it on a --quick run (says so in the README)

Reads bench/results/<section>.json (the latest run of each section), copies the charts beside them to
docs/bench/, and replaces what is between the README's `<!-- bench:start -->` and `<!-- bench:end -->` lines with
the machine facts, the HTTP races (headline and steady tables, animated charts), a table per struct / JSON
section with its chart, and every section's targets. A --quick run is refused unless --allow-quick is given.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
from report import format_number as number  # noqa: E402

RESULTS = HERE / "results"
DOCS = REPO / "docs" / "bench"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"
SECTION_ORDER = ["http", "https", "h2", "gzip", "structs", "gc", "library", "encode"]  # the HTTP races first
TITLES = {
    "http": "HTTP client race",
    "https": "HTTPS client race (TLS 1.3)",
    "h2": "HTTP/2 client race (TLS 1.3, one connection, 100 streams)",
    "gzip": "HTTP client race, gzip-compressed JSON",
    "structs": "Structs",
    "gc": "Garbage collection",
    "library": "Library comparison",
    "encode": "JSON encode",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--allow-quick", action="store_true", help="accept results of a --quick run")
    parser.add_argument("--readme", type=Path, default=REPO / "README.md")
    a = parser.parse_args()
    runs = load_runs()
    if not runs:
        sys.exit(f"no results in {RESULTS}: run `make bench` first")
    quick = sorted(name for name, data in runs.items() if data.get("quick"))
    if quick and not a.allow_quick:
        sys.exit(f"the latest results of {', '.join(quick)} come from a --quick run; run a full `make bench` "
                 "(or pass --allow-quick)")
    text = a.readme.read_text()
    if START not in text or END not in text:
        sys.exit(f"{a.readme} has no {START} ... {END} block")
    block = render(runs, copy_charts(runs))
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    a.readme.write_text(f"{head}{START}\n{block}{END}{tail}")
    print(f"wrote {len(runs)} section(s) into {a.readme}; charts in {DOCS.relative_to(REPO)}/")
    return 0


def load_runs() -> dict[str, dict]:
    runs = {}
    for name in SECTION_ORDER + sorted(p.stem for p in RESULTS.glob("*.json") if "-" not in p.stem):
        path = RESULTS / f"{name}.json"
        if name not in runs and path.exists():
            runs[name] = json.loads(path.read_text())
    return runs


def copy_charts(runs: dict[str, dict]) -> dict[str, list[str]]:
    """Copies each section's charts to docs/bench/; returns their README-relative paths per section."""
    DOCS.mkdir(parents=True, exist_ok=True)
    charts = {}
    for name in runs:
        found = sorted(RESULTS.glob(f"{name}-*.svg")) + [p for p in [RESULTS / f"{name}.png"] if p.exists()]
        charts[name] = []
        for path in found:  # charts carry no run id: these are the latest run's
            shutil.copy(path, DOCS / path.name)
            charts[name].append(str((DOCS / path.name).relative_to(REPO)))
    return charts


def render(runs: dict[str, dict], charts: dict[str, list[str]]) -> str:
    first = next(iter(runs.values()))
    env = first["environment"]
    run_ids = sorted({data["run_id"] for data in runs.values()})
    lines = [
        f"Latest run{' (a --quick smoke run: fewer rounds, shorter samples)' if any(d.get('quick') for d in runs.values()) else ''}: "
        f"{', '.join(run_ids)} (UTC). Machine: {env.get('CPU')}, {env.get('cores')} cores, {env.get('memory')}; "
        f"Python {str(env.get('Python', '')).split(' ')[0]}; lothc {env.get('lothc')}; nginx {env.get('nginx')}; "
        f"wrk {env.get('wrk')}; load average {env.get('load average')}.",
        "",
        "Versions: " + ", ".join(f"{k} {env[k]}" for k in ("boltwire", "msgspec", "pydantic", "orjson", "structtype",
                                                           "pyreqwest", "wreq", "aiohttp", "httpx", "niquests") if k in env) + ".",
        "",
        "Reproduce with `make bench` (`make bench BENCH_ARGS=--quick` is a smoke run of under 3 minutes); "
        "the full tables and method notes are printed, and saved as JSON in `bench/results/`. "
        "Regenerate a race chart: `.venv/bin/python bench/race_svg.py bench/results/http.json --race async "
        "--out docs/bench/http-async.svg`. Values are medians of interleaved, rotated rounds (the library "
        "comparison's are best-of, as on the seed page); the small figures and min-max are the slowest and fastest "
        "round.",
        "",
    ]
    for name, data in runs.items():
        lines.append(f"### {TITLES.get(name, name)}")
        lines.append("")
        if any(table.get("race") for table in data["tables"]):  # http, https: race tables
            lines += http_section(data, charts.get(name, []))
        else:
            lines += plain_section(data, charts.get(name, []))
        lines += targets(data)
    return "\n".join(lines) + "\n"


def http_section(data: dict, charts: list[str]) -> list[str]:
    out = []
    svgs = {Path(c).stem.split("-")[-1]: c for c in charts if c.endswith(".svg")}
    for table in data["tables"]:
        if not table.get("race"):
            continue
        out += [f"**{table['title']}**", ""]
        if table["kind"] == "headline" and table["race"] in svgs:
            out += [f"![{table['title']}]({svgs[table['race']]})", ""]
        out += ["| Library | req/s | min-max | of ceiling | CPU µs/req | P50 ms | P99 ms | note |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
        for row in reversed(table["rows"]):  # fastest first in the README
            m = row.get("metrics") or {}
            if row.get("value") is None:
                continue
            name = f"**{row['name']}**" if row["name"].startswith("boltwire") else row["name"]
            spread = m.get("spread") or [None, None]
            out.append(
                f"| {name} | {fmt(row['value'], '{:,.0f}')} | {fmt(spread[0], '{:,.0f}')}-{fmt(spread[1], '{:,.0f}')} "
                f"| {fmt(m.get('of_ceiling'), '{:.0%}')} | {fmt(m.get('cpu_us'), '{:.1f}')} | {fmt(m.get('p50'), '{:.2f}')} "
                f"| {fmt(m.get('p99'), '{:.2f}')} | {row.get('note') or ''} |"
            )
        for row in table["rows"]:
            if row.get("value") is None:
                out.append(f"| {row['name']} | - | - | - | - | - | - | {row.get('note') or ''} |")
        out.append("")
    ratios = [n for n in data.get("notes", []) if " = " in n and ("headline" in n.split(":")[0] or "steady" in n.split(":")[0])]
    if ratios:
        out += ["Ratios (median, and the range over rounds):", ""]
        out += [f"- {n}" for n in ratios if "boltwire (Struct)" in n]
        out.append("")
    return out


def plain_section(data: dict, charts: list[str]) -> list[str]:
    """The section's tables grouped by their set of peers: one markdown table per group, operations as rows."""
    out = []
    groups: list[tuple[list[str], list[dict]]] = []
    for table in data["tables"]:
        peers = [r["name"] for r in table["rows"]]
        if groups and groups[-1][0] == peers:
            groups[-1][1].append(table)
        else:
            groups.append((peers, [table]))
    for peers, tables in groups:
        out += ["| | " + " | ".join(peers) + " |", "| --- |" + " ---: |" * len(peers)]
        for table in tables:
            cells = []
            for row in table["rows"]:
                if row.get("value") is None:
                    cells.append(row.get("note") or "-")
                    continue
                ratio = f" ({row['ratio']:.2f}x)" if row.get("ratio") is not None else ""
                value = f"{number(row['value'])} {table['unit']}{ratio}"
                value = f"**{value}**" if row["name"].startswith("boltwire") else value
                if row.get("spread"):  # the slowest and fastest round, under the value
                    value += f"<br><sub>{number(row['spread'][0])}-{number(row['spread'][1])}</sub>"
                cells.append(value)
            out.append(f"| {table['title']} | " + " | ".join(cells) + " |")
        out.append("")
    out += [f"![{data['name']}]({c})" for c in charts if c.endswith(".png")] + [""] if charts else []
    return out


def targets(data: dict) -> list[str]:
    if not data.get("targets"):
        return []
    out = ["<details><summary>Targets</summary>", "", "| target | value | status |", "| --- | ---: | --- |"]
    for t in data["targets"]:
        if t["value"] is None:
            value = "-"
        elif t["unit"] == "x":
            value = f"{t['value']:.2f}x"
        else:
            value = f"{number(t['value'])} {t['unit']}"
        note = f" ({t['note']})" if t.get("note") else ""
        out.append(f"| {t['label']} | {value} | {t['status']}{note} |")
    return out + ["", "</details>", ""]


def fmt(v, spec: str) -> str:
    return "-" if v is None else spec.format(v)


if __name__ == "__main__":
    sys.exit(main())
