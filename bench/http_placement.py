"""bench/http_placement.py: the sync race's CPU per request with the client and nginx pinned on one CPU or on two.

A sequential client's CPU per request on this VM depends on where the scheduler puts it relative to nginx's
worker: on one CPU a round trip is two direct task switches; on two CPUs each wake-up goes to an idle vCPU (an
IPI, a halt and its exit: `cpuidle` haltpoll with guest_halt_poll_ns 0, no idle polling). The bench leaves the
choice to the scheduler (and records it: http_race.Placement); this pins both ways, so that the kernel's floor
of each case and a client's own share are read from one run:

    nginx's worker on CPU A; the client on CPU A ("one CPU") or on CPU B ("two CPUs")

for boltwire (Struct) (bench/http_case.py, as the race runs it) and the C floor client (bench/floor_client.c),
alternating, `--rounds` times each, `--seconds` of timed requests per run. Prints medians and min-max of req/s,
CPU µs per request and its user part (Linux splits user/system by tick sampling: rough for short runs). Other
load on the machine runs on the same CPUs: say so when quoting it.

    .venv/bin/python bench/http_placement.py [--rounds 5] [--seconds 2] [--cpus 0,1] [--client "boltwire (Struct)"]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "http"))

from c_programs import compiled  # noqa: E402
from timing import rotated  # noqa: E402


def pinned(cmd: list[str], cpu: int, timeout: float) -> dict:
    """Runs cmd on `cpu` only; its last JSON line."""
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"error": f"exit {proc.returncode}: {proc.stderr.strip()[-160:]}"}
    return json.loads(lines[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=float, default=2.0, help="timed requests per run, in seconds")
    p.add_argument("--cpus", default="0,1", help="CPU A (nginx, and the client on one CPU), CPU B")
    p.add_argument("--client", default="boltwire (Struct)", help="a row of bench/http_clients.py")
    args = p.parse_args()
    cpu_a, cpu_b = (int(c) for c in args.cpus.split(","))
    floor, why = compiled("floor_client.c")
    if floor is None:
        raise SystemExit(f"floor client: {why}")
    from nginx_server import NginxServer

    runs = {(who, where): [] for who in (args.client, "C floor client") for where in ("one CPU", "two CPUs")}
    with NginxServer() as server:
        workers = server.worker_pids()
        if len(workers) != 1:
            raise SystemExit(f"expected one nginx worker, found {workers}")
        os.sched_setaffinity(workers[0], {cpu_a})
        port = server.url.rsplit(":", 1)[1]
        commands = {
            args.client: [sys.executable, os.path.join(HERE, "http_case.py"), args.client, "sync", server.url,
                          "--requests=10000000", "--warmup=200", f"--limit={args.seconds}"],
            "C floor client": [floor, port, "/", "10000000", str(args.seconds)],
        }
        for i in range(args.rounds):
            for who, where in rotated(list(runs), i):
                out = pinned(commands[who], cpu_a if where == "one CPU" else cpu_b, args.seconds + 60)
                if "error" in out:
                    raise SystemExit(f"{who}, {where}: {out['error']}")
                runs[who, where].append(out)
    print(f"nginx worker on CPU {cpu_a}; client on CPU {cpu_a} (one CPU) or {cpu_b} (two CPUs); "
          f"{args.rounds} runs of {args.seconds:g} s each, medians (min-max)")
    print(f"{'':36}{'req/s':>20}{'CPU µs/req':>20}{'user µs/req':>20}{'system µs/req':>20}")

    def cell(values: list[float], fmt: str) -> str:
        return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"

    for (who, where), outs in runs.items():
        rate = [o["completed"] / o["wall"] for o in outs]
        cpu = [o["cpu"] / o["completed"] * 1e6 for o in outs]
        user = [o["user"] / o["completed"] * 1e6 for o in outs]
        system = [(o["cpu"] - o["user"]) / o["completed"] * 1e6 for o in outs]
        print(f"{who + ', ' + where:36}{cell(rate, '{:,.0f}'):>20}{cell(cpu, '{:.1f}'):>20}{cell(user, '{:.1f}'):>20}"
              f"{cell(system, '{:.1f}'):>20}")


if __name__ == "__main__":
    main()
