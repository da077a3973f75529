"""bench/bench_http.py: the HTTP client race of the seed page (000_f12f854f8308b29e), against a private nginx.

Procedure (the seed's, the headline tables): nginx on 127.0.0.1 answers `GET /` with the seed's 523-byte JSON,
keep-alive.
    async race: 10,000 requests at concurrency 100, after 1,000 untimed warm-up requests;
    sync race: 10,000 sequential requests, after 100 untimed warm-up requests.
A row whose timed part lasts under 2 s also runs a steady pass (up to 200,000 requests, stopped after 3 s), the
figure the targets use: 10,000 requests take a fast client 0.2 s, too short to be steady. Each contestant runs
in a process of its own (bench/http_case.py; lothc's rows under the lothc venv's Python >= 3.13), once per
round (rounds interleaved and rotated; median reported, min-max printed), and once more with tracemalloc on for
peak Python memory. `wrk` against the same nginx, as one more contestant of every round, gives each race its
ceiling (`-c100` async, `-t1 -c1` sync); every row shows its share of it and its CPU time per request.
The plain sync race also runs `C blocking client (floor)` (bench/floor_client.c) in every round: the least CPU
per request a sequential client can spend here, which on an idle VM is mostly the kernel's round trip.
In the sync race's steady pass, each run of a row is paired with a wrk run of the same length just before or after
it, and the row's share of the ceiling is the median of its per-pair ratios (http_race.PAIRED: why). Each sync run
records how much of it the client spent on nginx's CPU (`1 CPU`, http_race.Placement), and every client process
notes its progress every half second (`late/early`: did it slow down as it ran).
A client that is not installed, cannot run or fails gets a row with the reason.

The protocol is a parameter: each entry of PROTOCOLS is a section of bench/run.py (`--only http,https`) with its
own rows. `https` gives the same nginx server block a TLS 1.3 listener (certificate from a CA that trustme makes
at start; every client trusts it by its own option) and runs both races over it, with wrk over https as the
ceiling; its `boltwire (Struct) over plain http` row runs in the same rounds against the plain listener, so that
the cost of TLS is read off one table. A new protocol (h2) is one more Protocol entry and its rows.
`h2` is the async race over HTTP/2: a third nginx listener (TLS 1.3, h2 offered by ALPN), each client asked for
h2 by its own option (boltwire: one connection carrying the 100 concurrent requests as streams) and checked to
have got it before its warm-up (a row that did not is left out with the reason); the ceiling is h2load with one
connection and 100 streams (wrk over https, HTTP/1.1, for reference when h2load is missing).
`gzip` (async race only) GETs /gzipped, where the same nginx compresses the JSON (`gzip on`, level 1) and answers
406 to a request that does not accept gzip, so every row that finishes really received and decoded gzip; wrk sends
`Accept-Encoding: gzip` (and does not decode) as the ceiling.
"""

from __future__ import annotations

import os
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from http_clients import Endpoint
from http_race import (
    CEILINGS, FLOOR, PLACEMENT_EVERY, SEED_REQUESTS, STEADY_BELOW, Contestant, Plan, ceiling_for, paired_seconds,
    run_race, steps,
)
from progress import progress
from report import Row, Section, Table, Target

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "http"))  # the nginx helper is shared with the test fixtures
from nginx_server import NginxServer  # noqa: E402

OURS_ALL = ["boltwire (dict)", "boltwire (Struct)", "boltwire-msgspec", "boltwire-pydantic"]
LOTHC = ["lothc", "lothc-msgspec", "lothc-pydantic"]
ASYNC_ROWS = [*OURS_ALL, *LOTHC, "pyreqwest", "wreq", "aiohttp", "httpx", "httpx2", "niquests", "aiosonic"]
SYNC_ROWS = [*OURS_ALL, *LOTHC, "pyreqwest", "wreq", "httpx", "httpx2", "niquests", "requests"]
OURS = "boltwire (Struct)"  # the row the targets name
PLAIN_TWIN = "boltwire (Struct) over plain http"  # OURS against the plain listener, in an https race's rounds
PEERS_FOR_RATIOS = ["lothc-msgspec", "lothc", "pyreqwest", "wreq", PLAIN_TWIN]


