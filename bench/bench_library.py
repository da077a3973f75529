"""bench/bench_library.py: the seed page's "Library Comparison" (boltwire, msgspec, structtype, pydantic) and an
untyped JSON table against orjson and msgspec on generated ~1 MB / ~10 MB documents.

Typed part, as on the seed page: Item / Order as written there, 500 random orders (fixed seed) for dump
(struct -> dict), load (dict -> struct), dump JSON and load JSON; the tagged File / Dir tree (depth 4,
branching up to 5) for JSON dump and load. Each library uses its own spelling of the operation and decodes its
own encoding. Timing is timeit best-of, as the seed; the printed ratio is to the fastest row, as the seed. The
targets use the median over rounds of boltwire's time / msgspec's time in the same round (rounds interleave
the peers, so drift hits all of them alike).

All errors at once (collect_errors=True, issue 16): the 500 orders as one document {"orders": [...]}. Valid:
boltwire's collect mode against its fail-fast decoder (target <= 1.10x). Invalid, every tenth field of the
orders and their items of the wrong type (fixed seed): boltwire collecting every error against pydantic's
model_validate_json on the same bytes (target: at least 3x faster); both must report the same error count.

A boltwire operation whose function is not there yet (to_builtins, convert, json.decode come from other
branches) prints "not available" instead of failing, and fills in once it exists.
"""

from __future__ import annotations

import json
import timeit
from collections.abc import Callable

import json_documents
import library_models
from report import Row, Section, Table, Target
from timing import SLICES, calibrate, median_ratio, ratio_note, sample_groups, spread

# (key, title as on the seed page, target for boltwire / msgspec)
# Targets: issue 14's (decoding speed) limits on boltwire / msgspec; the dumps keep theirs of <= 0.80.
OPS = [
    ("dump", "Dump (struct → dict)", 0.8),
    ("load", "Load (dict → struct)", 0.85),
    ("dump_json", "Dump JSON (struct → bytes)", 0.8),
    ("load_json", "Load JSON (bytes → struct)", 0.8),
    ("dump_tagged", "Dump JSON (tagged union)", 0.8),
    ("load_tagged", "Load JSON (tagged union)", 0.85),
]
PEERS = ["boltwire", "msgspec", "structtype", "pydantic"]

# Untyped documents: (label, approximate size, seed); peers and the target against orjson.
DOCUMENTS = [("~1 MB", 1_000_000, 1), ("~10 MB", 10_000_000, 10)]
UNTYPED_PEERS = ["boltwire", "orjson", "msgspec"]
UNTYPED_LIMIT = 0.95  # issue 14: decode and encode, 1 MB and 10 MB

NOT_AVAILABLE = "not available"


class Case:
    """A statement to time, and the check it passed once before timing (a wrong answer gets no number)."""

    def __init__(self, stmt: str, namespace: dict, check: Callable[[object], bool] | None = None) -> None:
        self.timer = timeit.Timer(stmt, globals=namespace)
        self.stmt, self.namespace, self.check = stmt, namespace, check

    def verify(self) -> None:
        result = eval(self.stmt, self.namespace)
        if self.check is not None and not self.check(result):
            raise AssertionError("wrong result")


def run(args) -> Section:
    typed_tables, typed_targets, typed_raw = run_typed(args)
    collect_tables, collect_targets, collect_raw = run_collect(args)
    typed_tables, typed_targets = typed_tables + collect_tables, typed_targets + collect_targets
    typed_raw.update(collect_raw)
    untyped_tables, untyped_targets, untyped_raw = run_untyped(args)
    min_time, repeat = timing_params(args)
    notes = [
        f"typed: timeit best-of {repeat} samples of >= {min_time}s each, each sample {SLICES} slices alternated with "
        "the other peers of its operation; ratio column is to "
        "the fastest row (as on the seed page); targets use the median per-round ratio boltwire / msgspec",
        "untyped: same sampling; ratio column is to orjson; targets use the median per-round ratio to orjson",
    ]
    return Section(
        "library",
        typed_tables + untyped_tables,
        typed_targets + untyped_targets,
        notes=notes,
        raw={"typed": typed_raw, "untyped": untyped_raw},
    )


def timing_params(args) -> tuple[float, int]:
    min_time, repeat = (0.02, 3) if args.quick else (0.1, 9)  # 9 rounds: issue 14's rows sit close to their targets
    return min_time, args.rounds or repeat


