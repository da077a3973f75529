"""bench/http_race.py: runs one HTTP race: interleaved, rotated rounds of one process per contestant, the wrk
ceiling (h2load in the h2 race) as one more contestant, the steady pass for the fast rows, then one tracemalloc pass per row.

What it returns is raw: per contestant the samples of each pass, errors and versions; bench/bench_http.py turns
that into tables and targets. Every process runs with a time limit and is killed past it. A row is a client of
bench/http_clients.py against an Endpoint (URL, and the CA for https); the ceiling runs against the race's Endpoint.
"""

from __future__ import annotations

import json
import os
import re
import resource
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from c_programs import compiled
from http_clients import Endpoint
from progress import progress
from timing import rotated

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SLOW_WALL = 15.0  # a contestant whose first round takes longer runs one round only (it is far off the pace)
SEED_REQUESTS = 10_000  # the seed's headline request count
STEADY_BELOW = 2.0  # seconds: a row that does the seed's requests faster than this also runs the steady pass
PROGRESS_EVERY = 1_000  # requests between two progress lines of a contestant process


@dataclass
class Plan:
    requests: int  # the seed's headline pass
    async_warmup: int
    sync_warmup: int
    rounds: int
    steady_requests: int  # the steady pass: this many requests or steady_limit seconds, whichever comes first
    steady_limit: float
    memory_requests: int  # timed requests in the tracemalloc pass (the peak settles early; tracing is slow)
    time_limit: float  # seconds of timed requests in the headline pass, after which a slow contestant stops
    timeout: float  # seconds per contestant process, after which it is killed
    wrk_seconds: int
    concurrency: int
    uvloop: bool
    wrk_headers: tuple[str, ...] = ()  # request headers of the ceiling (the gzip race: Accept-Encoding: gzip)


@dataclass(frozen=True)
class Ceiling:
    """wrk against the same nginx: the most this server and machine allow at this concurrency."""

    name: str
    args: list[str]  # wrk's -t / -c (h2load's -c / -m)
    tool: str = "wrk"  # or "h2load" (nghttp2-client), for the h2 race


CEILINGS = {
    "async": Ceiling("wrk -t2 -c100 (ceiling)", ["-t2", "-c100"]),
    "sync": Ceiling("wrk -t1 -c1 (ceiling)", ["-t1", "-c1"]),
}
H2_CEILING = Ceiling("h2load -c1 -m100 (ceiling)", ["-c1", "-m100"], "h2load")  # one connection, 100 streams
# PAIRED: in the sync race's steady pass every run of a row (the floor client included) is paired with a run of the
# ceiling of the same length, just before or after it, and the row's share of the ceiling is the median of its
# per-pair ratios. A sequential round trip on this VM costs 2-3x more when the scheduler puts the client and nginx on
# two CPUs (each wake-up halts and wakes an idle vCPU) than on one, and that changes over tens of seconds with
# anything else running: rounds of one run per row, with the ceiling once per round, let such a window hit some rows
# and not the ceiling (the 06:27 bench of session 7: every Python row slowed 2x in steady rounds 2-3, wrk in one).
# The ceiling row of that pass is the median of all paired runs.
# The plain-http sync race's reference row (bench/floor_client.c): the least CPU per request a sequential client
# can spend here. On an idle VM most of a round trip's CPU is the kernel's, and this row measures that share.
FLOOR = "C blocking client (floor)"
PLACEMENT_EVERY = 0.02  # seconds between two samples of where a contestant and nginx run (50 wake-ups a second)


