"""bench/run.py: entry point of `make bench`; runs the benchmark sections, prints their tables, saves results.

Usage: python bench/run.py [--quick] [--only structs,gc,https] [--libs a,b] [--rounds N] [--uvloop]

A section is a module in bench/ with `run(args) -> report.Section` (args.section is the section's name, so one
module may run several: bench_http runs http, https, h2 and gzip); add it to SECTIONS to plug it in.
Results go to bench/results/<section>-<run_id>.json (and <section>.json, the latest run), with charts beside
them: <section>.png (a bar chart per table, when matplotlib is importable) and, for the HTTP races, an animated
<section>-<race>.svg (bench/race_svg.py). `bench/readme_tables.py` copies the latest full run into README.md.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

# name -> module, in the order they run.
SECTIONS = {
    "structs": "bench_structs",
    "gc": "bench_gc",
    "library": "bench_library",
    "http": "bench_http",
    "https": "bench_http",  # bench_http.PROTOCOLS: one section per protocol, chosen by args.section
    "h2": "bench_http",
    "gzip": "bench_http",
    "download": "bench_download",
    "encode": "bench_encode",
    "msgpack": "bench_msgpack",
}


def main() -> int:
    args = parse_args()
    sys.path.insert(0, str(HERE))  # sections import their helpers as top-level modules
    import charts
    import machine
    import race_svg
    from http_race import python_for
    from progress import progress

    env = machine.facts(python_for("lothc")[0])
    run_id = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    options = {"quick": args.quick, "rounds": args.rounds, "libs": args.libs, "uvloop": args.uvloop}
    machine_keys = ["CPU", "cores", "memory", "load average", "platform"]
    print("machine: " + ", ".join(f"{k} {env[k]}" for k in machine_keys))
    print("software: " + ", ".join(f"{k} {v}" for k, v in env.items() if k not in machine_keys))
    if any(options.values()):
        print("options: " + ", ".join(f"{k} {v}" for k, v in options.items() if v))
    RESULTS.mkdir(exist_ok=True)

    failed = []
    start_all = time.perf_counter()
    with progress.running(enabled=not args.no_progress):
        for name in args.only:
            progress.log(f"\n=== {name} ===\n")
            progress.section(name)
            start = time.perf_counter()
            try:
                args.section = name
                section = importlib.import_module(SECTIONS[name]).run(args)
            except Exception:
                # One broken section should not hide the others' numbers.
                progress.log(traceback.format_exc())
                failed.append(name)
                continue
            progress.log(section.format())
            env["load average"] = ", ".join(f"{x:.2f}" for x in os.getloadavg())  # as the section ended
            data = {"environment": env, "options": options, "quick": args.quick, "run_id": run_id}
            data.update(section.to_json())
            text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
            saved = [RESULTS / f"{name}-{run_id}.json"]
            saved[0].write_text(text)  # kept per run
            (RESULTS / f"{name}.json").write_text(text)  # the latest run
            saved += race_svg.write_all(data, RESULTS) + [p for p in [charts.draw(section, RESULTS)] if p]
            listed = ", ".join(str(p.relative_to(HERE.parent)) for p in saved)
            progress.log(f"\n[{name}: {time.perf_counter() - start:.0f}s; saved {listed}]")

    print(f"\n[all: {time.perf_counter() - start_all:.0f}s]")
    if failed:
        print(f"\nsections that crashed: {', '.join(failed)}")
        return 1  # a crash is an error; a missed target is not
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer rounds, shorter samples")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated subset of: {', '.join(SECTIONS)}")
    parser.add_argument("--libs", default="", help="comma-separated HTTP race rows to run (the ceilings always run)")
    parser.add_argument("--rounds", type=int, default=0, help="rounds (repeats) per measurement instead of the default")
    parser.add_argument("--uvloop", action="store_true", help="run the async HTTP race on uvloop")
    parser.add_argument("--no-progress", action="store_true", help="no live progress display")
    args = parser.parse_args()
    args.only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in args.only if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    args.libs = [s.strip() for s in args.libs.split(",") if s.strip()] or None
    if args.rounds < 0:
        parser.error("--rounds must be >= 1")
    return args


if __name__ == "__main__":
    sys.exit(main())
