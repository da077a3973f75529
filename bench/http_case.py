"""bench/http_case.py: one contestant of the HTTP race in a process of its own; prints one JSON line.

    python bench/http_case.py CLIENT {async|sync} URL --requests N --warmup N [--concurrency N] [--ca FILE]
                              [--http2] [--memory] [--limit SECONDS] [--uvloop] [--progress N] [--path /PATH]

Warm-up (untimed, every response checked deeply), then N timed requests; reports wall time, CPU time of the
whole process (every thread, so a client's own I/O threads count) and the latency summary. `--memory`: the same
run with tracemalloc on from the first warm-up request; reports the peak traced bytes. The async race keeps
CONCURRENCY requests in flight (CONCURRENCY workers on one shared counter); the sync race makes them one after
the other. With `--limit`, a client too slow to finish stops starting requests after that many seconds and
reports how many it completed. Every half second of the timed part it notes how many requests were done
(`marks`), so that a report can tell a run that slowed as it went from one that was slow throughout.
`--progress N` prints `#progress DONE` every N timed requests (the parent's live display reads it); the sync
race prints `#timed` when its timed part starts. An https URL comes with `--ca`, the CA the client must trust;
`--http2` asks for HTTP/2 and refuses a client that does not get it; `--path` is what every request GETs (`/` by
default). Failures are reported in the JSON, never as a traceback.

This file runs under the main venv's Python and under the lothc venv's (3.13): it imports only the standard
library and bench/http_clients.py, which imports each client inside its session.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import json
import os
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_clients import CLIENTS, Endpoint, NotAvailable, check_payload  # noqa: E402


def summary(latencies: list[float]) -> dict[str, float]:
    ms = sorted(x * 1e3 for x in latencies)

    def pct(p: float) -> float:  # nearest-rank percentile
        return ms[min(len(ms) - 1, max(0, round(p / 100 * len(ms)) - 1))]

    return {
        "min": ms[0],
        "p50": pct(50),
        "p95": pct(95),
        "p99": pct(99),
        "max": ms[-1],
        "mean": statistics.fmean(ms),
    }


def user_time() -> float:
    """This process's user-mode CPU seconds (every thread): the part of `cpu` that is the client's own work, the
    rest being the kernel's (system calls, the sleep and wake-up of each round trip)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


MARK_EVERY = 0.5  # seconds between two `marks` (requests done so far) of the timed part


def reporter(every: int):
    """A callback for the timed loop (None without --progress): prints the count every `every` requests."""
    if not every:
        return None

    def report(done: int) -> None:
        if done % every == 0:
            print(f"#progress {done}", flush=True)

    return report


async def run_async(session, a: argparse.Namespace) -> dict:
    async with session(Endpoint(a.url, a.ca, a.path, a.http2), a.concurrency) as fetch:
        if a.memory:
            tracemalloc.start()
        warm = iter(range(a.warmup))

        async def warm_worker():
            for _ in warm:
                check_payload(await fetch())

        await asyncio.gather(*(warm_worker() for _ in range(min(a.concurrency, max(a.warmup, 1)))))
        latencies: list[float] = []
        marks: list[int] = []
        todo = iter(range(a.requests))
        perf, report = time.perf_counter, reporter(a.progress)
        cpu0, user0, t0 = time.process_time(), user_time(), perf()
        deadline, next_mark = t0 + a.limit, t0 + MARK_EVERY

        async def worker():
            nonlocal next_mark
            for _ in todo:
                start = perf()
                await fetch()
                end = perf()
                latencies.append(end - start)
                if end >= next_mark:
                    marks.append(len(latencies))
                    next_mark += MARK_EVERY
                if report:
                    report(len(latencies))
                if end > deadline:
                    return

        await asyncio.gather(*(worker() for _ in range(a.concurrency)))
        wall, cpu, user = perf() - t0, time.process_time() - cpu0, user_time() - user0
        peak = tracemalloc.get_traced_memory()[1] if a.memory else None
        tracemalloc.stop()
        check_payload(await fetch())  # still right after the run
    return {"wall": wall, "cpu": cpu, "user": user, "completed": len(latencies), "latency_ms": summary(latencies),
            "peak_bytes": peak, "marks": marks}