class Placement:
    """Samples, while a contestant process runs, the CPU of its busiest thread and of each nginx worker: `stop()`
    gives the fraction of samples in which that thread ran on (or last left) the CPU of a worker. A Python
    contestant says when its timed part starts (`#timed` on stdout): the samples before are dropped (`restart`).

    Why: a sequential round trip between two tasks on one CPU is a direct switch, while across two CPUs each wake-up
    goes to an idle CPU (an IPI; on this VM a halt and its exit, with no idle polling). Measured on this 2-vCPU VM:
    the same client does 2-3x the requests per second with about a third of the CPU per request when it shares
    nginx's CPU. The scheduler decides that placement, differently from run to run, so each sync sample records it.
    The sampler is a thread of the bench process (one /proc read per task every PLACEMENT_EVERY), the same for every
    contestant."""

    def __init__(self, server_pids: list[int]) -> None:
        self.server_pids = server_pids
        self.samples: list[tuple[dict[int, tuple[int, int]], set[int]]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @staticmethod
    def _task_cpu(path: str) -> tuple[int, int] | None:
        """(CPU, user + system ticks) of one task from /proc/.../stat, or None when it is gone."""
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except OSError:
            return None
        fields = raw[raw.rfind(b")") + 2:].split()
        return int(fields[36]), int(fields[11]) + int(fields[12])

    def _tasks(self, pid: int) -> dict[int, tuple[int, int]]:
        out = {}
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            return out
        for tid in tids:
            got = self._task_cpu(f"/proc/{pid}/task/{tid}/stat")
            if got:
                out[int(tid)] = got
        return out

    def _run(self, pid: int) -> None:
        while not self._stop.wait(PLACEMENT_EVERY):
            client = self._tasks(pid)
            servers = {got[0] for spid in self.server_pids if (got := self._task_cpu(f"/proc/{spid}/stat"))}
            if client and servers:
                self.samples.append((client, servers))

    def restart(self) -> None:
        """Forgets the samples so far (the contestant's start-up and warm-up)."""
        self.samples = []

    def start(self, pid: int) -> None:
        if self.server_pids and os.path.isdir("/proc"):
            self._thread = threading.Thread(target=self._run, args=(pid,), daemon=True)
            self._thread.start()

    def stop(self) -> float | None:
        """Ends sampling; the share of samples with the contestant's busiest thread on a worker's CPU (None when
        there were no samples: no /proc, or a run too short)."""
        if self._thread is None:
            return None
        self._stop.set()
        self._thread.join()
        if not self.samples:
            return None
        last = self.samples[-1][0]  # the thread with the most CPU time by the end: the one doing the requests
        busiest = max(last, key=lambda tid: last[tid][1])
        seen = [(client[busiest][0], servers) for client, servers in self.samples if busiest in client]
        return sum(1 for cpu, servers in seen if cpu in servers) / len(seen) if seen else None


def ceiling_for(mode: str, target: Endpoint) -> Ceiling:
    """The h2 async race's ceiling is h2load; without it (no nghttp2-client), wrk over https, for reference."""
    if target.http2 and mode == "async" and shutil.which("h2load"):
        return H2_CEILING
    return CEILINGS[mode]


@dataclass(frozen=True)
class Contestant:
    """A row of a race: a client of bench/http_clients.py against a server."""

    client: str
    target: Endpoint


def run_race(
    target: Endpoint, mode: str, rows: dict[str, Contestant], p: Plan, server_pids: list[int] | None = None
) -> dict[str, dict]:
    """Rounds of every row (name -> Contestant) and of the wrk ceiling against `target`. `server_pids` (nginx's
    workers): each sync sample records how much of it the contestant spent on a worker's CPU (Placement)."""
    watch = server_pids if mode == "sync" else None
    ceiling = ceiling_for(mode, target)
    paired = mode == "sync" and ceiling.tool == "wrk"
    warmup = p.async_warmup if mode == "async" else p.sync_warmup
    concurrency = p.concurrency if mode == "async" else 1
    names = list(rows)
    references = [ceiling.name] + ([FLOOR] if has_floor(mode, target) else [])
    entries = [*references, *names]
    results: dict[str, dict] = {name: {"samples": [], "steady": []} for name in entries}

    def measure(name: str, kind: str, label: str) -> dict | None:
        r = results[name]
        if name == ceiling.name:
            progress.step(f"{mode} {label}: {name}", total=None)
            if ceiling.tool == "h2load":
                out = run_h2load(target.url, ceiling, p.wrk_seconds)
            else:
                seconds = paired_seconds(p) if kind == "steady" and paired else p.wrk_seconds
                out = run_wrk(target, ceiling, seconds, p.wrk_headers, watch)
        elif name == FLOOR:
            n, limit = (p.requests, p.time_limit) if kind == "samples" else (p.steady_requests, p.steady_limit)
            progress.step(f"{mode} {label}: {name}", total=None)
            out = run_floor(target, n, limit, watch)
        else:
            n, limit = (p.requests, p.time_limit) if kind == "samples" else (p.steady_requests, p.steady_limit)
            progress.step(f"{mode} {label}: {name}", total=n)
            out = run_case(rows[name], mode, p, n, warmup, concurrency, limit=limit, watch=watch)
        r["version"], r["python"] = out.get("version", r.get("version")), out.get("python", r.get("python"))
        if "error" in out:
            r["error"] = out["error"]
            progress.log(f"  {mode} {name} ({label}): {out['error']}")
            return None
        r[kind].append(out)
        stopped = ""
        if kind == "samples" and out["completed"] < p.requests:
            stopped = f" (stopped at the time limit after {out['completed']:,})"
        rate = out["completed"] / out["wall"]
        cpu_us = out["cpu"] / out["completed"] * 1e6
        shared = f", on nginx's CPU {out['same_cpu']:.0%} of the time" if out.get("same_cpu") is not None else ""
        progress.log(f"  {mode} {name} ({label}): {rate:,.0f} req/s, {cpu_us:.1f} µs CPU/request{shared}{stopped}")
        if kind == "samples" and out["wall"] > SLOW_WALL:
            r["one_round"] = True
        return out

    def usable(name: str, kind: str) -> bool:
        r = results[name]
        return "error" not in r and not (kind == "samples" and r.get("one_round"))

    for i in range(p.rounds):
        for name in rotated(entries, i):
            if usable(name, "samples"):
                measure(name, "samples", f"round {i + 1}/{p.rounds}")

    steady = [n for n in names if usable(n, "samples") and results[n]["samples"] and fast(results[n])]
    if steady and paired:
        # Each row's run is paired with a run of the ceiling of the same length, just before or just after it
        # (alternating): its share of the ceiling is the median of its per-pair ratios (PAIRED).
        steady_entries = [name for name in references if name != ceiling.name and "error" not in results[name]]
        steady_entries += steady
        for i in range(p.rounds):
            for j, name in enumerate(rotated(steady_entries, i)):
                if not usable(name, "steady"):
                    continue
                label = f"steady {i + 1}/{p.rounds}"
                order = [ceiling.name, name] if (i + j) % 2 else [name, ceiling.name]
                if "error" in results[ceiling.name]:  # wrk failed (its row says why): the rows still run, unpaired
                    order = [name]
                done = {who: measure(who, "steady", label) for who in order}
                if done.get(name) is not None and done.get(ceiling.name) is not None:
                    ceiling_run = done[ceiling.name]
                    done[name]["paired_ceiling"] = ceiling_run["completed"] / ceiling_run["wall"]
    elif steady:
        steady_entries = [name for name in references if "error" not in results[name]] + steady
        for i in range(p.rounds):
            for name in rotated(steady_entries, i):
                if usable(name, "steady"):
                    measure(name, "steady", f"steady {i + 1}/{p.rounds}")

    for name in names:
        r = results[name]
        if "error" in r:
            continue
        progress.step(f"{mode} memory: {name}", total=p.memory_requests)
        out = run_case(rows[name], mode, p, p.memory_requests, warmup, concurrency, limit=p.time_limit, memory=True)
        r["peak_bytes"] = out.get("peak_bytes")
        if "error" in out:
            r["memory_error"] = out["error"]
    return results


def paired_seconds(p: Plan) -> int:
    """The length of a paired ceiling run: the steady pass's time limit (wrk takes whole seconds)."""
    return max(1, round(p.steady_limit))


def fast(r: dict) -> bool:
    """Would the seed's 10,000 requests take this row under 2 s? (The same choice in a --quick run.)"""
    rate = statistics.median(s["completed"] / s["wall"] for s in r["samples"])
    return SEED_REQUESTS / rate < STEADY_BELOW


def steps(p: Plan, n_async: int, n_sync: int) -> int:
    """An upper bound of the progress steps of the section (rounds with the references, steady rounds, where the
    sync race pairs every run with a ceiling run, memory passes)."""
    return sum((n + 2) * p.rounds + 2 * (n + 1) * p.rounds + n for n in (n_async, n_sync))


# -- one contestant process


def python_for(name: str) -> tuple[str | None, str]:
    """The interpreter a contestant runs under, or None and the reason it cannot run."""
    if not name.startswith("lothc"):
        return sys.executable, ""
    python = os.environ.get("BENCH_LOTHC_PYTHON") or str(REPO / ".venv-lothc" / "bin" / "python")
    if os.access(python, os.X_OK):
        return python, ""
    why = REPO / ".venv-lothc.missing"
    if why.exists():
        return None, f"not run: {why.read_text().strip()}"
    return None, "not run: no lothc venv (.venv-lothc; `make bench` makes it from Python >= 3.13)"


def run_case(
    row: Contestant, mode: str, p: Plan, n: int, warmup: int, concurrency: int, limit: float, memory: bool = False,
    watch: list[int] | None = None,
) -> dict:
    python, why = python_for(row.client)
    if python is None:
        return {"error": why}
    cmd = [python, str(HERE / "http_case.py"), row.client, mode, row.target.url]
    cmd += [f"--requests={n}", f"--warmup={warmup}", f"--concurrency={concurrency}", f"--limit={limit}"]
    if row.target.ca_file:
        cmd.append(f"--ca={row.target.ca_file}")
    if row.target.http2:
        cmd.append("--http2")
    if row.target.path != "/":
        cmd.append(f"--path={row.target.path}")
    if memory:
        cmd.append("--memory")
    if p.uvloop and mode == "async":
        cmd.append("--uvloop")
    if progress.live and not memory:
        cmd.append(f"--progress={PROGRESS_EVERY}")
    placement = Placement(watch or [])
    lines, returncode, err_tail = run_process(cmd, p.timeout, placement)
    shared = placement.stop()
    if returncode is None:
        return {"error": f"timed out after {p.timeout:.0f}s"}
    for line in reversed(lines):
        if line.startswith("{"):
            out = json.loads(line)  # the case exits hard after printing: its exit code says nothing more
            out["same_cpu"] = shared
            return out
    return {"error": f"crashed (exit {returncode}) {err_tail}"[:160]}


def run_process(
    cmd: list[str], timeout: float, placement: Placement | None = None
) -> tuple[list[str], int | None, str]:
    """Runs cmd, passing its `#progress N` lines to the display; (other stdout lines, exit code or None on
    timeout, last stderr line). `placement` samples the process while it runs (stopped by the caller)."""
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)
        if placement:
            placement.start(proc.pid)
        deadline = time.monotonic() + timeout
        fd, buf, lines = proc.stdout.fileno(), b"", []
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    proc.kill()
                    proc.wait()
                    proc.stdout.close()
                    return lines, None, ""
                if not sel.select(min(left, 1.0)):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                buf += chunk
                *done, buf = buf.split(b"\n")
                for raw in done:
                    line = raw.decode(errors="replace")
                    if line.startswith("#progress "):
                        progress.advance_to(int(line.split()[1]))
                    elif line == "#timed":
                        if placement:
                            placement.restart()
                    else:
                        lines.append(line)
        if buf:
            lines.append(buf.decode(errors="replace"))
        proc.stdout.close()
        try:
            returncode = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:  # closed its stdout but hangs on: treated as a timeout
            proc.kill()
            proc.wait()
            return lines, None, ""
        err.seek(0)
        tail = (err.read().strip().splitlines() or [""])[-1]
    return lines, returncode, tail


