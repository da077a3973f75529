"""bench/bench_http.py: the HTTP client race of the seed page (000_f12f854f8308b29e), against a private nginx.

Procedure (the seed's): nginx on 127.0.0.1 answers `GET /` with the seed's 523-byte JSON, keep-alive.
    async race: 10,000 requests at concurrency 100, after 1,000 untimed warm-up requests;
    sync race: 10,000 sequential requests, after 100 untimed warm-up requests.
Each contestant runs in a process of its own (bench/http_case.py) with a time limit, once per round for time
(rounds interleaved across contestants, medians reported) and once more with tracemalloc on for peak Python
memory. `wrk` against the same nginx gives the ceiling the server allows on this machine; every row shows its
throughput as a fraction of it. A client that is not installed, not built or failing gets a row with the reason.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from http_clients import CLIENTS
from report import Row, Section, Table, Target, format_number

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "http"))  # the nginx helper is shared with the test fixtures
from nginx_server import NginxServer  # noqa: E402

ASYNC_ROWS = [
    "boltwire (dict)", "boltwire (Struct)", "boltwire-msgspec", "boltwire-pydantic",
    "pyreqwest", "wreq", "aiohttp", "httpx", "httpx2", "niquests", "aiosonic",
]
SYNC_ROWS = [
    "boltwire (dict)", "boltwire (Struct)", "boltwire-msgspec", "boltwire-pydantic",
    "pyreqwest", "wreq", "httpx", "httpx2", "niquests", "requests",
]
OURS = "boltwire (Struct)"  # the row the targets name
CONCURRENCY = 100
SLOW_WALL = 15.0  # a contestant whose first round takes longer runs one round only (it is far off the pace)
MEMORY_REQUESTS = 2_000  # timed requests in the tracemalloc pass (the peak settles long before; tracing is slow)


@dataclass
class Plan:
    requests: int
    async_warmup: int
    sync_warmup: int
    rounds: int
    time_limit: float  # seconds of timed requests, after which a slow contestant stops (its row says so)
    timeout: float  # seconds per contestant process, after which it is killed
    wrk_seconds: int


def plan(quick: bool) -> Plan:
    if quick:
        p = Plan(requests=2_000, async_warmup=200, sync_warmup=50, rounds=1, time_limit=20, timeout=120, wrk_seconds=2)
    else:
        p = Plan(
            requests=10_000, async_warmup=1_000, sync_warmup=100, rounds=3, time_limit=60, timeout=300, wrk_seconds=5
        )
    if os.environ.get("BENCH_HTTP_ROUNDS"):
        p.rounds = max(1, int(os.environ["BENCH_HTTP_ROUNDS"]))
    return p


@dataclass
class RaceRow(Row):
    """A row of the race: `value` is throughput (req/s); `metrics` holds the seed's other columns."""

    metrics: dict = field(default_factory=dict)


COLUMNS = [  # (header, metrics key, format)
    ("Total (s)", "total_s", "{:.2f}"),
    ("req/s", "throughput", "{:,.0f}"),
    ("Rel (x)", "relative", "{:.2f}"),
    ("CPU (s)", "cpu_s", "{:.2f}"),
    ("PyMem (MiB)", "peak_mib", "{:.2f}"),
    ("Min (ms)", "min", "{:.2f}"),
    ("P50", "p50", "{:.2f}"),
    ("P95", "p95", "{:.2f}"),
    ("P99", "p99", "{:.2f}"),
    ("Max", "max", "{:.2f}"),
    ("Mean", "mean", "{:.2f}"),
    ("of wrk", "of_wrk", "{:.1%}"),
]


@dataclass
class RaceTable(Table):
    """The seed's wide table: rows sorted slowest to fastest, `Rel (x)` relative to the slowest row."""

    def format(self) -> str:
        width = max(len(r.name) for r in self.rows) + 2
        head = f"{'Library':<{width}}" + "".join(f"{h:>{max(9, len(h) + 2)}}" for h, _, _ in COLUMNS)
        lines = [self.title, "-" * len(head), head]
        for row in self.rows:
            if row.value is None:
                lines.append(f"{row.name:<{width}}  {row.note}")
                continue
            cells = []
            for h, key, fmt in COLUMNS:
                v = row.metrics.get(key)
                cells.append(f"{(fmt.format(v) if v is not None else '-'):>{max(9, len(h) + 2)}}")
            lines.append(f"{row.name:<{width}}" + "".join(cells) + (f"  {row.note}" if row.note else ""))
        return "\n".join(lines)


def selected(names: list[str]) -> list[str]:
    """BENCH_HTTP_CLIENTS="pyreqwest,boltwire (Struct)" runs only those rows (like the seed's --libs)."""
    wanted = os.environ.get("BENCH_HTTP_CLIENTS")
    if not wanted:
        return names
    keep = {w.strip() for w in wanted.split(",") if w.strip()}
    return [n for n in names if n in keep]


