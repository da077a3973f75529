"""bench/instructions.py: instruction counts per operation (callgrind), the repeatable measure for decoder work.

Timings on a shared machine drift; instruction counts do not. For each case this runs the interpreter twice under
`valgrind --tool=callgrind` (once preparing the data only, once also running the operation N times) and prints
(difference / N), the instructions one operation costs, for boltwire and, where it has one, msgspec / orjson.
http_sync / http_async: one request of the HTTP races (client side, every thread of the process; the kernel's
share of the CPU time is not in the count).

    .venv/bin/python bench/instructions.py [case ...] [--libs boltwire,msgspec] [-n N] [--site DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# Objects with three keys their class does not declare (skipped: the decoders' unknown-key path).
UNKNOWN_SETUP = (
    "import {lib}\nclass Item({lib}.Struct):\n    id: int\n    name: str\nT = list[Item]\n"
    "rows = [dict(id=i, name='n', note='skip me', tags=[1, 2], id2=i) for i in range(1000)]\n")

# case -> (setup, statement, default N, peers). Setup runs with `lib` bound to the library's module name.
CASES = {
    "load_json": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\n"
        "data = {lib}.json.encode(library_models.build_orders(m, library_models.make_orders()))\n"
        "dec = {lib}.json.Decoder(list[m.Order])",
        "dec.decode(data)", 10, ["boltwire", "msgspec"]),
    "load": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\norders = library_models.make_orders()\n"
        "T = list[m.Order]",
        "{lib}.convert(orders, T)", 10, ["boltwire", "msgspec"]),
    "load_tagged": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\n"
        "data = {lib}.json.encode(library_models.build_tree(m, library_models.make_tree()))\n"
        "dec = {lib}.json.Decoder(m.Dir)",
        "dec.decode(data)", 3000, ["boltwire", "msgspec"]),
    # make bench's library section as it times it: one call per Order / per tree, the module-level functions.
    "bench_load_json": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\nOrder = m.Order\ndecode = {lib}.json.decode\n"
        "bufs = [{lib}.json.encode(o) for o in library_models.build_orders(m, library_models.make_orders())]",
        "[decode(b, type=Order) for b in bufs]", 10, ["boltwire", "msgspec"]),
    "bench_load": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\nOrder = m.Order\nconvert = {lib}.convert\n"
        "raw = library_models.make_orders()",
        "[convert(d, Order) for d in raw]", 10, ["boltwire", "msgspec"]),
    "bench_load_tagged": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\nDir = m.Dir\ndecode = {lib}.json.decode\n"
        "tree_buf = {lib}.json.encode(library_models.build_tree(m, library_models.make_tree()))",
        "decode(tree_buf, type=Dir)", 3000, ["boltwire", "msgspec"]),
    # collect_errors=True on valid input: the cost of being ready to collect (compare with load_json / load).
    "load_json_collect": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\n"
        "data = {lib}.json.encode(library_models.build_orders(m, library_models.make_orders()))\n"
        "dec = {lib}.json.Decoder(list[m.Order], collect_errors=True)",
        "dec.decode(data)", 10, ["boltwire"]),
    "load_collect": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\norders = library_models.make_orders()\n"
        "T = list[m.Order]",
        "{lib}.convert(orders, T, collect_errors=True)", 10, ["boltwire"]),
    # collect_errors=True on the bench's invalid document (500 orders, 10% of the fields of the wrong type),
    # every error collected and counted, against pydantic's model_validate_json on the same bytes.
    "load_json_collect_invalid": (
        "import json, library_models, bench_library, {lib}\nraw = library_models.make_orders(500)\n"
        "data = json.dumps({{'orders': bench_library.corrupt_orders(raw)[0]}}).encode()\n"
        "m = library_models.load('{lib}')\nerror_count = bench_library.error_count\n"
        "if '{lib}' == 'pydantic':\n    import pydantic\n    [c.model_rebuild() for c in (m.Item, m.Order)]\n"
        "    decode = pydantic.create_model('Orders', orders=(list[m.Order], ...)).model_validate_json\n"
        "else:\n    Orders = {lib}.defstruct('Orders', [('orders', list[m.Order])])\n"
        "    decode = {lib}.json.Decoder(Orders, collect_errors=True, max_errors=10**6).decode",
        "error_count(lambda: decode(data))", 10, ["boltwire", "pydantic"]),
    "dump_json": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\n"
        "orders = library_models.build_orders(m, library_models.make_orders())\nenc = {lib}.json.Encoder()",
        "enc.encode(orders)", 10, ["boltwire", "msgspec"]),
    "untyped_decode": (
        "import json_documents, json, {lib}\n"
        "data = json.dumps(json_documents.make_document(1_000_000, 1), ensure_ascii=False).encode()\n"
        "loads = {lib}.json.decode if '{lib}' != 'orjson' else {lib}.loads",
        "loads(data)", 3, ["boltwire", "orjson", "msgspec"]),
    "untyped_encode": (
        "import json_documents, {lib}\ndoc = json_documents.make_document(1_000_000, 1)\n"
        "dumps = {lib}.json.encode if '{lib}' != 'orjson' else {lib}.dumps",
        "dumps(doc)", 3, ["boltwire", "orjson", "msgspec"]),
    # the encode section's untyped document (bench_encode.py: encode_data.untyped_document, seed 1)
    "untyped_encode_mixed": (
        "import encode_data, {lib}\ndoc = encode_data.untyped_document(1_000_000, seed=1)\n"
        "dumps = {lib}.json.encode if '{lib}' != 'orjson' else {lib}.dumps",
        "dumps(doc)", 3, ["boltwire", "orjson", "msgspec"]),
    "struct_define": (
        "import {lib}\nsrc = 'class C(S, order=True):\\n' + ''.join(f'    {{f}}: int\\n' for f in 'abcde')\n"
        "code = compile(src, '<C>', 'exec')\nenv = {{'S': {lib}.Struct}}",
        "exec(code, dict(env))", 3000, ["boltwire", "msgspec"]),
    "struct_define_gc": (  # as make bench times it: GC on, so the collections class garbage triggers count (±4%)
        "import {lib}\nsrc = 'class C(S, order=True):\\n' + ''.join(f'    {{f}}: int\\n' for f in 'abcde')\n"
        "code = compile(src, '<C>', 'exec')\nenv = {{'S': {lib}.Struct}}",
        "exec(code, dict(env))", 3000, ["boltwire", "msgspec"]),
    "struct_create": (
        "import {lib}\nclass C({lib}.Struct, order=True):\n    a: int\n    b: int\n    c: int\n    d: int\n    e: int",
        "C(a=1, b=2, c=3, d=4, e=5)", 200000, ["boltwire", "msgspec"]),
    "load_json_unknown": (
        UNKNOWN_SETUP + "data = {lib}.json.encode(rows)\ndec = {lib}.json.Decoder(T)", "dec.decode(data)", 30,
        ["boltwire", "msgspec"]),
    "msgpack_unknown": (
        UNKNOWN_SETUP + "data = {lib}.msgpack.encode(rows)\ndec = {lib}.msgpack.Decoder(T)", "dec.decode(data)", 30,
        ["boltwire", "msgspec"]),
    "convert_unknown": (UNKNOWN_SETUP, "{lib}.convert(rows, T)", 30, ["boltwire", "msgspec"]),
    "to_builtins": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\n"
        "orders = library_models.build_orders(m, library_models.make_orders())",
        "{lib}.to_builtins(orders)", 10, ["boltwire", "msgspec"]),
    "dump_msgpack": (
        "import library_models, {lib}\nm = library_models.load('{lib}')\n"
        "orders = library_models.build_orders(m, library_models.make_orders())\nenc = {lib}.msgpack.Encoder()",
        "enc.encode(orders)", 10, ["boltwire", "msgspec"]),
    "load_msgpack": (
        "import library_models, {lib}, {lib}.msgpack\nm = library_models.load('{lib}')\n"
        "data = {lib}.msgpack.encode(library_models.build_orders(m, library_models.make_orders()))\n"
        "dec = {lib}.msgpack.Decoder(list[m.Order])",
        "dec.decode(data)", 10, ["boltwire", "msgspec"]),
    "load_msgpack_collect": (  # collect_errors=True on valid input (compare with load_msgpack)
        "import library_models, {lib}, {lib}.msgpack\nm = library_models.load('{lib}')\n"
        "data = {lib}.msgpack.encode(library_models.build_orders(m, library_models.make_orders()))\n"
        "dec = {lib}.msgpack.Decoder(list[m.Order], collect_errors=True)",
        "dec.decode(data)", 10, ["boltwire"]),
    "load_msgpack_tagged": (  # bench_msgpack's tree row: the Decoder's type is the union, not Dir
        "import library_models, {lib}, {lib}.msgpack\nm = library_models.load('{lib}')\n"
        "data = {lib}.msgpack.encode(library_models.build_tree(m, library_models.make_tree()))\n"
        "dec = {lib}.msgpack.Decoder(m.File | m.Dir)",
        "dec.decode(data)", 3000, ["boltwire", "msgspec"]),
    "load_msgpack_untyped": (
        "import library_models, {lib}, {lib}.msgpack\nm = library_models.load('{lib}')\n"
        "data = {lib}.msgpack.encode(library_models.build_orders(m, library_models.make_orders()))",
        "{lib}.msgpack.decode(data)", 10, ["boltwire", "msgspec"]),
    "struct_eq_unequal": (
        "import {lib}\nclass C({lib}.Struct, order=True):\n    a: int\n    b: str\n    c: float\n    d: int\n    e: int\n"
        "xs = [C(a=i, b='s', c=1.5, d=4, e=5) for i in range(200)]\ny = C(a=199, b='s', c=1.5, d=4, e=5)",
        "xs.index(y)", 3000, ["boltwire", "msgspec"]),
    "struct_hash": (  # frozen Struct __hash__ (no cache_hash): 200 hashes of 5 fields
        "import {lib}\nclass C({lib}.Struct, frozen=True):\n    a: int\n    b: str\n    c: float\n    d: int\n    e: int\n"
        "xs = [C(a=i, b='s', c=1.5, d=4, e=5) for i in range(200)]",
        "list(map(hash, xs))", 3000, ["boltwire", "msgspec"]),
    "struct_lt": (
        "import {lib}, random\nclass C({lib}.Struct, order=True):\n    a: int\n    b: str\n    c: float\n    d: int\n    e: int\n"
        "rng = random.Random(1)\nxs = [C(a=1, b='s', c=1.5, d=4, e=rng.randint(0, 10**6)) for i in range(500)]",
        "sorted(xs)", 300, ["boltwire", "msgspec"]),
}

# The HTTP races' requests against a private nginx (started in the setup, outside valgrind): GET / decoded into the
# race's nested Struct, after warm-up requests (connections open, caches filled). http_async is shaped as the race:
# 100 workers on one loop take requests from a shared counter; one operation is 1,000 requests (PER divides).
HTTP_SETUP = (
    "import atexit, asyncio, sys\nsys.path.insert(0, {tests!r})\nfrom nginx_server import NginxServer\n"
    "import http_clients, {lib}\nserver = NginxServer().start()\natexit.register(server.stop)\n"
    "T = http_clients.boltwire_types()\n")
CASES["http_sync"] = (
    HTTP_SETUP + "client = {lib}.SyncHTTPClient(base_url=server.url).__enter__()\n"
    "for _ in range(200): client.get('/', response_data_type=T)",
    "client.get('/', response_data_type=T).data", 3000, ["boltwire"])
CASES["http_async"] = (
    HTTP_SETUP + "loop = asyncio.new_event_loop()\n"
    "client = loop.run_until_complete({lib}.HTTPClient(base_url=server.url).__aenter__())\n"
    "async def worker(todo):\n    for _ in todo: (await client.get('/', response_data_type=T)).data\n"
    "async def race(n):\n    todo = iter(range(n))\n    await asyncio.gather(*(worker(todo) for _ in range(100)))\n"
    "loop.run_until_complete(race(1000))",
    "loop.run_until_complete(race(1000))", 4, ["boltwire"])
PER = {"http_async": 1000}  # requests per operation

GC_ON = {"struct_define_gc"}

SCRIPT = """
import sys
sys.path[:0] = [{here!r}] + {site!r}
{setup}
import gc
gc.collect()
gc.disable()  # as timeit (and so make bench) times
{gc_on}
for _ in range({n}):
    {stmt}