# -- the floor client


def has_floor(mode: str, target: Endpoint) -> bool:
    """The floor row runs in the sync race over plain http/1.1 (it speaks no TLS)."""
    return mode == "sync" and target.url.startswith("http://") and not target.http2


def run_floor(target: Endpoint, requests: int, limit: float, watch: list[int] | None = None) -> dict:
    """One run of the floor client: `requests` sequential GETs (or `limit` seconds), its own wall and CPU time;
    `watch`: nginx's workers, for its Placement."""
    binary, why = compiled("floor_client.c")
    if binary is None:
        return {"error": f"floor client: {why}"}
    port = target.url.rsplit(":", 1)[1].rstrip("/")
    seconds = limit if limit != float("inf") else 60.0
    proc, placement = watched([binary, port, target.path, str(requests), str(seconds)], seconds + 30, watch)
    if proc is None:
        return {"error": "floor client timed out"}
    try:
        out = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"error": f"floor client crashed (exit {proc.returncode})"}
    out.setdefault("version", None)
    out["latency_ms"] = {}
    out["command"] = "bench/floor_client.c"
    out["same_cpu"] = placement
    return out


def watched(
    cmd: list[str], timeout: float, watch: list[int] | None
) -> tuple[subprocess.CompletedProcess | None, float | None]:
    """subprocess.run(cmd) with text output, sampled by a Placement against `watch` while it runs: (the completed
    process or None when it timed out and was killed, the Placement share)."""
    placement = Placement(watch or [])
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    placement.start(proc.pid)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        placement.stop()
        return None, None
    return subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr), placement.stop()


