"""soak/soak_http.py: 10^6 async requests at concurrency 100, then 2*10^5 sync requests, against a private nginx on
loopback, then 10^5 async https requests (TLS 1.3), 5*10^3 https requests each on a new TLS connection, and 10^5
async HTTP/2 requests (h2 by ALPN over TLS, all streams of one connection) against the TLS nginx's HTTP/2 listener;
zero errors and flat memory (make soak; never part of make test).

    python soak/soak_http.py [--async-requests N] [--sync-requests N] [--https-requests N] [--https-handshakes N]
                             [--h2-requests N] [--max-growth-mb 5] [--time-limit S]

Every response is decoded into a Struct mirroring the seed payload and checked. After a warm-up (5% of each phase)
the script records RSS; it samples it every 10% and at the end, and fails (exit 1) on any error, on RSS growth past
--max-growth-mb after warm-up, or when a phase runs past --time-limit seconds (the loops are bounded in count and
time).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "http"))

from nginx_server import NginxServer  # noqa: E402
from nginx_tls_server import NginxTlsServer  # noqa: E402

import boltwire  # noqa: E402
from boltwire import HTTPClient, Struct, SyncHTTPClient  # noqa: E402


class Metadata(Struct):
    last_login: str
    login_count: int
    active: bool


class User(Struct):
    id: int
    name: str
    email: str
    roles: list[str]
    metadata: Metadata


class Nested(Struct):
    depth: int
    values: list[int]


class Item(Struct):
    id: int
    title: str
    tags: list[str]
    score: float
    nested: Nested


class Pagination(Struct):
    page: int
    limit: int
    total: int
    has_more: bool


class Payload(Struct):
    status: str
    timestamp: str
    user: User
    data: list[Item]
    pagination: Pagination


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Phase:
    """Counts, errors and RSS samples of one phase; prints one line per sample."""

    def __init__(self, name: str, total: int, limit: float) -> None:
        self.name, self.total, self.limit = name, total, limit
        self.done = self.errors = 0
        self.start = time.monotonic()
        self.seconds = 0.0  # set by stop()
        self.base: float | None = None
        self.peak_growth = 0.0
        self.marks = {max(1, total * k // 10) for k in range(1, 11)}
        self.warm = max(1, total // 20)

    def record(self, ok: bool) -> None:
        self.done += 1
        self.errors += not ok
        if self.done == self.warm:
            self.base = rss_mb()
        if self.done in self.marks and self.base is not None:
            growth = rss_mb() - self.base
            self.peak_growth = max(self.peak_growth, growth)
            rate = self.done / (time.monotonic() - self.start)
            print(f"  {self.name}: {self.done:>9,} requests, {self.errors} errors, RSS {rss_mb():7.1f} MB "
                  f"({growth:+.2f} MB after warm-up), {rate:,.0f} req/s", flush=True)

    def stop(self) -> None:
        self.seconds = time.monotonic() - self.start

    def over_time(self) -> bool:
        return time.monotonic() - self.start > self.limit


def check(payload: Payload) -> bool:
    return payload.status == "success" and payload.user.id == 42 and len(payload.data) == 2


async def async_phase(url: str, total: int, concurrency: int, phase: Phase, **options) -> None:
    async with HTTPClient(base_url=url, timeout=30, **options) as client:
        issued = 0

        async def worker() -> None:
            nonlocal issued
            while issued < total and not phase.over_time():
                issued += 1
                try:
                    r = await client.get("/", response_data_type=Payload)
                    phase.record(r.status == 200 and check(r.data))
                except boltwire.HTTPTransportError:
                    phase.record(False)

        await asyncio.gather(*(worker() for _ in range(concurrency)))


def handshake_phase(url: str, total: int, phase: Phase, **options) -> None:
    """Every request on a new connection: a new client each time (a full TLS handshake, the session cache, close)."""
    for _ in range(total):
        if phase.over_time():
            break
        try:
            with SyncHTTPClient(base_url=url, timeout=30, **options) as client:
                r = client.get("/", response_data_type=Payload)
            phase.record(r.status == 200 and check(r.data) and r.tls_version == "TLSv1.3")
        except boltwire.HTTPTransportError:
            phase.record(False)


def sync_phase(url: str, total: int, phase: Phase) -> None:
    with SyncHTTPClient(base_url=url, timeout=30) as client:
        for _ in range(total):
            if phase.over_time():
                break
            try:
                r = client.get("/", response_data_type=Payload)
                phase.record(r.status == 200 and check(r.data))
            except boltwire.HTTPTransportError:
                phase.record(False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--async-requests", type=int, default=1_000_000)
    parser.add_argument("--sync-requests", type=int, default=200_000)
    parser.add_argument("--https-requests", type=int, default=100_000, help="async, over TLS 1.3")
    parser.add_argument("--https-handshakes", type=int, default=5_000, help="https requests on new connections")
    parser.add_argument("--h2-requests", type=int, default=100_000)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--max-growth-mb", type=float, default=5.0)
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds per phase")
    args = parser.parse_args()
    failures = []
    with NginxServer(tls=bool(args.https_requests or args.https_handshakes)) as server:
        print(f"soak_http: nginx at {server.url}; {args.async_requests:,} async (concurrency {args.concurrency}), "
              f"{args.sync_requests:,} sync, {args.https_requests:,} async https, {args.https_handshakes:,} https "
              "handshakes", flush=True)
        tls = {"root_certificates": [server.ca_pem], "tls_built_in_root_certs": False}
        phases = []
        if args.async_requests:
            phase = Phase("async", args.async_requests, args.time_limit)
            asyncio.run(async_phase(server.url, args.async_requests, args.concurrency, phase))
            phase.stop()
            phases.append(phase)
        if args.sync_requests:
            phase = Phase("sync", args.sync_requests, args.time_limit)
            sync_phase(server.url, args.sync_requests, phase)
            phase.stop()
            phases.append(phase)
        if args.https_requests:
            phase = Phase("async https", args.https_requests, args.time_limit)
            asyncio.run(async_phase(server.tls_url, args.https_requests, args.concurrency, phase, **tls))
            phase.stop()
            phases.append(phase)
        if args.https_handshakes:
            phase = Phase("https handshakes", args.https_handshakes, args.time_limit)
            handshake_phase(server.tls_url, args.https_handshakes, phase, **tls)
            phase.stop()
            phases.append(phase)
    if args.h2_requests:
        with NginxTlsServer() as server:
            phase = Phase("h2 async", args.h2_requests, args.time_limit)
            tls = {"root_certificates": [server.ca_pem], "tls_built_in_root_certs": False}
            asyncio.run(async_phase(server.h2_url, args.h2_requests, args.concurrency, phase, http2=True, **tls))
            phase.stop()
            phases.append(phase)
    for phase in phases:
        print(f"soak_http {phase.name}: {phase.done:,} requests in {phase.seconds:.1f} s, {phase.errors} errors, "
              f"RSS growth after warm-up {phase.peak_growth:+.2f} MB (limit {args.max_growth_mb} MB)")
        if phase.errors:
            failures.append(f"{phase.name}: {phase.errors} errors")
        if phase.done < phase.total:
            failures.append(f"{phase.name}: stopped by the time limit after {phase.done:,} of {phase.total:,}")
        if phase.peak_growth > args.max_growth_mb:
            failures.append(f"{phase.name}: RSS grew {phase.peak_growth:.2f} MB")
    for failure in failures:
        print(f"soak_http: FAIL {failure}")
    if not failures:
        print("soak_http: PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
