"""bench/bench_msgpack.py: MessagePack encode and decode against msgspec.msgpack.

Tables: encode and typed decode of the seed page's 500 Orders and of the tagged File / Dir tree, and untyped
decode of the 500 Orders. Outputs are checked first: boltwire's bytes must equal msgspec's, and decoding them
must give objects that encode back to the same bytes. Each row reports the median and the spread
(min..max over the samples) per operation.
"""

from __future__ import annotations

import gc
import statistics
import timeit

import library_models
from report import Row, Section, Table, Target
from timing import calibrate


def run(args) -> Section:
    min_time, repeat = (0.05, 5) if args.quick else (0.2, 11)
    import boltwire
    import boltwire.msgpack
    import msgspec

    bns, mns = library_models.load("boltwire"), library_models.load("msgspec")
    raw_orders, raw_tree = library_models.make_orders(500), library_models.make_tree()
    b_orders, m_orders = library_models.build_orders(bns, raw_orders), library_models.build_orders(mns, raw_orders)
    b_tree, m_tree = library_models.build_tree(bns, raw_tree), library_models.build_tree(mns, raw_tree)
    orders_buf = msgspec.msgpack.encode(m_orders)
    tree_buf = msgspec.msgpack.encode(m_tree)
    b_orders_t, m_orders_t = list[bns.Order], list[mns.Order]
    b_node_t, m_node_t = bns.File | bns.Dir, mns.File | mns.Dir
    b_dec_orders, m_dec_orders = boltwire.msgpack.Decoder(b_orders_t), msgspec.msgpack.Decoder(m_orders_t)
    b_dec_tree, m_dec_tree = boltwire.msgpack.Decoder(b_node_t), msgspec.msgpack.Decoder(m_node_t)
    b_enc, m_enc = boltwire.msgpack.Encoder(), msgspec.msgpack.Encoder()

    check(boltwire.msgpack.encode(b_orders) == orders_buf, "orders bytes differ")
    check(boltwire.msgpack.encode(b_tree) == tree_buf, "tree bytes differ")
    check(boltwire.msgpack.encode(b_dec_orders.decode(orders_buf)) == orders_buf, "orders decode differs")
    check(boltwire.msgpack.encode(b_dec_tree.decode(tree_buf)) == tree_buf, "tree decode differs")
    check(boltwire.msgpack.decode(orders_buf) == msgspec.msgpack.decode(orders_buf), "untyped decode differs")

    cases = [
        ("encode orders", "Encode MessagePack (500 Orders -> bytes)",
         {"boltwire": lambda: b_enc.encode(b_orders), "msgspec": lambda: m_enc.encode(m_orders)}),
        ("encode tree", "Encode MessagePack (tagged union File / Dir tree)",
         {"boltwire": lambda: b_enc.encode(b_tree), "msgspec": lambda: m_enc.encode(m_tree)}),
        ("decode orders", "Decode MessagePack (bytes -> 500 Orders)",
         {"boltwire": lambda: b_dec_orders.decode(orders_buf), "msgspec": lambda: m_dec_orders.decode(orders_buf)}),
        ("decode tree", "Decode MessagePack (bytes -> File / Dir tree)",
         {"boltwire": lambda: b_dec_tree.decode(tree_buf), "msgspec": lambda: m_dec_tree.decode(tree_buf)}),
        ("decode untyped", "Decode MessagePack untyped (500 Orders -> dicts)",
         {"boltwire": lambda: boltwire.msgpack.decode(orders_buf), "msgspec": lambda: msgspec.msgpack.decode(orders_buf)}),
    ]
    timers = {}
    for key, _, peers in cases:
        for name, fn in peers.items():
            timer = timeit.Timer(fn)
            timers[key, name] = (timer, calibrate(timer, min_time))
    samples = {k: [] for k in timers}
    for _ in range(repeat):  # interleaved, so drift in load hits every peer alike
        for k, (timer, number) in timers.items():
            gc.collect()
            samples[k].append(timer.timeit(number) / number * 1e6)

    tables, targets = [], []
    for key, title, peers in cases:
        rows = []
        for name in peers:
            s = samples[key, name]
            rows.append(Row(name, statistics.median(s), f"spread {min(s):.1f}..{max(s):.1f}"))
        table = Table(f"{title}, μs per op", "μs", rows, baseline="msgspec")
        tables.append(table)
        targets.append(Target(f"{key} <= 0.9x msgspec", table.ratio(rows[0]), 0.9))
    notes = [f"timeit, loop count for >= {min_time}s per sample, median of {repeat} samples interleaved across peers",
             "spread = min..max of the samples; outputs checked against msgspec before timing"]
    return Section("msgpack", tables, targets, notes=notes)


def check(ok: bool, message: str) -> None:
    if not ok:
        raise AssertionError(message)