# -- wrk


def run_tool(
    cmd: list[str], seconds: int, watch: list[int] | None = None
) -> tuple[subprocess.CompletedProcess | None, float, float, float | None]:
    """Runs a ceiling tool for `seconds` (killed 30 s past them: None); returns it, its own CPU time, the user
    part of that and its Placement share against `watch` (nginx's workers; None without)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc, placement = watched(cmd, seconds + 30, watch)
    if proc is None:
        return None, 0.0, 0.0, None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user = after.ru_utime - before.ru_utime
    return proc, user + (after.ru_stime - before.ru_stime), user, placement


def run_wrk(
    target: Endpoint, ceiling: Ceiling, seconds: int, headers: tuple[str, ...] = (), watch: list[int] | None = None
) -> dict:
    """One wrk run in the shape of a contestant's sample; CPU is wrk's own (all its threads). `headers`
    ("Name: value") go with every request (the gzip race's Accept-Encoding)."""
    binary = shutil.which("wrk")
    if binary is None:
        return {"error": "wrk not installed (Debian package wrk; `make bench` installs it)"}
    extra = [arg for header in headers for arg in ("-H", header)]
    cmd = [binary, *ceiling.args, *extra, f"-d{seconds}s", "--latency", target.url + target.path]
    proc, cpu, user, placement = run_tool(cmd, seconds, watch)
    if proc is None:
        return {"error": "wrk timed out"}
    out = proc.stdout
    total = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)", out)
    if proc.returncode != 0 or not total:
        return {"error": f"wrk failed: {(proc.stderr or out).strip()[-160:]}"}
    latency = {}
    m = re.search(r"Latency\s+([\d.]+)(us|ms|s)\s+[\d.]+\w+\s+([\d.]+)(us|ms|s)", out)
    if m:
        latency["mean"], latency["max"] = to_ms(m.group(1), m.group(2)), to_ms(m.group(3), m.group(4))
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)", out, re.M)
        if m:
            latency[f"p{pct}"] = to_ms(m.group(1), m.group(2))
    errors = re.search(r"Non-2xx or 3xx responses: \d+|Socket errors: .*", out)
    return {
        "wall": to_ms(total.group(2), total.group(3)) / 1e3,
        "cpu": cpu,
        "user": user,
        "completed": int(total.group(1)),
        "latency_ms": latency,
        "command": " ".join(["wrk", *(f"'{a}'" if " " in a else a for a in cmd[1:-1]), "URL"]),
        "errors": errors.group(0) if errors else None,
        "version": None,
        "same_cpu": placement,
    }