# ---------------------------------------------------------------------------------------------------------------
# Typed: the seed's library comparison


def run_typed(args):
    raw_orders = library_models.make_orders(500)
    raw_tree = library_models.make_tree()
    expected_orders = [normalized_order(o) for o in raw_orders]

    cases: dict[tuple[str, str], Case] = {}
    notes: dict[tuple[str, str], str] = {}
    for peer in PEERS:
        try:
            prepared = prepare(peer, raw_orders, raw_tree, expected_orders)
        except ImportError:
            prepared = dict.fromkeys((op for op, *_ in OPS), "not installed")
        except Exception as e:  # a peer that cannot even build its data must not stop the others
            prepared = dict.fromkeys((op for op, *_ in OPS), describe(e))
        for op, item in prepared.items():
            if isinstance(item, str):
                notes[peer, op] = item
                continue
            try:
                item.verify()
                cases[peer, op] = item
            except Exception as e:
                notes[peer, op] = describe(e)

    min_time, repeat = timing_params(args)
    samples = sample_interleaved(cases, min_time, repeat, notes)

    tables, targets = [], []
    for op, title, limit in OPS:
        rows = []
        for peer in PEERS:
            key = (peer, op)
            if key in samples:
                rows.append(Row(peer, min(samples[key]) * 1e6, spread=spread(samples[key], 1e6)))
            else:
                rows.append(Row(peer, None, notes.get(key, "N/A")))
        measured = [r for r in rows if r.value is not None]
        fastest = min(measured, key=lambda r: r.value).name if measured else None
        tables.append(Table(title, "μs", rows, baseline=fastest))
        ratio = median_ratio(samples, ("boltwire", op), ("msgspec", op))
        note = ratio_note(samples, ("boltwire", op), ("msgspec", op)) if ratio is not None else \
            notes.get(("boltwire", op)) or notes.get(("msgspec", op), "")
        targets.append(Target(f"{title}: boltwire / msgspec <= {limit}", ratio, limit, note=note))
    raw = {f"{peer} {op}": s for (peer, op), s in samples.items()}
    return tables, targets, raw


# ---------------------------------------------------------------------------------------------------------------
# All errors at once: collect_errors=True against fail-fast and against pydantic


def corrupt_orders(raw_orders: list, rate: float = 0.1, seed: int = 16) -> tuple[list, int]:
    """A copy of the orders with `rate` of their fields (and their items' fields) replaced by a value of the
    wrong type; returns (orders, how many fields were replaced)."""
    import random

    rng = random.Random(seed)
    wrong = {int: "not a number", float: "free", str: 12345}
    bad = 0

    def spoil(obj: dict, fields: dict) -> dict:
        nonlocal bad
        out = dict(obj)
        for name, kind in fields.items():
            if name in out and rng.random() < rate:
                out[name] = wrong[kind]
                bad += 1
        return out

    orders = []
    for order in raw_orders:
        spoiled = spoil(order, {"id": int, "customer": str, "created_at": str, "status": str})
        spoiled["items"] = [spoil(item, {"name": str, "price": float}) for item in order["items"]]
        orders.append(spoiled)
    return orders, bad


def error_count(fn: Callable[[], object]) -> int:
    """Runs a decode that must fail and returns how many errors it reported (timed as such: raise and catch)."""
    try:
        fn()
    except Exception as e:  # boltwire.ValidationError or pydantic.ValidationError
        errors = getattr(e, "error_count", None)
        return errors() if errors is not None else len(e.errors())
    raise AssertionError("the invalid document decoded")