@dataclass(frozen=True)
class Protocol:
    """A race's wire protocol: the bench/run.py section that runs it, its rows, and how they reach nginx."""

    section: str  # "http", "https"
    label: str  # table titles start with it ("" for the plain race, whose titles predate the others)
    async_rows: list[str]
    sync_rows: list[str]
    tls: bool = False  # nginx gets its TLS listener; rows use its https URL and trust the bench's CA
    http2: bool = False  # rows use nginx's h2 listener (TLS, ALPN) and must get HTTP/2
    path: str = "/"  # what every request GETs
    wrk_headers: tuple[str, ...] = ()  # what the ceiling adds to each request


PROTOCOLS = {
    "http": Protocol("http", "", ASYNC_ROWS, SYNC_ROWS),
    "https": Protocol(
        "https", "HTTPS (TLS 1.3)",
        [OURS, PLAIN_TWIN, "pyreqwest", "wreq", "aiohttp", "httpx", "niquests"],
        [OURS, PLAIN_TWIN, "pyreqwest", "wreq", "httpx", "niquests", "requests"],
        tls=True,
    ),
    "h2": Protocol(
        "h2", "HTTP/2 (TLS 1.3, h2 by ALPN)", [OURS, "pyreqwest", "wreq", "httpx", "niquests"], [],
        tls=True, http2=True,
    ),
    "gzip": Protocol(
        "gzip", "gzip", [OURS, "pyreqwest", "wreq", "aiohttp", "httpx"], [],
        path="/gzipped", wrk_headers=("Accept-Encoding: gzip",),
    ),
}
ALL_ROWS = list(dict.fromkeys(r for proto in PROTOCOLS.values() for r in proto.async_rows + proto.sync_rows))


def plan(args) -> Plan:
    if args.quick:
        p = Plan(
            requests=2_000, async_warmup=200, sync_warmup=50, rounds=1, steady_requests=20_000, steady_limit=0.5,
            memory_requests=300, time_limit=2, timeout=60, wrk_seconds=1, concurrency=100, uvloop=args.uvloop,
        )
    else:
        p = Plan(
            requests=10_000, async_warmup=1_000, sync_warmup=100, rounds=3, steady_requests=200_000,
            steady_limit=3.0, memory_requests=2_000, time_limit=60, timeout=300, wrk_seconds=3, concurrency=100,
            uvloop=args.uvloop,
        )
    if args.rounds:
        p.rounds = args.rounds
    return p


def selected(names: list[str], libs: list[str] | None) -> list[str]:
    """--libs "pyreqwest,boltwire (Struct)" runs only those rows (like the seed's --libs); the ceiling always runs,
    and so does the plain-http twin of boltwire (Struct) when that row runs."""
    return names if not libs else [n for n in names if n in libs or (n == PLAIN_TWIN and OURS in libs)]


@dataclass
class RaceRow(Row):
    """A row of a race: `value` is the median throughput (req/s); `metrics` holds the other columns."""

    metrics: dict = field(default_factory=dict)


HEADLINE_COLUMNS = [  # (header, metrics key, format); the seed's columns, plus spread, ceiling share, CPU/request
    ("Total (s)", "total_s", "{:.2f}"),
    ("req/s", "throughput", "{:,.0f}"),
    ("min-max", "spread", "range"),
    ("Rel (x)", "relative", "{:.2f}"),
    ("of ceil", "of_ceiling", "{:.1%}"),
    ("CPU (s)", "cpu_s", "{:.2f}"),
    ("CPU µs/req", "cpu_us", "{:.1f}"),
    ("user µs", "user_us", "{:.1f}"),
    ("1 CPU", "same_cpu", "{:.0%}"),
    ("PyMem (MiB)", "peak_mib", "{:.2f}"),
    ("Min (ms)", "min", "{:.2f}"),
    ("P50", "p50", "{:.2f}"),
    ("P95", "p95", "{:.2f}"),
    ("P99", "p99", "{:.2f}"),
    ("Max", "max", "{:.2f}"),
    ("Mean", "mean", "{:.2f}"),
]
STEADY_COLUMNS = [
    ("Requests", "requests", "{:,.0f}"),
    ("Total (s)", "total_s", "{:.2f}"),
    ("req/s", "throughput", "{:,.0f}"),
    ("min-max", "spread", "range"),
    ("of ceil", "of_ceiling", "{:.1%}"),
    ("CPU µs/req", "cpu_us", "{:.1f}"),
    ("user µs", "user_us", "{:.1f}"),
    ("1 CPU", "same_cpu", "{:.0%}"),
    ("late/early", "drift", "{:.2f}"),
    ("P50 (ms)", "p50", "{:.2f}"),
    ("P99", "p99", "{:.2f}"),
    ("Max", "max", "{:.2f}"),
]