def run_h2load(url: str, ceiling: Ceiling, seconds: int) -> dict:
    """One h2load run (the h2 ceiling) in the shape of a contestant's sample; refused unless it spoke h2."""
    cmd = ["h2load", *ceiling.args, f"-D{seconds}", url + "/"]
    proc, cpu, user, _ = run_tool(cmd, seconds)
    if proc is None:
        return {"error": "h2load timed out"}
    out = proc.stdout
    wall = re.search(r"finished in ([\d.]+)(us|ms|s|m),", out)
    done = re.search(r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored", out)
    if proc.returncode != 0 or not wall or not done or int(done.group(1)) == 0:
        return {"error": f"h2load failed: {(proc.stderr or out).strip()[-160:]}"}
    if "Application protocol: h2" not in out:
        return {"error": "h2load did not get h2 from the server"}
    latency = {}
    m = re.search(r"time for request:\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)", out)
    if m:
        latency = {"min": to_ms(m.group(1), m.group(2)), "max": to_ms(m.group(3), m.group(4)),
                   "mean": to_ms(m.group(5), m.group(6))}
    failed = int(done.group(2)) + int(done.group(3))
    return {
        "wall": to_ms(wall.group(1), wall.group(2)) / 1e3,
        "cpu": cpu,
        "user": user,
        "completed": int(done.group(1)),
        "latency_ms": latency,
        "command": " ".join([*cmd[:-1], "URL"]),
        "errors": f"{failed} failed or errored requests" if failed else None,
        "version": None,
    }


def to_ms(value: str, unit: str) -> float:
    return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}[unit]