def run_collect(args):
    raw_orders = library_models.make_orders(500)
    bad_orders, bad = corrupt_orders(raw_orders)
    valid_doc = json.dumps({"orders": raw_orders}).encode()
    invalid_doc = json.dumps({"orders": bad_orders}).encode()
    cases: dict[tuple[str, str], Case] = {}
    notes: dict[tuple[str, str], str] = {}
    try:
        import boltwire

        m = library_models.load("boltwire")
        Orders = boltwire.defstruct("Orders", [("orders", list[m.Order])])
        fail_fast = boltwire.json.Decoder(Orders)
        collect = boltwire.json.Decoder(Orders, collect_errors=True, max_errors=1_000_000)
        expected = fail_fast.decode(valid_doc)
        ns = {"fail_fast": fail_fast, "collect": collect, "valid": valid_doc, "invalid": invalid_doc,
              "error_count": error_count}
        cases["boltwire fail-fast", "valid"] = Case("fail_fast.decode(valid)", ns, lambda r: r == expected)
        cases["boltwire collect_errors=True", "valid"] = Case("collect.decode(valid)", ns, lambda r: r == expected)
        cases["boltwire collect_errors=True", "invalid"] = Case(
            "error_count(lambda: collect.decode(invalid))", ns, lambda n: n == bad)
    except Exception as e:
        for row, op in [("boltwire fail-fast", "valid"), ("boltwire collect_errors=True", "valid"),
                        ("boltwire collect_errors=True", "invalid")]:
            notes[row, op] = describe(e)
    try:
        import pydantic

        pm = library_models.load("pydantic")
        for cls in (pm.Item, pm.Order):
            cls.model_rebuild()
        POrders = pydantic.create_model("Orders", orders=(list[pm.Order], ...))
        ns = {"Orders": POrders, "invalid": invalid_doc, "error_count": error_count}
        cases["pydantic model_validate_json", "invalid"] = Case(
            "error_count(lambda: Orders.model_validate_json(invalid))", ns, lambda n: n == bad)
    except ImportError:
        notes["pydantic model_validate_json", "invalid"] = "not installed"
    except Exception as e:
        notes["pydantic model_validate_json", "invalid"] = describe(e)
    keep_verified(cases, notes)

    min_time, repeat = timing_params(args)
    samples = sample_interleaved(cases, min_time, repeat, notes)
    layout = [
        ("valid", "Load JSON, 500 valid orders: collect_errors=True vs fail-fast",
         ["boltwire fail-fast", "boltwire collect_errors=True"]),
        ("invalid", f"Load JSON, 500 orders with {bad} invalid fields (10%), every error collected",
         ["boltwire collect_errors=True", "pydantic model_validate_json"]),
    ]
    tables = []
    for op, title, names in layout:
        rows = []
        for name in names:
            if (name, op) in samples:
                rows.append(Row(name, min(samples[name, op]) * 1e6, spread=spread(samples[name, op], 1e6)))
            else:
                rows.append(Row(name, None, notes.get((name, op), "N/A")))
        measured = [r for r in rows if r.value is not None]
        tables.append(Table(title, "μs", rows, baseline=min(measured, key=lambda r: r.value).name if measured else None))
    valid_keys = (("boltwire collect_errors=True", "valid"), ("boltwire fail-fast", "valid"))
    invalid_keys = (("boltwire collect_errors=True", "invalid"), ("pydantic model_validate_json", "invalid"))
    valid_ratio, invalid_ratio = median_ratio(samples, *valid_keys), median_ratio(samples, *invalid_keys)
    targets = [
        Target("Load JSON valid: collect_errors=True / fail-fast <= 1.10", valid_ratio, 1.10,
               note=ratio_note(samples, *valid_keys)),
        Target("Load JSON 10% invalid, all errors: boltwire / pydantic <= 0.33 (3x faster)", invalid_ratio, 0.33,
               note=ratio_note(samples, *invalid_keys)),
    ]
    raw = {f"{name} {op}": s for (name, op), s in samples.items()}
    return tables, targets, raw


def normalized_order(order: dict) -> dict:
    """An order as to_builtins writes it: every field, declared order, defaults filled in."""
    items = [
        {"name": i["name"], "price": i["price"], "tags": i["tags"], "metadata": i.get("metadata")}
        for i in order["items"]
    ]
    return {
        "id": order["id"],
        "customer": order["customer"],
        "items": items,
        "created_at": order["created_at"],
        "status": order["status"],
    }