def run(args) -> Section:
    p = plan(args.quick)
    with NginxServer() as server:
        wrk = run_wrk(server.url, p.wrk_seconds)
        races = {
            "async": (selected(ASYNC_ROWS), p.async_warmup, CONCURRENCY),
            "sync": (selected(SYNC_ROWS), p.sync_warmup, 1),
        }
        raw: dict = {"wrk": wrk, "plan": p.__dict__}
        tables = []
        for mode, (names, warmup, concurrency) in races.items():
            results = race(server.url, mode, names, p, warmup, concurrency)
            raw[mode] = results
            title = (
                f"Async race: {p.requests:,} requests at concurrency {concurrency} after {warmup:,} warm-up"
                if mode == "async"
                else f"Sync race: {p.requests:,} sequential requests after {warmup:,} warm-up"
            )
            tables.append(race_table(title, results, p.requests, wrk.get("rps"), p.time_limit))
    notes = method_notes(p, wrk) + ratio_notes(tables)
    return Section("http", tables, targets(tables), notes, raw=raw)


def race(url: str, mode: str, names: list[str], p: Plan, warmup: int, concurrency: int) -> dict[str, dict]:
    """Interleaved rounds of one process per contestant; then one tracemalloc pass each."""
    results: dict[str, dict] = {name: {"samples": []} for name in names}
    for i in range(p.rounds):
        for name in names:
            r = results[name]
            if "error" in r or r.get("one_round"):
                continue
            print(f"  {mode} {name}: round {i + 1}/{p.rounds}", end="", flush=True)
            out = run_case(name, mode, url, p.requests, warmup, concurrency, "time", p.timeout, p.time_limit)
            if "error" in out:
                r["error"], r["version"] = out["error"], out.get("version")
                print(f"  -> {out['error']}", flush=True)
                continue
            r["version"] = out.get("version")
            r["samples"].append(out)
            partial = f" (stopped at the time limit after {out['completed']:,})" if out["completed"] < p.requests else ""
            print(f"  -> {out['completed'] / out['wall']:,.0f} req/s{partial}", flush=True)
            if out["wall"] > SLOW_WALL:
                r["one_round"] = True
    for name in names:
        r = results[name]
        if "error" in r:
            continue
        n_mem = min(p.requests, MEMORY_REQUESTS)
        out = run_case(name, mode, url, n_mem, warmup, concurrency, "memory", p.timeout, p.time_limit)
        r["peak_bytes"] = out.get("peak_bytes")
        if "error" in out:
            r["memory_error"] = out["error"]
    return results


def run_case(
    name: str, mode: str, url: str, n: int, warmup: int, concurrency: int, what: str, timeout: float, limit: float
) -> dict:
    script = str(HERE / "http_case.py")
    cmd = [sys.executable, script, name, mode, url, str(n), str(warmup), str(concurrency), what, str(limit)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f}s"}
    for line in reversed(proc.stdout.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)  # the case exits hard after printing: its exit code says nothing more
    tail = (proc.stderr.strip().splitlines() or [""])[-1]
    return {"error": f"crashed (exit {proc.returncode}) {tail}"[:160]}


def race_table(title: str, results: dict[str, dict], n: int, wrk_rps: float | None, limit: float) -> RaceTable:
    measured, missing = [], []
    for name, r in results.items():
        if "error" in r or not r["samples"]:
            missing.append(RaceRow(name, None, r.get("error", "no sample")))
            continue
        samples = r["samples"]
        wall = statistics.median(s["wall"] for s in samples)
        throughput = statistics.median(s["completed"] / s["wall"] for s in samples)
        completed = min(s["completed"] for s in samples)
        metrics = {
            "total_s": wall,
            "throughput": throughput,
            "cpu_s": statistics.median(s["cpu"] for s in samples),
            "peak_mib": r["peak_bytes"] / 2**20 if r.get("peak_bytes") is not None else None,
        }
        for key in ("min", "p50", "p95", "p99", "max", "mean"):
            metrics[key] = statistics.median(s["latency_ms"][key] for s in samples)
        metrics["of_wrk"] = metrics["throughput"] / wrk_rps if wrk_rps else None
        notes = []
        if completed < n:
            notes.append(f"partial: {completed:,} of {n:,} requests in the {limit:.0f}s limit")
        if r.get("memory_error"):
            notes.append(f"memory pass: {r['memory_error']}")
        note = "; ".join(notes)
        measured.append(RaceRow(name, metrics["throughput"], note, metrics))
    measured.sort(key=lambda row: row.value)  # slowest first, as on the seed page
    slowest = measured[0] if measured else None
    for row in measured:
        row.metrics["relative"] = row.value / slowest.value
    return RaceTable(title, "req/s", measured + missing, slowest.name if slowest else None)


