"""bench/bench_encode.py: JSON encode and to_builtins speed against msgspec and orjson.

Tables: dump JSON of the seed page's 500 Orders, the tagged File / Dir tree, struct -> dict (to_builtins) of
the 500 Orders, and untyped encode of generated ~1 MB and ~10 MB documents. Each peer's output is checked
against msgspec's before it is timed (byte-identical for boltwire; same parsed value for orjson).
"""

from __future__ import annotations

import json as stdlib_json
import statistics
import timeit

import encode_data
from report import Row, Section, Table, Target
from timing import calibrate, median_ratio, ratio_note, samples_per_op, spread


def run(args) -> Section:
    min_time, repeat = (0.05, 5) if args.quick else (0.2, 9)
    repeat = args.rounds or repeat
    import boltwire
    import boltwire.json
    import msgspec

    try:
        import orjson
    except ImportError:
        orjson = None

    bns, mns = encode_data.define(boltwire.Struct), encode_data.define(msgspec.Struct)
    dicts = encode_data.order_dicts()
    b_orders, m_orders = encode_data.build_orders(bns, dicts), encode_data.build_orders(mns, dicts)
    b_tree, m_tree = encode_data.build_tree(bns), encode_data.build_tree(mns)
    docs = {"1 MB": encode_data.untyped_document(1_000_000, seed=1)}
    if not args.quick:
        docs["10 MB"] = encode_data.untyped_document(10_000_000, seed=2)

    check(boltwire.json.encode(b_orders) == msgspec.json.encode(m_orders), "orders bytes differ")
    check(boltwire.json.encode(b_tree) == msgspec.json.encode(m_tree), "tree bytes differ")
    check(boltwire.to_builtins(b_orders) == msgspec.to_builtins(m_orders), "to_builtins differs")
    for doc in docs.values():
        check(boltwire.json.encode(doc) == msgspec.json.encode(doc), "untyped bytes differ")
        if orjson is not None:
            check(stdlib_json.loads(orjson.dumps(doc)) == stdlib_json.loads(msgspec.json.encode(doc)), "orjson differs")

    cases: list[tuple[str, str, str, float, str, dict[str, object]]] = [
        ("orders", "Dump JSON (500 Orders -> bytes)", "μs", 1e6, "msgspec",
         {"boltwire": lambda: boltwire.json.encode(b_orders), "msgspec": lambda: msgspec.json.encode(m_orders)}),
        ("tree", "Dump JSON (tagged union File / Dir tree)", "μs", 1e6, "msgspec",
         {"boltwire": lambda: boltwire.json.encode(b_tree), "msgspec": lambda: msgspec.json.encode(m_tree)}),
        ("to_builtins", "Dump (500 Orders -> dict, to_builtins)", "μs", 1e6, "msgspec",
         {"boltwire": lambda: boltwire.to_builtins(b_orders), "msgspec": lambda: msgspec.to_builtins(m_orders)}),
    ]
    for label, doc in docs.items():
        peers = {"boltwire": (lambda d=doc: boltwire.json.encode(d)), "msgspec": (lambda d=doc: msgspec.json.encode(d))}
        if orjson is not None:
            peers["orjson"] = lambda d=doc: orjson.dumps(d)
        size = len(msgspec.json.encode(doc)) / 1e6
        cases.append((f"untyped {label}", f"Untyped encode ({size:.1f} MB document)", "ms", 1e3,
                      "orjson" if orjson is not None else "msgspec", peers))

    timers = {}
    for key, _, _, _, _, peers in cases:
        for name, fn in peers.items():
            timer = timeit.Timer(fn)
            timers[key, name] = (timer, calibrate(timer, min_time))
    samples = samples_per_op(timers, repeat, group_of=lambda key: key[0])

    tables, targets = [], []
    limits = {"orders": 0.9, "tree": 0.9, "to_builtins": 0.9}
    for key, title, unit, scale, baseline, peers in cases:
        rows = [
            Row(name, statistics.median(samples[key, name]) * scale, spread=spread(samples[key, name], scale))
            for name in peers
        ]
        if orjson is None and key.startswith("untyped"):
            rows.append(Row("orjson", None, "not installed"))
        table = Table(f"{title}, {unit} per op", unit, rows, baseline=baseline)
        tables.append(table)
        limit = limits.get(key, 1.0)
        # As in the library section: the median of the per-round ratios (the peers of a round are timed in
        # alternating slices, so a round's ratio compares samples taken under the same load), with their spread.
        pair = ((key, "boltwire"), (key, baseline))
        targets.append(Target(f"{key} <= {limit}x {baseline}", median_ratio(samples, *pair), limit,
                              note=ratio_note(samples, *pair)))

    notes = [f"timeit, loop count for >= {min_time}s per sample, median of {repeat} samples interleaved across peers; "
             "targets use the median per-round ratio to the baseline",
             "outputs are checked against msgspec (bytes for boltwire, parsed value for orjson) before timing"]
    return Section("encode", tables, targets, notes=notes)


def check(ok: bool, message: str) -> None:
    if not ok:
        raise AssertionError(message)