@dataclass
class RaceTable(Table):
    """The seed's wide table: rows sorted slowest to fastest, the ceiling last, `Rel (x)` to the slowest row."""

    race: str = "async"  # "async" or "sync"
    kind: str = "headline"  # "headline" (the seed's procedure) or "steady"
    ceiling: str = ""  # the name of the ceiling row

    def columns(self) -> list[tuple[str, str, str]]:
        return HEADLINE_COLUMNS if self.kind == "headline" else STEADY_COLUMNS

    def format(self) -> str:
        width = max(len(r.name) for r in self.rows) + 2
        cols = self.columns()
        widths = [max(9, len(h) + 2) if fmt != "range" else 15 for h, _, fmt in cols]
        head = f"{'Library':<{width}}" + "".join(f"{h:>{w}}" for (h, _, _), w in zip(cols, widths))
        lines = [self.title, "-" * len(head), head]
        for row in self.rows:
            if row.value is None:
                lines.append(f"{row.name:<{width}}  {row.note}")
                continue
            cells = [f"{cell(row.metrics.get(key), fmt):>{w}}" for (_, key, fmt), w in zip(cols, widths)]
            lines.append(f"{row.name:<{width}}" + "".join(cells) + (f"  {row.note}" if row.note else ""))
        return "\n".join(lines)


def cell(v, fmt: str) -> str:
    if v is None:
        return "-"
    if fmt == "range":
        return f"{compact(v[0])}-{compact(v[1])}"
    return fmt.format(v)


def compact(rate: float) -> str:
    """req/s in at most 5 characters: 873, 5.04k, 48.1k, 112k."""
    if rate < 1_000:
        return f"{rate:.0f}"
    k = rate / 1e3
    return f"{k:.2f}k" if k < 10 else f"{k:.1f}k" if k < 100 else f"{k:.0f}k"


def run(args) -> Section:
    """The races of one protocol: the section bench/run.py is running (`args.section`, "http" by default)."""
    proto = PROTOCOLS[getattr(args, "section", "http")]
    p = plan(args)
    p.wrk_headers = proto.wrk_headers
    races = {"async": selected(proto.async_rows, args.libs), "sync": selected(proto.sync_rows, args.libs)}
    races = {mode: names for mode, names in races.items() if names}  # h2, gzip: the async race only
    unknown = sorted(set(args.libs or []) - set(ALL_ROWS))
    if unknown:
        progress.log(f"--libs: no such row(s) {', '.join(unknown)}; rows: {', '.join(ALL_ROWS)}")
    progress.section(proto.section, steps(p, len(races.get("async", [])), len(races.get("sync", []))))
    raw: dict = {"plan": p.__dict__}
    tables: list[RaceTable] = []
    with NginxServer(tls=proto.tls, http2=proto.http2) as server:
        plain = Endpoint(server.url)
        if proto.http2:
            target = Endpoint(server.h2_url, str(server.ca_file), http2=True)
        elif proto.tls:
            target = Endpoint(server.tls_url, str(server.ca_file), proto.path)
        else:
            target = Endpoint(server.url, path=proto.path)
        for mode, names in races.items():
            rows = {n: Contestant(OURS, plain) if n == PLAIN_TWIN else Contestant(n, target) for n in names}
            results = run_race(target, mode, rows, p, server.worker_pids())
            raw[mode] = results
            loop = " on uvloop" if p.uvloop and mode == "async" else ""
            if mode == "async":
                what = f"{p.requests:,} requests at concurrency {p.concurrency}{loop} after {p.async_warmup:,} warm-up"
            else:
                what = f"{p.requests:,} sequential requests after {p.sync_warmup:,} warm-up"
            race = f"{proto.label} {mode} race" if proto.label else f"{mode.capitalize()} race"
            ceiling = ceiling_for(mode, target).name
            tables.append(race_table(f"{race}: {what}", results, mode, "headline", p, ceiling))
            steady_what = f"up to {p.steady_requests:,} requests, stopped after {p.steady_limit:g} s"
            steady = race_table(f"{race}, steady pass ({steady_what})", results, mode, "steady", p, ceiling)
            if any(r.value is not None and r.name != steady.ceiling for r in steady.rows):
                tables.append(steady)
    notes = method_notes(p, raw, proto) + ratio_notes(tables)
    chosen = {"https": https_targets, "h2": h2_targets, "gzip": gzip_targets}.get(proto.section, targets)(tables)
    return Section(proto.section, tables, chosen, notes, raw=raw)


