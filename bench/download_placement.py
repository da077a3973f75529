"""bench/download_placement.py: per 50 MiB download, whether the client's receiving thread and the nginx worker ran
side by side (on two CPUs) or took turns on one, for boltwire's sync and async file downloads in alternation.

Why: on a 2-CPU machine the async download's engine thread can land on the CPU nginx uses and share it for the
whole transfer (bench/NOTES.md, "Session 8"). This reads it from the scheduler's own record (the sched_switch
tracepoint) instead of inferring it from timings. Needs `perf` and the permission to record tracepoints on every
CPU (root, or perf_event_paranoid <= 0). It means something only on a machine with nothing else running: on a busy
one every client shares a CPU with something.

    .venv/bin/python bench/download_placement.py [-n 6]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "http"))

SWITCH = re.compile(r"^\s*(\d+)\s+\[(\d+)\]\s+([\d.]+):.*prev_pid=(\d+) .*next_pid=(\d+)")


def cpu_ms() -> dict[int, float]:
    """ms on a CPU per thread of this process."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            out[int(tid)] = int(open(f"/proc/self/task/{tid}/schedstat").read().split()[0]) / 1e6
        except (OSError, ValueError, IndexError):
            continue
    return out


def download(mode: str, url: str, dest: Path) -> tuple[float, float, int]:
    """(start, end) on CLOCK_MONOTONIC and the thread of this process that worked most (the receiving one)."""
    from boltwire import HTTPClient, SyncHTTPClient

    before = cpu_ms()
    start = time.clock_gettime(time.CLOCK_MONOTONIC)
    if mode == "sync":
        with SyncHTTPClient() as client:
            client.download(url, dest)
    else:
        async def main():
            async with HTTPClient() as client:
                await client.download(url, dest)

        asyncio.run(main())
    end = time.clock_gettime(time.CLOCK_MONOTONIC)
    after = cpu_ms()
    dest.unlink()
    return start, end, max(after, key=lambda t: after[t] - before.get(t, 0.0))


def running_intervals(trace: str) -> dict[int, list[tuple[float, float]]]:
    """tid -> the [start, end) intervals it ran, from `perf script` lines of sched_switch (any CPU)."""
    last: dict[int, tuple[float, int]] = {}  # cpu -> (since, tid running)
    out: dict[int, list[tuple[float, float]]] = collections.defaultdict(list)
    for line in trace.splitlines():
        m = SWITCH.match(line)
        if not m:
            continue
        cpu, t, prev, nxt = int(m.group(2)), float(m.group(3)), int(m.group(4)), int(m.group(5))
        since, tid = last.get(cpu, (t, prev))
        if tid == prev and tid != 0:
            out[tid].append((since, t))
        last[cpu] = (t, nxt)
    return out


def within(intervals: list[tuple[float, float]], start: float, end: float) -> list[tuple[float, float]]:
    return [(max(a, start), min(b, end)) for a, b in intervals if b > start and a < end]


def overlap(xs: list[tuple[float, float]], ys: list[tuple[float, float]]) -> float:
    """Seconds during which both ran: side by side, since one thread runs on one CPU at a time."""
    total, j = 0.0, 0
    for a, b in xs:  # both lists are in time order per thread
        while j < len(ys) and ys[j][1] <= a:
            j += 1
        k = j
        while k < len(ys) and ys[k][0] < b:
            total += max(0.0, min(b, ys[k][1]) - max(a, ys[k][0]))
            k += 1
    return total


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=6, help="sync/async pairs of downloads (in alternation)")
    args = p.parse_args()
    if shutil.which("perf") is None:
        raise SystemExit("perf is not installed")
    from nginx_server import NginxServer

    with NginxServer() as server, tempfile.TemporaryDirectory(dir="/dev/shm") as work:
        (server.prefix / "www" / "dl50.bin").write_bytes(os.urandom(50 << 20))
        url = server.url + "/dl50.bin"
        worker = server.worker_pids()[0]
        dest = Path(work) / "dl.bin"
        download("sync", url, dest)  # imports and the engine thread, before the record starts
        download("async", url, dest)
        data = Path(work) / "perf.data"
        errors = tempfile.TemporaryFile()  # (a file: a pipe nobody reads could fill and stop perf)
        perf = subprocess.Popen(["perf", "record", "-q", "-a", "-k", "CLOCK_MONOTONIC", "-e", "sched:sched_switch",
                                 "-o", str(data)], stdout=subprocess.DEVNULL, stderr=errors)
        time.sleep(1.0)  # perf is recording once it has opened its buffers
        windows = []
        for _ in range(args.n):
            for mode in ("sync", "async"):
                time.sleep(0.2)
                windows.append((mode, *download(mode, url, dest)))
        perf.send_signal(signal.SIGINT)
        perf.wait(60)
        script = subprocess.run(["perf", "script", "-i", str(data), "-F", "tid,cpu,time,trace"], capture_output=True,
                                text=True, timeout=300)
    ran = running_intervals(script.stdout)
    if not ran:
        errors.seek(0)
        raise SystemExit("perf recorded no sched_switch events: " + errors.read().decode(errors="replace")[-500:])
    print("per download: wall, receiving thread's and nginx worker's ms on a CPU, and the share of nginx's time that "
          "ran beside the receiving thread (side by side) rather than taking turns with it")
    for mode, start, end, tid in windows:
        mine, theirs = within(ran.get(tid, []), start, end), within(ran.get(worker, []), start, end)
        busy = sum(b - a for a, b in theirs)
        side = overlap(mine, theirs) / busy if busy else 0.0
        print(f"  {mode:5}  wall {(end - start) * 1e3:6.1f} ms  receiver {sum(b - a for a, b in mine) * 1e3:5.1f} ms  "
              f"nginx {busy * 1e3:5.1f} ms  side by side {side:4.0%}")
    print(f"load average {os.getloadavg()[0]:.1f} (meaningful only near 0)")


if __name__ == "__main__":
    main()
