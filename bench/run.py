"""bench/run.py: entry point of `make bench`; runs the benchmark sections, prints their tables, saves results.

Usage: python bench/run.py [--quick] [--only structs,gc]

A section is a module in bench/ with `run(args) -> report.Section`; add it to SECTIONS to plug it in.
Results go to bench/results/<section>-<run_id>.json (and <section>.json, the latest run), and <section>.png
when matplotlib is importable.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import platform
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
    "encode": "bench_encode",
    "msgpack": "bench_msgpack",
}

# Reported in the header and the JSON so that numbers can be compared across runs.
PACKAGES = ["boltwire", "msgspec", "structtype", "pydantic", "attrs", "orjson"]
PACKAGES += ["pyreqwest", "wreq", "aiohttp", "httpx", "httpx2", "niquests", "aiosonic", "requests"]  # http


def main() -> int:
    args = parse_args()
    sys.path.insert(0, str(HERE))  # sections import their helpers as top-level modules
    import charts

    env = environment()
    run_id = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    print(", ".join(f"{k} {v}" for k, v in env.items()))
    RESULTS.mkdir(exist_ok=True)

    failed = []
    for name in args.only:
        print(f"\n=== {name} ===\n", flush=True)
        start = time.perf_counter()
        try:
            section = importlib.import_module(SECTIONS[name]).run(args)
        except Exception:
            # One broken section should not hide the others' numbers.
            traceback.print_exc()
            failed.append(name)
            continue
        print(section.format())
        data = {"environment": env, "quick": args.quick, "run_id": run_id, **section.to_json()}
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        (RESULTS / f"{name}-{run_id}.json").write_text(text)  # kept per run
        (RESULTS / f"{name}.json").write_text(text)  # the latest run
        chart = charts.draw(section, RESULTS)
        saved = f"{RESULTS / (name + '-' + run_id + '.json')}" + (f", {chart}" if chart else "")
        print(f"\n[{name}: {time.perf_counter() - start:.0f}s; saved {saved}]", flush=True)

    if failed:
        print(f"\nsections that crashed: {', '.join(failed)}")
        return 1  # a crash is an error; a missed target is not
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and shorter samples")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated subset of: {', '.join(SECTIONS)}")
    args = parser.parse_args()
    args.only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in args.only if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    return args


def environment() -> dict[str, str]:
    env = {"Python": platform.python_version(), "platform": platform.platform()}
    for package in PACKAGES:
        try:
            env[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            env[package] = "not installed"
    return env


if __name__ == "__main__":
    sys.exit(main())
