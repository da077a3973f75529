"""bench/bench_structs.py: Struct operations against peers (the seed page's "Structs"): define, create, ==, <."""

from __future__ import annotations

import gc
import random
import statistics
import timeit

from report import Row, Section, Table, Target
from struct_peers import PEERS, Peer
from timing import SLICES, calibrate, samples_per_op, spread

# (key, table title, unit, scale from seconds, target limit for boltwire / msgspec)
OPS = [
    ("define", "Define a class (5 int fields)", "μs", 1e6, 1.2),
    ("create", "Create an instance (5 int fields, keyword args)", "ns", 1e9, 1.0),
    ("eq", "Equality (x == y, equal instances)", "ns", 1e9, 1.0),
    ("order", "Order (x < y, differing in the last field)", "ns", 1e9, 1.0),
    # Issue 14's rows: comparisons on unequal instances, as list.index and sorted() make them.
    ("index", "Equality on unequal instances (list.index over 200, differing in the first field)", "μs", 1e6, 0.9),
    ("sort", "Order in bulk (sorted() of 500, differing in the last field)", "μs", 1e6, 0.9),
]
TARGET_LABELS = {
    "define": "class definition",
    "create": "creation",
    "eq": "equality",
    "order": "order",
    "index": "== on unequal instances (list.index)",
    "sort": "< in bulk (sorted)",
}


def run(args) -> Section:
    min_time, repeat = (0.04, 3) if args.quick else (0.1, 7)
    repeat = args.rounds or repeat
    prepared = {peer.name: prepare(peer) for peer in PEERS}

    timers, notes = {}, {}
    for peer, ops in prepared.items():
        for op, item in ops.items():
            if isinstance(item, str):
                notes[peer, op] = item
            else:
                try:
                    timers[peer, op] = (item, calibrate(item, min_time))
                except Exception as e:  # it passed the checks once; keep a later failure to its own row
                    notes[peer, op] = describe(e)
    samples = samples_per_op(timers, repeat, group_of=lambda key: key[1])

    def row(name: str, op: str, scale: float) -> Row:
        key = (name, op)
        if key not in samples:
            return Row(name, None, notes[key])
        return Row(name, statistics.median(samples[key]) * scale, spread=spread(samples[key], scale))

    tables = []
    for op, title, unit, scale, _ in OPS:
        tables.append(Table(f"{title}, {unit} per op", unit, [row(p.name, op, scale) for p in PEERS]))

    targets = []
    for (op, _, _, _, limit), table in zip(OPS, tables):
        bolt = next(r for r in table.rows if r.name == "boltwire")
        ratio = table.ratio(bolt)
        note = "" if ratio is not None else bolt.note or "no msgspec baseline"
        targets.append(Target(f"{TARGET_LABELS[op]} <= {limit}x msgspec", ratio, limit, note=note))

    method = [
        f"timeit, loop count for >= {min_time}s per sample, median of {repeat} samples; each sample is {SLICES} "
        "slices alternated with the other peers of its operation",
        "class definition is timed with GC enabled (as at import); the other operations with it paused",
    ]
    return Section("structs", tables, targets, notes=method)


def prepare(peer: Peer) -> dict[str, timeit.Timer | str]:
    """A timer per operation, or a note saying why that operation has no number for this peer."""
    ops = [op for op, *_ in OPS]
    try:
        env = peer.load()
    except ImportError:
        return dict.fromkeys(ops, "not installed")
    except Exception as e:  # a half-built extension must not take the whole run down
        return dict.fromkeys(ops, describe(e))
    env["__name__"] = __name__  # dataclasses and pydantic look the defining module up in sys.modules
    code = compile(peer.template, f"<{peer.name}>", "exec")

    try:
        ns = dict(env)
        exec(code, ns)
        C = ns["C"]
    except Exception as e:
        return dict.fromkeys(ops, describe(e))
    # Defining classes makes cyclic garbage; with timeit's GC pause the heap keeps growing and the samples
    # swing by +-50%, so this one timer runs with GC on, as an import would.
    define = timeit.Timer("exec(code, dict(env))", setup="gc.enable()", globals={"code": code, "env": env, "gc": gc})
    out: dict[str, timeit.Timer | str] = {"define": define}

    try:
        x, y, z = C(a=1, b=2, c=3, d=4, e=5), C(a=1, b=2, c=3, d=4, e=5), C(a=1, b=2, c=3, d=4, e=6)
        check(x.e == 5 and z.e == 6, "fields not set")
        out["create"] = timeit.Timer("C(a=1, b=2, c=3, d=4, e=5)", globals={"C": C})
    except Exception as e:
        return out | dict.fromkeys(ops[1:], describe(e))
    names = {"x": x, "y": y, "z": z}

    def eq() -> timeit.Timer:
        check(x == y and not (x != y) and x != z, "wrong == result")
        return timeit.Timer("x == y", globals=names)

    def index() -> timeit.Timer:
        xs, last = [C(a=i, b=2, c=3, d=4, e=5) for i in range(200)], C(a=199, b=2, c=3, d=4, e=5)
        check(xs.index(last) == 199, "wrong list.index result")
        return timeit.Timer("xs.index(last)", globals={"xs": xs, "last": last})

    def order() -> timeit.Timer:
        check(x < z and not z < x and not x < y and z > x, "wrong < result")
        return timeit.Timer("x < z", globals=names)

    def sort() -> timeit.Timer:
        rng = random.Random(1)
        bulk = [C(a=1, b=2, c=3, d=4, e=rng.randint(0, 10**6)) for _ in range(500)]
        check([c.e for c in sorted(bulk)] == sorted(c.e for c in bulk), "wrong sorted() result")
        return timeit.Timer("sorted(bulk)", globals={"bulk": bulk})

    comparisons = {"eq": eq, "index": index}
    if peer.orderable:
        comparisons |= {"order": order, "sort": sort}
    else:
        out["order"] = out["sort"] = "N/A (no ordering)"
    for op, make in comparisons.items():  # each on its own: one failing check leaves the others their numbers
        try:
            out[op] = make()
        except Exception as e:
            out[op] = describe(e)
    return out


def check(ok: bool, message: str) -> None:
    # A wrong answer would make a fast number meaningless, so it replaces the number.
    if not ok:
        raise AssertionError(message)


def describe(e: Exception) -> str:
    return f"error: {type(e).__name__}: {e}"[:100]