def run_wrk(url: str, seconds: int) -> dict:
    binary = shutil.which("wrk")
    if binary is None:
        return {"error": "wrk not installed (Debian package wrk; `make bench` installs it)"}
    cmd = [binary, "-t2", f"-c{CONCURRENCY}", f"-d{seconds}s", "--latency", url + "/"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 30)
    except subprocess.TimeoutExpired:
        return {"error": "wrk timed out"}
    m = re.search(r"Requests/sec:\s*([\d.]+)", proc.stdout)
    if proc.returncode != 0 or not m:
        return {"error": f"wrk failed: {(proc.stderr or proc.stdout).strip()[-160:]}"}
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: .*", proc.stdout)
    return {"rps": float(m.group(1)), "command": " ".join(["wrk", *cmd[1:]]), "errors": errors.group(0) if errors else None}


def row_of(table: Table, name: str) -> RaceRow | None:
    return next((r for r in table.rows if r.name == name and r.value is not None), None)


def ratio_notes(tables: list[RaceTable]) -> list[str]:
    """boltwire's throughput as a multiple of pyreqwest's and wreq's, per race and per boltwire row."""
    lines = []
    for table in tables:
        race_name = table.title.split(":")[0]
        ours = [n for n in ("boltwire (dict)", "boltwire (Struct)", "boltwire-msgspec", "boltwire-pydantic")]
        if not any(row_of(table, n) for n in ours):
            why = next((r.note for r in table.rows if r.name in ours), "no row")
            lines.append(f"{race_name}: no boltwire/pyreqwest or boltwire/wreq ratio: boltwire {why}")
            continue
        for name in ours:
            mine = row_of(table, name)
            parts = []
            for peer in ("pyreqwest", "wreq"):
                theirs = row_of(table, peer)
                parts.append(f"{mine.value / theirs.value:.2f}x {peer}" if mine and theirs else f"- {peer}")
            lines.append(f"{race_name}: {name} throughput = " + ", ".join(parts))
    return lines


def method_notes(p: Plan, wrk: dict) -> list[str]:
    if "rps" in wrk:
        ceiling = f"wrk ceiling: {format_number(wrk['rps'])} req/s ({wrk['command']})" + (
            f"; {wrk['errors']}" if wrk.get("errors") else ""
        )
    else:
        ceiling = f"wrk ceiling: {wrk['error']}"
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return [
        ceiling,
        "nginx: 1 worker process, keep-alive, GET / = the seed's 523-byte JSON (tests/http/nginx/)",
        f"each contestant in its own process; median of {p.rounds} interleaved round(s) (one round for a contestant "
        f"whose first took over {SLOW_WALL:.0f}s); a contestant still running after {p.time_limit:.0f}s of timed "
        "requests stops there and its row is marked partial; timed part only; "
        "CPU = process CPU time (all threads) during the timed part; latency per request in ms",
        f"PyMem: peak of tracemalloc over warm-up + {min(p.requests, MEMORY_REQUESTS):,} requests, in a separate "
        "process (memory Python allocates; a native client's own buffers are not in it)",
        "every warm-up response is decoded and checked deeply; every timed response must be status 200",
        f"machine: {os.cpu_count()} CPUs shared by client, nginx (and wrk); load average at the end {load}",
    ]


def targets(tables: list[RaceTable]) -> list[Target]:
    async_t, sync_t = tables
    out = []

    def at_least(label: str, table: RaceTable, peer: str, factor: float) -> Target:
        mine, theirs = row_of(table, OURS), row_of(table, peer)
        if not mine or not theirs:
            return Target(label, None, factor, note="no number" if theirs else f"{peer} has no number")
        ratio = mine.value / theirs.value
        return Target(label, ratio, factor, ok=round(ratio, 2) >= factor)

    def at_most(label: str, table: RaceTable, key: str, unit_note: str) -> Target:
        mine, theirs = row_of(table, OURS), row_of(table, "pyreqwest")
        a = mine.metrics.get(key) if mine else None
        b = theirs.metrics.get(key) if theirs else None
        if a is None or not b:
            return Target(label, None, 1.0, note="no number")
        return Target(label, a / b, 1.0, note=unit_note.format(a=a, b=b))

    out.append(at_least("async Struct throughput >= 1.3x pyreqwest", async_t, "pyreqwest", 1.3))
    out.append(at_least("async Struct throughput >= 1.0x wreq", async_t, "wreq", 1.0))
    out.append(at_least("sync Struct throughput >= 1.3x pyreqwest", sync_t, "pyreqwest", 1.3))
    out.append(at_most("async Struct p99 <= pyreqwest", async_t, "p99", "{a:.2f} ms vs {b:.2f} ms"))
    out.append(at_most("async Struct peak PyMem <= pyreqwest", async_t, "peak_mib", "{a:.2f} vs {b:.2f} MiB"))
    return out
