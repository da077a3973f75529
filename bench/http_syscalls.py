"""bench/http_syscalls.py: system calls per request of the async race (client side, per thread), and of wrk;
with --sync, of the sync race (boltwire's SyncHTTPClient and the C floor client, bench/floor_client.c).

Load-independent where timings are not: counts `perf stat` tracepoints (raw_syscalls and a few named calls) of a
bounded race against the bundled nginx, after a warm-up, divided by the requests sent. Needs `perf` (and the
permission to read tracepoints: root, or perf_event_paranoid <= 1).
The sync mode also counts the client's context switches (each one a sleep in recv: how often a request waited
twice), CPU migrations and IPIs sent (`ipi:ipi_send_cpu`: wake-ups of a task on another CPU, the costly kind on
this VM), which depend on where the scheduler puts the client and nginx and so vary with the machine's load.

    .venv/bin/python bench/http_syscalls.py [-n 20000] [-c 100] [--wrk]
    .venv/bin/python bench/http_syscalls.py --sync [-n 20000] [--pin A,B]   (nginx's worker on CPU A, clients on B)
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "http"))

CALLS = ["epoll_wait", "recvfrom", "sendto", "read", "write", "writev", "futex", "epoll_ctl"]
EVENTS = ",".join(["raw_syscalls:sys_enter"] + [f"syscalls:sys_enter_{c}" for c in CALLS])
SYNC_CALLS = ["sendto", "recvfrom", "poll", "ppoll", "setsockopt", "getsockopt", "clock_gettime", "futex"]
SYNC_EVENTS = ",".join(["raw_syscalls:sys_enter"] + [f"syscalls:sys_enter_{c}" for c in SYNC_CALLS]
                       + ["context-switches", "cpu-migrations", "ipi:ipi_send_cpu"])

# The race as bench/instructions.py's http_async shapes it: C workers on one loop share a counter.
RACE = """
import asyncio, os, sys
sys.path.insert(0, {here!r})
import http_clients, boltwire
T = http_clients.boltwire_types()
async def worker(client, todo):
    for _ in todo:
        (await client.get('/', response_data_type=T)).data
async def race(client, n):
    todo = iter(range(n))
    await asyncio.gather(*(worker(client, todo) for _ in range({c})))
async def main():
    async with boltwire.HTTPClient(base_url={url!r}) as client:
        await race(client, 2000)
        open({mark!r}, 'w').close()
        await race(client, {n})
asyncio.run(main())
"""


# The sync race as bench/instructions.py's http_sync shapes it: one SyncHTTPClient, one request after the other.
SYNC_RACE = """
import os, sys
sys.path.insert(0, {here!r})
import http_clients, boltwire
T = http_clients.boltwire_types()
with boltwire.SyncHTTPClient(base_url={url!r}) as client:
    for _ in range(2000):
        client.get('/', response_data_type=T).data
    open({mark!r}, 'w').close()
    import time; time.sleep(0.5)  # perf stat attaches meanwhile
    for _ in range({n}):
        client.get('/', response_data_type=T).data