def race_table(
    title: str, results: dict[str, dict], mode: str, kind: str, p: Plan, ceiling: str | None = None
) -> RaceTable:
    ceiling = ceiling or CEILINGS[mode].name
    measured, missing = [], []
    for name, r in results.items():
        samples = r["samples"] if kind == "headline" else r["steady"]
        if not samples:
            if kind == "headline":
                missing.append(RaceRow(name, None, r.get("error", "no sample")))
            continue
        metrics = summarize(samples)
        if kind == "headline" and name != ceiling:
            metrics["peak_mib"] = r["peak_bytes"] / 2**20 if r.get("peak_bytes") is not None else None
        notes = []
        if kind == "headline" and name != ceiling and min(s["completed"] for s in samples) < p.requests:
            notes.append(f"partial: stopped at the {p.time_limit:.0f}s limit")
        if r.get("one_round") and kind == "headline":
            notes.append("1 round (slow)")
        if r.get("memory_error"):
            notes.append(f"memory pass: {r['memory_error']}")
        if r.get("error"):  # failed in a later round or pass
            notes.append(r["error"])
        if r.get("python") and name.startswith("lothc"):
            notes.append(f"lothc {r.get('version')}, Python {r['python']}")
        measured.append(RaceRow(name, metrics["throughput"], "; ".join(notes), metrics["spread"], metrics=metrics))
    ceiling_row = next((row for row in measured if row.name == ceiling), None)
    rows = sorted((row for row in measured if row.name != ceiling), key=lambda row: row.value)  # slowest first
    slowest = rows[0] if rows else None
    for row in rows + ([ceiling_row] if ceiling_row else []):
        row.metrics["relative"] = row.value / slowest.value if slowest else None
        row.metrics["of_ceiling"] = row.value / ceiling_row.value if ceiling_row else None
        pairs = row.metrics.get("paired")
        if pairs and row is not ceiling_row:  # the sync steady pass (http_race.PAIRED): median of per-pair ratios
            row.metrics["of_ceiling"] = statistics.median(pairs)
            paired_note = f"paired with the ceiling: {min(pairs):.0%}-{max(pairs):.0%}"
            row.note = "; ".join(filter(None, [row.note, paired_note]))
    if ceiling_row:
        rows.append(ceiling_row)
    return RaceTable(title, "req/s", rows + missing, slowest.name if slowest else None, mode, kind, ceiling)


def summarize(samples: list[dict]) -> dict:
    """Medians over rounds; spread is the min and max throughput of the rounds."""
    rates = [s["completed"] / s["wall"] for s in samples]
    # the user-mode part of the CPU (the rest is the kernel's): what a client's own code costs per request
    users = [s["user"] / s["completed"] * 1e6 for s in samples if s.get("user") is not None]
    shared = [s["same_cpu"] for s in samples if s.get("same_cpu") is not None]
    drifts = [d for d in (drift(s) for s in samples) if d is not None]
    paired = [s["completed"] / s["wall"] / s["paired_ceiling"] for s in samples if s.get("paired_ceiling")]
    metrics = {
        "rounds": len(samples),
        "requests": statistics.median(s["completed"] for s in samples),
        "total_s": statistics.median(s["wall"] for s in samples),
        "throughput": statistics.median(rates),
        "spread": [min(rates), max(rates)],
        "cpu_s": statistics.median(s["cpu"] for s in samples),
        "cpu_us": statistics.median(s["cpu"] / s["completed"] * 1e6 for s in samples),
        "user_us": statistics.median(users) if users else None,
        "same_cpu": statistics.median(shared) if shared else None,
        "drift": statistics.median(drifts) if drifts else None,
        "paired": paired,  # each run's throughput over that of the ceiling run paired with it (sync steady pass)
    }
    for key in ("min", "p50", "p95", "p99", "max", "mean"):
        values = [s["latency_ms"][key] for s in samples if s["latency_ms"].get(key) is not None]
        metrics[key] = statistics.median(values) if values else None
    return metrics


