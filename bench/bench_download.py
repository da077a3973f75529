"""bench/bench_download.py: a 50 MiB download from a loopback nginx into a file, against httpx and aiohttp, with
`wrk -t1 -c1` fetching the same file as the ceiling (what this server and machine deliver on one connection).

Every contestant writes the body to a file on /dev/shm (tmpfs, so the disk is not what is measured) through a
temporary file that is fsync'ed and renamed, as boltwire's download() does, and the size and digest of each
result are checked. Rounds are interleaved and the order rotated, so drift in machine load hits every
contestant alike; each row is the median MiB/s with the spread (min..max) over the rounds.

A reference row in each table measures this machine's floor in the same rounds: `C, 2 threads (floor)`
(bench/download_floor.c), the same download done the least costly way. wrk writes nothing: what separates a client
from wrk on these tables is mostly the cost of fresh pages (the file's tmpfs pages, or the bytes object's), which the
floor pays too.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from c_programs import compiled
from report import Row, Section, Table, Target
from timing import rotated

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "http"))  # the nginx helper is shared with the test fixtures
from nginx_server import NginxServer  # noqa: E402

SIZE = 50 << 20
PIECE = 256 << 10
# Seconds of rest before every sample (and before wrk), for every contestant alike: the previous one (or wrk, which
# keeps both CPUs busy for seconds) leaves the CPUs' recent-utilisation figures high, and the scheduler reads those
# when it places a woken thread; each sample starts from a machine at rest instead (they decay in ~0.1 s).
SETTLE = 0.2


def write_atomically(dest: Path, chunks) -> None:
    """What every peer does with the body: a temporary file beside dest, fsync, rename (boltwire's semantics)."""
    fd, tmp = tempfile.mkstemp(dir=dest.parent, suffix=".part")
    with os.fdopen(fd, "wb", buffering=0) as f:
        for chunk in chunks:
            f.write(chunk)
        os.fsync(f.fileno())
    os.replace(tmp, dest)


# Every peer times itself, from before its client is made to after the result is complete (the file renamed, or the
# bytes in hand), and returns the seconds (a memory peer also the SHA-256 of the body). An async peer starts its clock
# inside the running loop: making and closing the event loop (asyncio.run, ~0.3-0.7 ms) is not download work, and
# handing a 50 MiB result out of asyncio.run() costs about a second by itself on CPython 3.11 (measured).


def boltwire_async(url: str, dest: Path) -> float:
    from boltwire import HTTPClient

    async def main():
        start = time.perf_counter()
        async with HTTPClient() as client:
            await client.download(url, dest)
        return time.perf_counter() - start

    return asyncio.run(main())


def boltwire_sync(url: str, dest: Path) -> float:
    from boltwire import SyncHTTPClient

    start = time.perf_counter()
    with SyncHTTPClient() as client:
        client.download(url, dest)
    return time.perf_counter() - start


def httpx_async(url: str, dest: Path) -> float:
    import httpx

    async def main():
        start = time.perf_counter()
        async with httpx.AsyncClient() as client:
            async with client.stream("GET", url) as r:
                r.raise_for_status()
                parts = [chunk async for chunk in r.aiter_raw(PIECE)]
        write_atomically(dest, parts)  # (collected first: httpx's async iterator cannot feed a sync writer)
        return time.perf_counter() - start

    return asyncio.run(main())


def httpx_sync(url: str, dest: Path) -> float:
    import httpx

    start = time.perf_counter()
    with httpx.Client() as client:
        with client.stream("GET", url) as r:
            r.raise_for_status()
            write_atomically(dest, r.iter_raw(PIECE))
    return time.perf_counter() - start


def aiohttp_async(url: str, dest: Path) -> float:
    import aiohttp

    async def main():
        start = time.perf_counter()
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as r:
                r.raise_for_status()
                fd, tmp = tempfile.mkstemp(dir=dest.parent, suffix=".part")
                with os.fdopen(fd, "wb", buffering=0) as f:
                    async for chunk in r.content.iter_chunked(PIECE):
                        f.write(chunk)
                    os.fsync(f.fileno())
                os.replace(tmp, dest)
        return time.perf_counter() - start

    return asyncio.run(main())



def boltwire_async_bytes(url: str, dest: Path) -> tuple[float, str]:
    from boltwire import HTTPClient

    async def main():
        start = time.perf_counter()
        async with HTTPClient() as client:
            data = (await client.download(url)).data
        return time.perf_counter() - start, hashlib.sha256(data).hexdigest()

    return asyncio.run(main())


def boltwire_sync_bytes(url: str, dest: Path) -> tuple[float, str]:
    from boltwire import SyncHTTPClient

    start = time.perf_counter()
    with SyncHTTPClient() as client:
        data = client.download(url).data
    return time.perf_counter() - start, hashlib.sha256(data).hexdigest()


def httpx_async_bytes(url: str, dest: Path) -> tuple[float, str]:
    import httpx

    async def main():
        start = time.perf_counter()
        async with httpx.AsyncClient() as client:
            r = await client.get(url)
            r.raise_for_status()
            data = r.content
        return time.perf_counter() - start, hashlib.sha256(data).hexdigest()

    return asyncio.run(main())


def httpx_sync_bytes(url: str, dest: Path) -> tuple[float, str]:
    import httpx

    start = time.perf_counter()
    with httpx.Client() as client:
        r = client.get(url)
        r.raise_for_status()
        data = r.content
    return time.perf_counter() - start, hashlib.sha256(data).hexdigest()


def aiohttp_bytes(url: str, dest: Path) -> tuple[float, str]:
    import aiohttp

    async def main():
        start = time.perf_counter()
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as r:
                r.raise_for_status()
                data = await r.read()
        return time.perf_counter() - start, hashlib.sha256(data).hexdigest()

    return asyncio.run(main())


def c_floor_run(url: str, dest: str) -> dict:
    """bench/download_floor.c: the same download done the least costly way in C, into the file `dest` or, for "-",
    into memory; it times itself from before its connect to after the rename (or the last byte in memory)."""
    binary, why = compiled("download_floor.c", ("-pthread",), ("-lcrypto",))
    if binary is None:
        raise RuntimeError(why)
    split = urlsplit(url)
    proc = subprocess.run([binary, str(split.port), split.path, dest], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip()[-120:])
    return json.loads(proc.stdout)


def c_floor(url: str, dest: Path) -> float:
    return c_floor_run(url, str(dest))["seconds"]


def c_floor_bytes(url: str, dest: Path) -> tuple[float, str]:
    out = c_floor_run(url, "-")
    return out["seconds"], out["sha256"]


C_FLOOR = "C, 2 threads (floor)"

# (table, contestant) -> function; a file contestant writes `dest` and returns its seconds, a memory one returns
# (seconds, digest).
PEERS = {
    ("file", "boltwire async download"): boltwire_async,
    ("file", "boltwire sync download"): boltwire_sync,
    ("file", "httpx async stream"): httpx_async,
    ("file", "httpx sync stream"): httpx_sync,
    ("file", "aiohttp iter_chunked"): aiohttp_async,
    ("memory", "boltwire async download"): boltwire_async_bytes,
    ("memory", "boltwire sync download"): boltwire_sync_bytes,
    ("memory", "httpx async get"): httpx_async_bytes,
    ("memory", "httpx sync get"): httpx_sync_bytes,
    ("memory", "aiohttp read"): aiohttp_bytes,
    ("file", C_FLOOR): c_floor,
    ("memory", C_FLOOR): c_floor_bytes,
}
TITLES = {
    "file": "Download 50 MiB into a file (loopback nginx), MiB/s, higher is better",
    "memory": "Download 50 MiB into memory (loopback nginx), MiB/s, higher is better",
}


def scheduler_clock(pids: list[int] | None = None) -> tuple[float, float, int]:
    """(ms on a CPU, ms runnable but waiting for one, CPU migrations) summed over the threads of this process, or
    of the processes `pids` (from /proc/.../schedstat and .../sched; zeros where the kernel does not show them)."""
    roots = ["/proc/self"] if pids is None else [f"/proc/{p}" for p in pids]
    tasks = [f"{root}/task/{t}" for root in roots if os.path.isdir(f"{root}/task") for t in os.listdir(f"{root}/task")]
    run = wait = moves = 0
    for task in tasks:
        try:
            fields = open(f"{task}/schedstat").read().split()
            run += int(fields[0])
            wait += int(fields[1])
            for line in open(f"{task}/sched"):
                if line.startswith("se.nr_migrations"):
                    moves += int(line.split(":")[1])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
    return run / 1e6, wait / 1e6, moves


def involuntary_switches(pids: list[int]) -> int:
    """Involuntary context switches of the (single-threaded) processes `pids`: how often they were preempted."""
    count = 0
    for pid in pids:
        try:
            count += sum(int(line.split(":")[1]) for line in open(f"/proc/{pid}/status")
                         if line.startswith("nonvoluntary_ctxt_switches"))
        except (OSError, ValueError):
            continue
    return count


def usage_of(before: tuple, after: tuple, seconds: float) -> dict:
    """What one download cost, beside its wall time: the client process's CPU ms (every thread: the engine's too),
    its ms runnable but waiting for a CPU, its CPU migrations, its voluntary / involuntary context switches, and the
    nginx worker's CPU and waiting ms, migrations and involuntary switches. Wall far above CPU means waiting (for the
    server, for a CPU, for a wake-up); much waiting for a CPU on both sides and a client preempted often (by nginx
    waking beside it), with a CPU to spare, means that the client's busy thread and nginx shared one CPU. (Over the
    whole call: an async peer's figures include making and closing its event loop.)"""
    (_, w0, m0), r0, (n0, nw0, nm0), ni0 = before
    (_, w1, m1), r1, (n1, nw1, nm1), ni1 = after
    # CPU from getrusage: it counts threads that ended during the download (the file writer's, the prefault's),
    # which /proc/self/task no longer lists; waiting and migrations are those of the threads still alive.
    cpu = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1e3
    return {"wall_ms": round(seconds * 1e3, 2), "cpu_ms": round(cpu, 2), "runq_ms": round(w1 - w0, 2),
            "migrations": m1 - m0, "voluntary": r1.ru_nvcsw - r0.ru_nvcsw, "involuntary": r1.ru_nivcsw - r0.ru_nivcsw,
            "nginx_cpu_ms": round(n1 - n0, 2), "nginx_runq_ms": round(nw1 - nw0, 2), "nginx_migrations": nm1 - nm0,
            "nginx_involuntary": ni1 - ni0}


def wrk_mib_per_s(url: str, seconds: int) -> float | None:
    binary = shutil.which("wrk")
    if binary is None:
        return None
    proc = subprocess.run([binary, "-t1", "-c1", f"-d{seconds}s", url], capture_output=True, text=True,
                          timeout=seconds + 30)
    m = re.search(r"Transfer/sec:\s+([\d.]+)(B|KB|MB|GB)", proc.stdout)
    if proc.returncode != 0 or not m:
        return None
    scale = {"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}[m.group(2)]
    return float(m.group(1)) * scale / (1 << 20)


def med(usage: list[dict], name: str) -> float:
    return statistics.median(u[name] for u in usage)


def run(args) -> Section:
    rounds = 3 if args.quick else (args.rounds or 11)  # 7 left the medians swinging 0.65-0.87x between runs
    work = Path(tempfile.mkdtemp(prefix="bw-download-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    samples: dict[tuple[str, str], list[float]] = {key: [] for key in PEERS}
    usage: dict[tuple[str, str], list[dict]] = {key: [] for key in PEERS}
    errors: dict[tuple[str, str], str] = {}
    wrk: list[float] = []
    with NginxServer() as server:
        body = os.urandom(SIZE)
        digest = hashlib.sha256(body).hexdigest()
        (server.prefix / "www" / "dl50.bin").write_bytes(body)
        del body
        url = server.url + "/dl50.bin"
        workers = server.worker_pids()
        keys = list(PEERS)
        for r in range(rounds):
            for key in rotated(keys, r):
                if key in errors:
                    continue
                dest = work / f"{key[0]}-{key[1].replace(' ', '_')}.bin"
                time.sleep(SETTLE)
                try:
                    if key[0] == "file":
                        before = (scheduler_clock(), resource.getrusage(resource.RUSAGE_SELF), scheduler_clock(workers),
                                  involuntary_switches(workers))
                        seconds = PEERS[key](url, dest)
                        after = (scheduler_clock(), resource.getrusage(resource.RUSAGE_SELF), scheduler_clock(workers),
                                 involuntary_switches(workers))
                        usage[key].append(usage_of(before, after, seconds))
                        got = hashlib.sha256(dest.read_bytes()).hexdigest()
                    else:
                        seconds, got = PEERS[key](url, dest)  # (its digest is taken inside: no usage figures)
                    if got != digest:
                        raise RuntimeError("wrong body")
                    samples[key].append(SIZE / (1 << 20) / seconds)
                except ImportError:
                    errors[key] = "not installed"
                except Exception as error:  # a peer that fails is reported, not fatal
                    errors[key] = f"failed: {error!r}"[:120]
                finally:
                    dest.unlink(missing_ok=True)
            time.sleep(SETTLE)
            value = wrk_mib_per_s(url, 1 if args.quick else 2)
            if value is not None:
                wrk.append(value)
    shutil.rmtree(work, ignore_errors=True)

    ceiling = "wrk -t1 -c1 (ceiling)"
    tables, targets = [], []
    for table_key, title in TITLES.items():
        rows = [Row(ceiling, statistics.median(wrk), spread=[min(wrk), max(wrk)]) if wrk
                else Row(ceiling, None, "wrk not installed (Debian package wrk)")]
        for key in keys:
            if key[0] != table_key:
                continue
            s = samples[key]
            rows.append(Row(key[1], statistics.median(s), spread=[min(s), max(s)]) if s
                        else Row(key[1], None, errors.get(key, "no sample")))
        table = Table(title, "MiB/s", rows, baseline=ceiling)
        tables.append(table)
        floor = table.ratio(next(r for r in rows if r.name == C_FLOOR))
        for name in ("boltwire async download", "boltwire sync download"):
            ratio = table.ratio(next(r for r in rows if r.name == name))
            # Beside the target, where this machine's floor stood in the same rounds.
            note = "ratio to wrk" + (f"; the C floor {floor:.2f}x" if floor is not None else "")
            targets.append(Target(f"{name} ({table_key}) >= 80% of wrk", ratio, 0.80, note=note,
                                  ok=None if ratio is None else ratio >= 0.80))
    notes = [f"{rounds} interleaved rounds, order rotated; a fresh client per download (connect included); size "
             "and SHA-256 of every result checked (outside the timing); every peer times itself, an async one from "
             "inside its running event loop (making and closing the loop is left out); every sample (wrk's too) "
             f"starts after {SETTLE} s at rest, so that no contestant inherits the CPU load of the one before",
             "file: every peer writes a temporary file on /dev/shm, fsyncs it and renames it (boltwire's download() "
             "semantics; on tmpfs fsync costs nothing, so the table compares transfer and write paths, not disks); "
             "memory: the body as one bytes object",
             "a 50 MiB body in memory costs ~13,000 fresh pages; on a VM whose freed memory goes back to the host, "
             "their page faults (not the network) can set the pace of every memory row",
             "wrk reads the same file on one connection and writes nothing: the transport's ceiling; the target "
             "(>= 80% of wrk) is judged on both tables",
             f"{C_FLOOR}: bench/download_floor.c, the same download in C done the least costly way (file: splice "
             "from the socket into pipes, a second thread splicing them into the file; memory: recv into one fresh "
             "block while a second thread faults its pages in); it times itself, from its connect on",
             f"machine: {os.cpu_count()} CPUs shared by the client, nginx and wrk; load average at the end "
             f"{os.getloadavg()[0]:.1f}"]
    for key in keys:
        if key[1].startswith("boltwire") and usage[key]:
            u = usage[key]
            notes.append(f"{key[0]}, {key[1]}: per download (medians), wall {med(u, 'wall_ms'):.1f} ms; client CPU "
                         f"{med(u, 'cpu_ms'):.1f} ms, waiting for a CPU {med(u, 'runq_ms'):.1f} ms, "
                         f"{med(u, 'migrations'):.0f} migrations, {med(u, 'voluntary'):.0f} voluntary / "
                         f"{med(u, 'involuntary'):.0f} involuntary switches; nginx CPU {med(u, 'nginx_cpu_ms'):.1f} "
                         f"ms, waiting {med(u, 'nginx_runq_ms'):.1f} ms, {med(u, 'nginx_migrations'):.0f} "
                         f"migrations, {med(u, 'nginx_involuntary'):.0f} involuntary switches")
    raw = {"samples": {f"{k[0]}/{k[1]}": v for k, v in samples.items()}, "wrk": wrk,
           "usage": {f"{k[0]}/{k[1]}": v for k, v in usage.items()}}
    return Section("download", tables, targets, notes=notes, raw=raw)