"""


def count(python: str, case: str, lib: str, n: int, site: list[str]) -> int:
    setup, stmt, _, _ = CASES[case]
    # make bench times class definition with GC on (as an import runs), so the collections it triggers count
    gc_on = "gc.enable()" if case in GC_ON else ""
    tests = os.path.join(os.path.dirname(HERE), "tests", "http")
    text = SCRIPT.format(here=HERE, site=site, setup=setup.format(lib=lib, tests=tests), n=n,
                         stmt=stmt.format(lib=lib), gc_on=gc_on)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(text)
    try:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, f.name],
            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    finally:
        os.unlink(f.name)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if not m:
        raise RuntimeError(out.stderr[-2000:])
    return int(m.group(1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cases", nargs="*", default=list(CASES))
    p.add_argument("--libs", default="")
    p.add_argument("-n", type=int, default=0)
    p.add_argument("--site", action="append", default=[], help="a directory to import boltwire from (a snapshot)")
    args = p.parse_args()
    wanted = set(filter(None, args.libs.split(",")))
    for case in args.cases:
        n = args.n or CASES[case][2]
        row = []
        for lib in CASES[case][3]:
            if wanted and lib not in wanted:
                continue
            site = [os.path.abspath(d) for d in args.site]
            per_op = (count(sys.executable, case, lib, n, site) - count(sys.executable, case, lib, 0, site)) / n
            per_op /= PER.get(case, 1)
            row.append(f"{lib} {per_op / 1e6:9.3f} M" if per_op >= 1e5 else f"{lib} {per_op:9.0f}  ")
        print(f"{case:18} " + "  ".join(row), flush=True)


if __name__ == "__main__":
    main()