def drift(sample: dict) -> float | None:
    """A contestant's throughput in the last second of its timed part over that in its first second, from the
    counts it recorded every half second (bench/http_case.py `marks`); None for a run shorter than 2 s. Below 1:
    it slowed down as it ran."""
    marks = sample.get("marks") or []
    if len(marks) < 4:
        return None
    first, last = marks[1], marks[-1] - marks[-3]
    return last / first if first else None


# -- ratios and targets


def row_of(table: Table, name: str) -> RaceRow | None:
    return next((r for r in table.rows if r.name == name and r.value is not None), None)


def best_table(tables: list[RaceTable], race: str, name: str) -> RaceTable | None:
    """The steady table when the row ran the steady pass, else the headline one."""
    for kind in ("steady", "headline"):
        for t in tables:
            if t.race == race and t.kind == kind and row_of(t, name):
                return t
    return None


def ratio_notes(tables: list[RaceTable]) -> list[str]:
    """boltwire's throughput as a multiple of lothc's, pyreqwest's and wreq's (median and range over rounds)."""
    lines = []
    for table in tables:
        label = f"{table.race} {table.kind}"
        ours = [n for n in OURS_ALL if row_of(table, n)]
        if not ours:
            if table.kind == "headline":
                why = next((r.note for r in table.rows if r.name in OURS_ALL), "no row")
                lines.append(f"{label}: no boltwire ratios: boltwire {why}")
            continue
        for name in ours:
            mine = row_of(table, name)
            parts = []
            for peer in PEERS_FOR_RATIOS:
                theirs = row_of(table, peer)
                if theirs:
                    lo, hi = mine.metrics["spread"][0] / theirs.metrics["spread"][1], mine.metrics["spread"][1] / theirs.metrics["spread"][0]
                    parts.append(f"{mine.value / theirs.value:.2f}x {peer} ({lo:.2f}-{hi:.2f})")
            if parts:
                lines.append(f"{label}: {name} = " + ", ".join(parts))
    if lines:
        lines.append("ratio ranges: slowest round of one against fastest of the other, and the reverse")
    return lines


def at_least(tables: list[RaceTable], label: str, race: str, peer: str, factor: float) -> Target:
    """OURS's throughput / `peer`'s in the same table (steady where both ran it) is at least `factor`."""
    t = best_table(tables, race, OURS)
    if t is None or not row_of(t, peer):
        t = next(t for t in tables if t.race == race and t.kind == "headline")
    mine, theirs = row_of(t, OURS), row_of(t, peer)
    if not mine or not theirs:
        return Target(label, None, factor, note="no number" if theirs else f"{peer} has no number")
    ratio = mine.value / theirs.value
    return Target(label, ratio, factor, note=f"{t.kind} pass", ok=round(ratio, 2) >= factor)


def https_targets(tables: list[RaceTable]) -> list[Target]:
    """Issue 10: boltwire (Struct) over https >= 2x pyreqwest, and >= 80% of its own plain-http throughput."""
    out = [at_least(tables, "https async Struct throughput >= 2.0x pyreqwest", "async", "pyreqwest", 2.0)]
    share = at_least(tables, "https async Struct >= 80% of plain http (same rounds)", "async", PLAIN_TWIN, 0.80)
    if share.value is not None:
        share = Target(share.label, share.value * 100, 80.0, "%", note=share.note, ok=share.value >= 0.80)
    out.append(share)
    return out


