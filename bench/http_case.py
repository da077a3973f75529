"""bench/http_case.py: one contestant of the HTTP race in a process of its own; prints one JSON line.

    python bench/http_case.py CLIENT {async|sync} URL REQUESTS WARMUP CONCURRENCY {time|memory} [TIME_LIMIT]

`time`: warm-up (untimed, every response checked deeply), then REQUESTS timed requests; reports wall time, CPU
time of the whole process (every thread, so a client's own I/O threads count) and the latency summary.
`memory`: the same run with tracemalloc on from the first warm-up request; reports the peak traced bytes.
The async race keeps CONCURRENCY requests in flight (CONCURRENCY workers on one shared counter); the sync race
makes them one after the other. With TIME_LIMIT (seconds), a client too slow to finish stops starting requests
then and reports how many it completed, so that it still gets a (marked) number. Failures are reported in the
JSON, never as a traceback.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_clients import CLIENTS, NotAvailable, check_payload  # noqa: E402


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


async def run_async(session, url: str, n: int, warmup: int, concurrency: int, memory: bool, limit: float) -> dict:
    async with session(url, concurrency) as fetch:
        if memory:
            tracemalloc.start()
        warm = iter(range(warmup))

        async def warm_worker():
            for _ in warm:
                check_payload(await fetch())

        await asyncio.gather(*(warm_worker() for _ in range(min(concurrency, max(warmup, 1)))))
        latencies: list[float] = []
        todo = iter(range(n))
        perf = time.perf_counter
        cpu0, t0 = time.process_time(), perf()
        deadline = t0 + limit

        async def worker():
            for _ in todo:
                start = perf()
                await fetch()
                end = perf()
                latencies.append(end - start)
                if end > deadline:
                    return

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall, cpu = perf() - t0, time.process_time() - cpu0
        peak = tracemalloc.get_traced_memory()[1] if memory else None
        tracemalloc.stop()
        check_payload(await fetch())  # still right after the run
    return {"wall": wall, "cpu": cpu, "completed": len(latencies), "latency_ms": summary(latencies), "peak_bytes": peak}


def run_sync(session, url: str, n: int, warmup: int, memory: bool, limit: float) -> dict:
    with session(url) as fetch:
        if memory:
            tracemalloc.start()
        for _ in range(warmup):
            check_payload(fetch())
        latencies: list[float] = []
        perf = time.perf_counter
        cpu0, t0 = time.process_time(), perf()
        deadline = t0 + limit
        for _ in range(n):
            start = perf()
            fetch()
            end = perf()
            latencies.append(end - start)
            if end > deadline:
                break
        wall, cpu = perf() - t0, time.process_time() - cpu0
        peak = tracemalloc.get_traced_memory()[1] if memory else None
        tracemalloc.stop()
        check_payload(fetch())
    return {"wall": wall, "cpu": cpu, "completed": len(latencies), "latency_ms": summary(latencies), "peak_bytes": peak}


def main() -> None:
    name, mode, url, n, warmup, concurrency, what = sys.argv[1:8]
    n, warmup, concurrency, memory = int(n), int(warmup), int(concurrency), what == "memory"
    limit = float(sys.argv[8]) if len(sys.argv) > 8 else float("inf")
    client = CLIENTS[name]
    try:
        version = importlib.metadata.version(client.module)
    except importlib.metadata.PackageNotFoundError:
        version = None
    try:
        if mode == "async":
            if client.async_session is None:
                raise NotAvailable("N/A (no async client)")
            result = asyncio.run(run_async(client.async_session, url, n, warmup, concurrency, memory, limit))
        else:
            if client.sync_session is None:
                raise NotAvailable("N/A (no sync client)")
            result = run_sync(client.sync_session, url, n, warmup, memory, limit)
    except NotAvailable as e:
        result = {"error": str(e)}
    except ImportError as e:
        result = {"error": f"not installed ({e.name or e})"}
    except Exception as e:  # a wrong answer or a crash in the client: its own row, never the bench
        result = {"error": f"error: {type(e).__name__}: {e}"[:160]}
    result["version"] = version
    print(json.dumps(result), flush=True)
    # Skip interpreter shutdown: some native clients abort while their runtime threads are torn down
    # (pyreqwest 0.15: "PyGILState_Release ... finalizing"), which would turn a good result into a crash.
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