def run_sync(session, a: argparse.Namespace) -> dict:
    with session(Endpoint(a.url, a.ca, a.path, a.http2)) as fetch:
        if a.memory:
            tracemalloc.start()
        for _ in range(a.warmup):
            check_payload(fetch())
        latencies: list[float] = []
        marks: list[int] = []
        perf, report = time.perf_counter, reporter(a.progress)
        print("#timed", flush=True)  # the bench samples where this process runs from here on (http_race.Placement)
        cpu0, user0, t0 = time.process_time(), user_time(), perf()
        deadline, next_mark = t0 + a.limit, t0 + MARK_EVERY
        for _ in range(a.requests):
            start = perf()
            fetch()
            end = perf()
            latencies.append(end - start)
            if end >= next_mark:
                marks.append(len(latencies))
                next_mark += MARK_EVERY
            if report:
                report(len(latencies))
            if end > deadline:
                break
        wall, cpu, user = perf() - t0, time.process_time() - cpu0, user_time() - user0
        peak = tracemalloc.get_traced_memory()[1] if a.memory else None
        tracemalloc.stop()
        check_payload(fetch())
    return {"wall": wall, "cpu": cpu, "user": user, "completed": len(latencies), "latency_ms": summary(latencies),
            "peak_bytes": peak, "marks": marks}


def run_loop(coro_factory, use_uvloop: bool) -> dict:
    if not use_uvloop:
        return asyncio.run(coro_factory())
    try:
        import uvloop
    except ImportError:
        raise NotAvailable("uvloop not installed in this venv") from None
    return uvloop.run(coro_factory())


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("client", choices=sorted(CLIENTS))
    p.add_argument("mode", choices=["async", "sync"])
    p.add_argument("url")
    p.add_argument("--requests", type=int, required=True)
    p.add_argument("--warmup", type=int, required=True)
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--ca", default=None, help="https: PEM file of the CA that issued the server's certificate")
    p.add_argument("--http2", action="store_true", help="the h2 race: the client must get HTTP/2 (checked first)")
    p.add_argument("--path", default="/", help="the path every request GETs")
    p.add_argument("--memory", action="store_true", help="trace Python memory (a separate pass: tracing is slow)")
    p.add_argument("--limit", type=float, default=float("inf"), help="seconds of timed requests at most")
    p.add_argument("--uvloop", action="store_true", help="run the async race on uvloop")
    p.add_argument("--progress", type=int, default=0, help="print '#progress N' every N timed requests")
    return p.parse_args()


def main() -> None:
    a = parse_args()
    client = CLIENTS[a.client]
    try:
        version = importlib.metadata.version(client.module)
    except importlib.metadata.PackageNotFoundError:
        version = None
    try:
        if a.mode == "async":
            if client.async_session is None:
                raise NotAvailable("N/A (no async client)")
            result = run_loop(lambda: run_async(client.async_session, a), a.uvloop)
        else:
            if client.sync_session is None:
                raise NotAvailable("N/A (no sync client)")
            result = run_sync(client.sync_session, a)
    except NotAvailable as e:
        result = {"error": str(e)}
    except ImportError as e:
        result = {"error": f"not installed ({e.name or e})"}
    except Exception as e:  # a wrong answer or a crash in the client: its own row, never the bench
        result = {"error": f"error: {type(e).__name__}: {e}"[:160]}
    result["version"] = version
    result["python"] = ".".join(map(str, sys.version_info[:3]))
    print(json.dumps(result), flush=True)
    # Skip interpreter shutdown: some native clients abort while their runtime threads are torn down
    # (pyreqwest 0.15: "PyGILState_Release ... finalizing"), which would turn a good result into a crash.
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