def h2_targets(tables: list[RaceTable]) -> list[Target]:
    """Issue 10: boltwire (Struct) over HTTP/2 >= 2x pyreqwest over HTTP/2."""
    return [at_least(tables, "h2 async Struct throughput >= 2.0x pyreqwest", "async", "pyreqwest", 2.0)]


def gzip_targets(tables: list[RaceTable]) -> list[Target]:
    """Issue 11: boltwire (Struct) on the gzip race >= 2x pyreqwest (which also decompresses in native code)."""
    return [at_least(tables, "gzip async Struct throughput >= 2.0x pyreqwest", "async", "pyreqwest", 2.0)]


def targets(tables: list[RaceTable]) -> list[Target]:
    out = []

    def headline_at_most(label: str, key: str, unit_note: str) -> Target:
        t = next(t for t in tables if t.race == "async" and t.kind == "headline")
        mine, theirs = row_of(t, OURS), row_of(t, "pyreqwest")
        a = mine.metrics.get(key) if mine else None
        b = theirs.metrics.get(key) if theirs else None
        if a is None or not b:
            return Target(label, None, 1.0, note="no number")
        return Target(label, a / b, 1.0, note=unit_note.format(a=a, b=b))

    def of_ceiling(label: str, race: str, share: float) -> Target:
        t = best_table(tables, race, OURS)
        mine = row_of(t, OURS) if t else None
        value = mine.metrics.get("of_ceiling") if mine else None
        if value is None:
            return Target(label, None, share * 100, "%", note="no number")
        return Target(label, value * 100, share * 100, "%", note=f"{t.kind} pass", ok=value >= share)

    def cpu(label: str, race: str, limit: float) -> Target:
        t = best_table(tables, race, OURS)
        mine = row_of(t, OURS) if t else None
        if not mine:
            return Target(label, None, limit, "µs", note="no number")
        floor = row_of(t, FLOOR)
        floor_note = ""
        if floor and floor.value:
            over = mine.metrics["cpu_us"] - floor.metrics["cpu_us"]
            floor_note = f"; the C floor client {floor.metrics['cpu_us']:.1f} µs ({over:+.1f} µs over it)"
        user = mine.metrics.get("user_us")
        user_note = f"; user {user:.1f} µs of it" if user is not None else ""
        shared = mine.metrics.get("same_cpu")
        shared_note = f"; on nginx's CPU {shared:.0%} of the time" if shared is not None else ""
        note = f"{t.kind} pass{user_note}{floor_note}{shared_note}"
        return Target(label, mine.metrics["cpu_us"], limit, "µs", note=note)

    # issue 3
    out.append(at_least(tables, "async Struct throughput >= 1.3x pyreqwest", "async", "pyreqwest", 1.3))
    out.append(at_least(tables, "async Struct throughput >= 1.0x wreq", "async", "wreq", 1.0))
    out.append(at_least(tables, "sync Struct throughput >= 1.3x pyreqwest", "sync", "pyreqwest", 1.3))
    out.append(headline_at_most("async Struct p99 <= pyreqwest", "p99", "{a:.2f} ms vs {b:.2f} ms"))
    out.append(headline_at_most("async Struct peak PyMem <= pyreqwest", "peak_mib", "{a:.2f} vs {b:.2f} MiB"))
    # issue 9
    out.append(of_ceiling("async Struct >= 80% of the wrk -c100 ceiling", "async", 0.80))
    out.append(cpu("async Struct client CPU <= 12 µs/request", "async", 12.0))
    out.append(cpu("sync Struct client CPU <= 20 µs/request", "sync", 20.0))
    out.append(of_ceiling("sync Struct >= 90% of the wrk -t1 -c1 ceiling", "sync", 0.90))
    return out