def prepare(peer: str, raw_orders: list, raw_tree: dict, expected: list) -> dict[str, Case | str]:
    models = library_models.load(peer)  # ImportError when the peer is not installed
    if peer == "pydantic":
        for cls in (models.Item, models.Order, models.File, models.Dir):
            cls.model_rebuild()
        orders = [models.Order.model_validate(o) for o in raw_orders]
        tree = models.Dir.model_validate(raw_tree)
    elif peer == "structtype":
        orders = [models.Order.struct_validate(o) for o in raw_orders]
        tree = models.Dir.struct_validate(raw_tree)
    else:
        orders = library_models.build_orders(models, raw_orders)
        tree = library_models.build_tree(models, raw_tree)

    def same_orders(result: object) -> bool:
        return result == orders

    def same_tree(result: object) -> bool:
        return result == tree

    def builtins_ok(result: object) -> bool:
        return result == expected

    def json_ok(result: object) -> bool:
        return [json.loads(b) for b in result] == expected

    def tree_json_ok(result: object) -> bool:
        return json.loads(result) == raw_tree

    ns = {"orders": orders, "raw": raw_orders, "tree": tree, "Order": models.Order, "Dir": models.Dir}
    out: dict[str, Case | str] = {}

    if peer == "structtype":
        spell = {
            "dump": "[o.struct_dump() for o in orders]",
            "load": "[Order.struct_validate(d) for d in raw]",
            "dump_json": "[o.struct_dump_json() for o in orders]",
            "load_json": "[Order.struct_validate_json(b) for b in bufs]",
            "dump_tagged": "tree.struct_dump_json()",
            "load_tagged": "Dir.struct_validate_json(tree_buf)",
        }
        ns["bufs"] = [o.struct_dump_json() for o in orders]
        ns["tree_buf"] = tree.struct_dump_json()
    elif peer == "pydantic":
        spell = {
            "dump": "[o.model_dump() for o in orders]",
            "load": "[Order.model_validate(d) for d in raw]",
            "dump_json": "[o.model_dump_json() for o in orders]",
            "load_json": "[Order.model_validate_json(b) for b in bufs]",
            "dump_tagged": "tree.model_dump_json()",
            "load_tagged": "Dir.model_validate_json(tree_buf)",
        }
        ns["bufs"] = [o.model_dump_json().encode() for o in orders]
        ns["tree_buf"] = tree.model_dump_json().encode()
    else:
        lib = models.lib
        ns["to_builtins"] = getattr(lib, "to_builtins", None)
        ns["convert"] = getattr(lib, "convert", None)
        ns["encode"] = getattr(lib.json, "encode", None)
        ns["decode"] = getattr(lib.json, "decode", None)
        spell = {
            "dump": "[to_builtins(o) for o in orders]",
            "load": "[convert(d, Order) for d in raw]",
            "dump_json": "[encode(o) for o in orders]",
            "load_json": "[decode(b, type=Order) for b in bufs]",
            "dump_tagged": "encode(tree)",
            "load_tagged": "decode(tree_buf, type=Dir)",
        }
        needs = {
            "dump": ["to_builtins"],
            "load": ["convert"],
            "dump_json": ["encode"],
            "load_json": ["encode", "decode"],
            "dump_tagged": ["encode"],
            "load_tagged": ["encode", "decode"],
        }
        if ns["encode"] is not None:
            ns["bufs"] = [ns["encode"](o) for o in orders]
            ns["tree_buf"] = ns["encode"](tree)
        for op, names in needs.items():
            missing = [n for n in names if ns[n] is None]
            if missing:
                out[op] = f"{NOT_AVAILABLE} ({', '.join(missing)} missing)"

    checks = {
        "dump": builtins_ok,
        "load": same_orders,
        "dump_json": json_ok,
        "load_json": same_orders,
        "dump_tagged": tree_json_ok,
        "load_tagged": same_tree,
    }
    for op, stmt in spell.items():
        if op not in out:
            out[op] = Case(stmt, ns, checks[op])
    return out


# ---------------------------------------------------------------------------------------------------------------
# Untyped: whole documents against orjson and msgspec