"""


def parse(path: str) -> dict[str, collections.Counter]:
    """perf stat -x, output (per thread or not) -> {thread: {call: count}}."""
    out: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for line in open(path):
        parts = line.strip().split(",")
        if len(parts) >= 4 and parts[1].strip().isdigit():  # --per-thread: thread,count,unit,event
            out[parts[0]][parts[3].split(":")[-1].replace("sys_enter_", "")] += int(parts[1])
        elif len(parts) >= 3 and parts[0].strip().isdigit():  # whole process: count,unit,event
            out["all"][parts[2].split(":")[-1].replace("sys_enter_", "")] += int(parts[0])
        elif len(parts) >= 3 and parts[1].strip().isdigit():  # --per-thread, software events: thread,count,,event
            out[parts[0]][parts[3].split(":")[-1] if len(parts) > 3 else parts[2]] += int(parts[1])
    return out


def show(name: str, counts: collections.Counter, requests: int) -> None:
    print(f"  {name:24} " + " ".join(f"{k}={v / requests:.3f}" for k, v in counts.items() if v))


def client_counts(url: str, n: int, c: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        mark, stats, script = (os.path.join(tmp, f) for f in ("mark", "stats", "race.py"))
        with open(script, "w") as f:
            f.write(RACE.format(here=HERE, url=url, n=n, c=c, mark=mark))
        race = subprocess.Popen([sys.executable, script])
        deadline = time.monotonic() + 120
        while not os.path.exists(mark) and race.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        reaper = threading.Thread(target=race.wait)  # perf stat -p ends when the race is gone, not a zombie
        reaper.start()
        perf = subprocess.run(["perf", "stat", "--per-thread", "-x,", "-e", EVENTS, "-p", str(race.pid), "-o", stats],
                              timeout=300)
        reaper.join(300)
        if perf.returncode != 0 or race.returncode != 0:
            raise SystemExit("perf or the race failed")
        threads = {t: v for t, v in parse(stats).items() if v["raw_syscalls"] or v["sys_enter"]}
        requests = max(v["sendto"] for v in threads.values()) or 1  # one send per request (HTTP/1.1, one buffer)
        print(f"boltwire (Struct), async, c={c}: per request ({requests} requests counted)")
        total: collections.Counter = collections.Counter()
        for t, v in sorted(threads.items(), key=lambda kv: -kv[1]["sendto"]):
            show(t + (" (engine)" if v["sendto"] else " (loop)"), v, requests)
            total.update(v)
        show("process", total, requests)


def sync_counts(url: str, n: int, cpu: int | None) -> None:
    """boltwire's SyncHTTPClient: `n` requests after a warm-up, the whole process counted (one thread); on `cpu`
    only when given."""
    with tempfile.TemporaryDirectory() as tmp:
        mark, stats, script = (os.path.join(tmp, f) for f in ("mark", "stats", "race.py"))
        with open(script, "w") as f:
            f.write(SYNC_RACE.format(here=HERE, url=url, n=n, mark=mark))
        race = subprocess.Popen(pinned([sys.executable, script], cpu))
        deadline = time.monotonic() + 120
        while not os.path.exists(mark) and race.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        reaper = threading.Thread(target=race.wait)
        reaper.start()
        perf = subprocess.run(["perf", "stat", "-x,", "-e", SYNC_EVENTS, "-p", str(race.pid), "-o", stats], timeout=300)
        reaper.join(300)
        if perf.returncode != 0 or race.returncode != 0:
            raise SystemExit("perf or the race failed")
        counts = parse(stats)["all"]
        print(f"boltwire (Struct), sync: per request ({counts['sendto']} requests counted)")
        show("process", counts, counts["sendto"] or 1)


def pinned(cmd: list[str], cpu: int | None) -> list[str]:
    """cmd run on `cpu` only (taskset), or as it is."""
    return cmd if cpu is None else ["taskset", "-c", str(cpu), *cmd]


def floor_counts(url: str, n: int, cpu: int | None) -> None:
    """The C floor client: its 200 warm-up requests and `n` timed ones, all counted (its set-up adds a few calls);
    on `cpu` only when given."""
    sys.path.insert(0, HERE)
    from c_programs import compiled

    binary, why = compiled("floor_client.c")
    if binary is None:
        print(f"floor client: {why}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats")
        port = url.rsplit(":", 1)[1]
        run = subprocess.run(["perf", "stat", "-x,", "-e", SYNC_EVENTS, "-o", stats, "--",
                              *pinned([binary, port, "/", str(n), "60"], cpu)], capture_output=True, text=True,
                             timeout=120)
        if run.returncode != 0 or "error" in run.stdout:
            raise SystemExit("floor client failed: " + run.stdout + run.stderr)
        print(f"C floor client: per request ({n} + 200 warm-up requests)")
        show("process", parse(stats)["all"], n + 200)


def wrk_counts(url: str, c: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats")
        run = subprocess.run(["perf", "stat", "-x,", "-e", EVENTS, "-o", stats, "--", "wrk", "-t2", f"-c{c}", "-d3s",
                              url + "/"], capture_output=True, text=True, timeout=60)
        done = [line for line in run.stdout.splitlines() if "requests in" in line]
        requests = int(done[0].split()[0]) if done else 0
        if not requests:
            raise SystemExit("wrk failed: " + run.stdout + run.stderr)
        print(f"wrk -t2 -c{c}: per request ({requests} requests)")
        show("process", parse(stats)["all"], requests)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=20000, help="requests counted (after 2000 of warm-up)")
    p.add_argument("-c", type=int, default=100, help="concurrency")
    p.add_argument("--wrk", action="store_true", help="count wrk -t2 too (3 s)")
    p.add_argument("--sync", action="store_true",
                   help="the sync race: boltwire's SyncHTTPClient and the C floor client")
    p.add_argument("--pin", default=None, help="--sync: 'A,B': nginx's worker on CPU A, the clients on CPU B")
    args = p.parse_args()
    if shutil.which("perf") is None:
        raise SystemExit("perf is not installed")
    from nginx_server import NginxServer

    with NginxServer() as server:
        if args.sync:
            client_cpu = None
            if args.pin:
                nginx_cpu, client_cpu = (int(c) for c in args.pin.split(","))
                for worker in server.worker_pids():
                    os.sched_setaffinity(worker, {nginx_cpu})
                print(f"nginx's worker on CPU {nginx_cpu}, the client on CPU {client_cpu}")
            sync_counts(server.url, args.n, client_cpu)
            floor_counts(server.url, args.n, client_cpu)
            return
        client_counts(server.url, args.n, args.c)
        if args.wrk and shutil.which("wrk"):
            wrk_counts(server.url, args.c)


if __name__ == "__main__":
    main()