def method_notes(p: Plan, raw: dict, proto: Protocol) -> list[str]:
    lines = []
    for mode in ("async", "sync"):
        ceiling = next((name for name in raw.get(mode, {}) if name.endswith("(ceiling)")), CEILINGS[mode].name)
        r = raw.get(mode, {}).get(ceiling, {})
        sample = (r.get("samples") or r.get("steady") or [{}])[0]
        if proto.http2 and mode == "async" and ceiling == CEILINGS[mode].name:
            lines.append("h2 ceiling: h2load not installed (Debian nghttp2-client); wrk over https (HTTP/1.1) "
                         "shown for reference")
        if "error" in r:
            lines.append(f"{mode} ceiling: {r['error']}")
        elif sample.get("command"):
            errors = f"; {sample['errors']}" if sample.get("errors") else ""
            lines.append(f"{mode} ceiling: `{sample['command']}`, {p.wrk_seconds} s per round, in every round{errors}")
    pythons = {}
    for mode in ("async", "sync"):
        for name, r in raw.get(mode, {}).items():
            if r.get("python"):
                pythons.setdefault(r["python"], set()).add("lothc rows" if name.startswith("lothc") else "the others")
    if len(pythons) > 1:
        lines.append("Pythons: " + "; ".join(f"{', '.join(sorted(who))} on {v}" for v, who in sorted(pythons.items())))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines += [
        "nginx: 1 worker process, keep-alive, GET / = the seed's 523-byte JSON (tests/http/nginx/)",
        *([f"https: a TLS 1.3 listener of the same nginx server block (certificate from a CA made by trustme at "
           f"start, session tickets on); every client trusts that CA by its own option; `{PLAIN_TWIN}` is the same "
           f"client against the plain listener, in the same rounds; wrk speaks https too"]
          if proto.tls and not proto.http2 else []),
        *(["h2: a third listener of the same server block, `listen ... ssl http2` (h2 and http/1.1 by ALPN); every "
           "row's first response (before the warm-up) must be HTTP/2, else the row is left out with the reason; "
           "h2load: one connection, 100 concurrent streams, must report `Application protocol: h2`"]
          if proto.http2 else []),
        *([f"gzip: every request GETs {proto.path}, which the same nginx compresses (gzip on, level 1: 523 -> "
           f"about 330 bytes) and refuses (406) to a request without Accept-Encoding: gzip; each client sends it and "
           f"decodes by its own default; the ceiling is wrk with -H 'Accept-Encoding: gzip' (it does not decode)"]
          if proto.wrk_headers else []),
        f"each contestant in its own process; median of {p.rounds} round(s), interleaved and rotated (one round for "
        f"a contestant whose first took over 15 s); min-max = the slowest and fastest round; a contestant still "
        f"running after {p.time_limit:.0f} s of timed requests stops there and its row is marked partial",
        f"steady pass: rows that do the seed's {SEED_REQUESTS:,} requests in under {STEADY_BELOW:g} s, up to {p.steady_requests:,} "
        f"requests or {p.steady_limit:g} s each, {p.rounds} round(s); the targets use it where it ran",
        *([f"sync steady pass: every run of a row is paired with a {CEILINGS['sync'].name.split(' (')[0]} run of "
           f"{paired_seconds(p)} s just before or after it (alternating), so that a slow spell of the machine hits "
           f"both; `of ceil` = the median of the per-pair ratios (their range in the row's note); the ceiling row = "
           f"the paired wrk runs",
           "1 CPU (sync race): the share of a run in which the client's busiest thread was on the CPU of nginx's "
           f"worker (sampled every {PLACEMENT_EVERY * 1e3:g} ms by the bench process); on this VM a round trip within "
           "one CPU costs a fraction of one across two (there each wake-up halts and wakes an idle vCPU), and the "
           "scheduler decides which, so this column explains much of a sync row's speed and CPU"]
          if "sync" in raw else []),
        "late/early (steady): throughput in the last second of a run over that in its first second (counts noted "
        "every 0.5 s by the client process; below 1: it slowed as it ran); wrk reports none",
        "CPU = process CPU time (all threads) during the timed part; CPU µs/req = CPU / requests (wrk: its own CPU); "
        "user µs = the user-mode part of it (the rest is the kernel's: system calls, each round trip's sleep and "
        "wake-up; the kernel splits the two by tick sampling, so short passes give rough values); latency per request in ms; of ceil = throughput / the wrk ceiling of the same pass",
        f"PyMem: peak of tracemalloc over warm-up + {p.memory_requests:,} requests, in a separate process (memory "
        "Python allocates; a native client's own buffers are not in it)",
        "every warm-up response is decoded and checked deeply; every timed response must be status 200",
        f"machine: {os.cpu_count()} CPUs shared by client, nginx (and wrk); load average at the end {load}",
    ]
    return lines