def run_untyped(args):
    min_time, _ = timing_params(args)
    min_time *= 2  # one op is milliseconds long; longer samples steady the 10 MB numbers
    # 15 rounds (the typed part has 9): these rows' per-round ratios spread over +-15% on the shared VM, and their
    # samples are short enough that the extra rounds add only ~20 s.
    repeat = args.rounds or (3 if args.quick else 15)
    tables, targets, raw = [], [], {}
    for label, size, seed in DOCUMENTS[:1] if args.quick else DOCUMENTS:  # --quick: the ~1 MB document only
        doc = json_documents.make_document(size, seed)
        cases: dict[tuple[str, str], Case] = {}
        notes: dict[tuple[str, str], str] = {}
        actual_size = None
        for peer in UNTYPED_PEERS:
            try:
                encode, decode, how = untyped_functions(peer)
            except ImportError:
                notes[peer, "decode"] = notes[peer, "encode"] = "not installed"
                continue
            ns = {"doc": doc, "encode": encode, "decode": decode}
            if encode is None:
                notes[peer, "encode"] = NOT_AVAILABLE
            else:
                cases[peer, "encode"] = Case("encode(doc)", ns, lambda out, doc=doc: json.loads(out) == doc)
            if decode is None:
                notes[peer, "decode"] = NOT_AVAILABLE
                continue
            # Each library decodes the same bytes (its own encoding when it has an encoder; orjson's otherwise).
            buf = encode(doc) if encode is not None else json.dumps(doc, ensure_ascii=False).encode()
            actual_size = actual_size or len(buf)
            ns["buf"] = buf
            cases[peer, "decode"] = Case("decode(buf)", ns, lambda out, doc=doc: out == doc)
            if how:
                notes[peer, "decode-how"] = how
        keep_verified(cases, notes)
        samples = sample_interleaved(cases, min_time, repeat, notes)
        size_note = f"{actual_size / 1e6:.1f} MB" if actual_size else label
        for op, verb in (("decode", "decode (bytes → objects)"), ("encode", "encode (objects → bytes)")):
            rows = []
            for peer in UNTYPED_PEERS:
                key = (peer, op)
                if key in samples:
                    extra = notes.get((peer, "decode-how"), "") if op == "decode" else ""
                    rows.append(Row(peer, min(samples[key]) * 1e3, extra, spread(samples[key], 1e3)))
                else:
                    rows.append(Row(peer, None, notes.get(key, "N/A")))
            tables.append(Table(f"Untyped JSON {verb}, {size_note} document", "ms", rows, baseline="orjson"))
            ratio = median_ratio(samples, ("boltwire", op), ("orjson", op))
            note = ratio_note(samples, ("boltwire", op), ("orjson", op)) if ratio is not None else \
                notes.get(("boltwire", op)) or notes.get(("orjson", op), "")
            targets.append(
                Target(f"untyped {op} {label}: boltwire / orjson <= {UNTYPED_LIMIT}", ratio, UNTYPED_LIMIT, note=note)
            )
        raw[label] = {f"{peer} {op}": s for (peer, op), s in samples.items()}
        del doc
    return tables, targets, raw


def untyped_functions(peer: str):
    """(encode, decode, note) for a peer; either function may be None when boltwire lacks it yet."""
    if peer == "orjson":
        import orjson

        return orjson.dumps, orjson.loads, ""
    if peer == "msgspec":
        import msgspec

        return msgspec.json.encode, msgspec.json.decode, ""
    import boltwire

    decode = getattr(boltwire.json, "decode", None)
    how = ""
    if decode is None:
        from boltwire import _core

        decode = getattr(_core, "_json_decode_any", None)
        how = "(_core._json_decode_any)" if decode is not None else ""
    return getattr(boltwire.json, "encode", None), decode, how


# ---------------------------------------------------------------------------------------------------------------
# Sampling


def sample_interleaved(cases: dict, min_time: float, repeat: int, notes: dict) -> dict[tuple, list[float]]:
    """Seconds per operation, `repeat` samples per case (timing.sample_groups: the peers of one operation are
    timed in alternating short slices, so the per-round ratios compare samples taken under the same load)."""
    op_rank = {op: i for i, op in enumerate([op for op, *_ in OPS] + ["decode", "encode"])}
    peer_rank = {peer: i for i, peer in enumerate(PEERS + UNTYPED_PEERS)}  # boltwire next to its baseline
    loops = {}
    def rank(kv):  # the collect rows (run_collect) name their own operations and rows: they sort after
        (peer, op) = kv[0]
        return (op_rank.get(op, len(op_rank)), op, peer_rank.get(peer, len(peer_rank)), peer)

    for key, case in sorted(cases.items(), key=rank):
        try:
            loops[key] = calibrate(case.timer, min_time)
        except Exception as e:  # it passed its check once; keep a later failure to its own row
            notes[key] = describe(e)
    groups: dict[str, list[tuple]] = {}
    for key in loops:  # in rank order: an operation's peers together, boltwire next to its baseline
        groups.setdefault(key[1], []).append(key)
    return sample_groups(list(groups.values()), {key: (cases[key].timer, n) for key, n in loops.items()}, repeat)


def keep_verified(cases: dict, notes: dict) -> None:
    """Drops the cases whose check fails, noting why (a wrong answer gets no number)."""
    for key, case in list(cases.items()):
        try:
            case.verify()
        except Exception as e:
            notes[key] = describe(e)
            del cases[key]


def describe(e: Exception) -> str:
    return f"error: {type(e).__name__}: {e}"[:100]
