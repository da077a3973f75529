"""soak/soak_json.py: 10^6 JSON encode/decode cycles, valid and invalid inputs mixed; memory must stay flat and
the reference counts of the types used must not drift (make soak; never part of make test).

    python soak/soak_json.py [--cycles N] [--max-growth-mb 5]

Each cycle decodes one document (three valid for one invalid, the invalid ones raising DecodeError), encodes the
decoded value, and every fourth cycle also encodes a Struct and tries to encode an unsupported object (TypeError).
After a warm-up (5% of the cycles) it records RSS, the refcounts of the types used and the number of GC-tracked
objects; it samples them again every 10% and at the end. Fails (exit 1) when RSS grows by more than
--max-growth-mb after warm-up, or when any refcount or the tracked-object count differs from its warm-up value.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time

import boltwire
from boltwire import DecodeError, Struct
from boltwire import json as bjson
from boltwire._core import _json_decode_any as decode_any


class Point(Struct):
    x: int
    y: float
    label: str
    tags: list


VALID = [
    b'{"id": 12345, "name": "widget", "price": 9.99, "tags": ["a", "b", "c"], "ok": true, "none": null}',
    b'[1, -2, 3.5e10, 18446744073709551616, -0.0, "caf\xc3\xa9", "\\ud83d\\ude00 \\n \\"q\\""]',
    b'{"nested": {"deeper": {"list": [[], {}, [1, [2, [3]]]]}}, "k": "' + b"x" * 300 + b'"}',
    b'"' + "ünïcödé ".encode() * 20 + b'"',
    b"[" + b",".join(str(i).encode() for i in range(200)) + b"]",
    b'{"a": 1, "a": 2, "b": [true, false, null]}',
]
INVALID = [
    b'{"id": 1,',  # truncated
    b"[1, 2,]",  # trailing comma
    b'{"k": "\\x41"}',  # bad escape
    b'"\xff\xfe"',  # invalid UTF-8
    b'"\\n\xed\xa0\x80"',  # raw surrogate after an escape (fuzz regression)
    b"1" * 5000,  # past the int digit limit (fuzz regression)
    b"[" * 2000 + b"]" * 2000,  # past the nesting bound
    b"NaN",
]
POINT = Point(1, 2.5, "p", ["t", 1])
UNSUPPORTED = object()
WATCHED = {
    "dict": dict, "list": list, "str": str, "int": int, "float": float, "bool": bool, "bytes": bytes,
    "DecodeError": DecodeError, "TypeError": TypeError, "Point": Point, "Struct": Struct,
    "decode_any": decode_any, "encode": bjson.encode, "module boltwire": boltwire,
}


def rss_kb() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def refcounts() -> dict[str, int]:
    return {name: sys.getrefcount(obj) for name, obj in WATCHED.items()}


def run(cycles: int, max_growth_mb: float) -> int:
    valid_n, invalid_n = len(VALID), len(INVALID)
    errors = decoded = 0
    warmup = max(cycles // 20, 1)
    base_rss = base_refs = base_tracked = None
    samples: list[tuple[int, int]] = []
    last_tracked = 0
    drift: list[str] = []
    start = time.perf_counter()
    for i in range(cycles):
        if i % 4 == 3:
            try:
                decode_any(INVALID[(i // 4) % invalid_n])
                raise SystemExit(f"cycle {i}: invalid input decoded")
            except DecodeError:
                errors += 1
            bjson.encode(POINT)
            try:
                bjson.encode([1, UNSUPPORTED])
                raise SystemExit(f"cycle {i}: unsupported object encoded")
            except TypeError:
                errors += 1
        else:
            value = decode_any(VALID[i % valid_n])
            bjson.encode(value)
            decoded += 1
            del value
        if i + 1 == warmup or (i + 1) % max(cycles // 10, 1) == 0 or i + 1 == cycles:
            gc.collect()
            rss, refs, tracked = rss_kb(), refcounts(), len(gc.get_objects())
            if base_rss is None:
                base_rss, base_refs, base_tracked = rss, refs, tracked
            else:
                samples.append((i + 1, rss))
                last_tracked = tracked
                for name, count in refs.items():
                    if count != base_refs[name]:
                        drift.append(f"cycle {i + 1}: refcount of {name} {base_refs[name]} -> {count}")
                if tracked != base_tracked:
                    drift.append(f"cycle {i + 1}: GC-tracked objects {base_tracked} -> {tracked}")
    elapsed = time.perf_counter() - start
    growth_mb = (samples[-1][1] - base_rss) / 1024 if samples else 0.0
    peak_mb = (max(r for _, r in samples) - base_rss) / 1024 if samples else 0.0
    print(f"soak json: {cycles} cycles in {elapsed:.1f} s ({cycles / elapsed:,.0f} cycles/s): {decoded} valid decodes "
          f"+ encodes, {errors} expected errors")
    print(f"soak json: RSS after warm-up {base_rss / 1024:.1f} MB, at end {samples[-1][1] / 1024:.1f} MB, growth "
          f"{growth_mb:+.2f} MB (peak {peak_mb:+.2f} MB; limit {max_growth_mb} MB); samples (cycle: MB) "
          + ", ".join(f"{c}: {r / 1024:.1f}" for c, r in samples))
    print(f"soak json: refcounts of {len(base_refs)} watched objects "
          f"{'constant' if not any('refcount' in d for d in drift) else 'DRIFTED'}; "
          f"GC-tracked objects {base_tracked} -> {last_tracked}")
    for line in drift[:20]:
        print(f"soak json: DRIFT {line}")
    return 1 if drift or growth_mb > max_growth_mb else 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=1_000_000)
    parser.add_argument("--max-growth-mb", type=float, default=5.0)
    args = parser.parse_args()
    return run(args.cycles, args.max_growth_mb)


if __name__ == "__main__":
    sys.exit(main())
