"""bench/encode_data.py: the documents the encode benchmarks serialise, built from fixed seeds.

The seed page's Item / Order (500 random orders) and File / Dir tagged tree (depth 4, branching up to 5), defined
per library from one template, and untyped documents of about 1 MB and 10 MB (mixed numbers, strings, unicode,
nesting).
"""

from __future__ import annotations

import random
import string

ORDER_TEMPLATE = """
class Item(Struct):
    name: str
    price: float
    tags: list[str] = []
    metadata: Union[dict[str, str], None] = None

class Order(Struct, kw_only=True):
    id: int
    customer: str
    items: list[Item]
    created_at: str
    status: str = "pending"

class File(Struct, tag="file", kw_only=True):
    name: str
    size: int

class Dir(Struct, tag="dir", kw_only=True):
    name: str
    contents: "list[Union[File, Dir]]"
"""


def define(struct_base) -> dict:
    """Item, Order, File, Dir as subclasses of `struct_base` (boltwire.Struct or msgspec.Struct)."""
    from typing import Union

    ns: dict = {"Struct": struct_base, "Union": Union, "__name__": "encode_data_defs"}
    exec(ORDER_TEMPLATE, ns)
    return ns


def _word(rng: random.Random, lo: int = 3, hi: int = 12) -> str:
    return "".join(rng.choices(string.ascii_letters, k=rng.randint(lo, hi)))


def order_dicts(n: int = 500, seed: int = 42) -> list[dict]:
    rng = random.Random(seed)
    orders = []
    for i in range(n):
        items = []
        for _ in range(rng.randint(1, 8)):
            item = {"name": _word(rng), "price": round(rng.uniform(0.5, 500.0), 2),
                    "tags": [_word(rng, 2, 8) for _ in range(rng.randint(0, 4))]}
            if rng.random() < 0.5:
                item["metadata"] = {_word(rng, 2, 6): _word(rng) for _ in range(rng.randint(1, 3))}
            items.append(item)
        orders.append({"id": i, "customer": _word(rng, 5, 15), "items": items,
                       "created_at": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T12:00:00Z",
                       "status": rng.choice(["pending", "shipped", "delivered"])})
    return orders


def build_orders(ns: dict, dicts: list[dict]) -> list:
    Item, Order = ns["Item"], ns["Order"]
    return [Order(id=d["id"], customer=d["customer"], created_at=d["created_at"], status=d["status"],
                  items=[Item(name=x["name"], price=x["price"], tags=x["tags"], metadata=x.get("metadata"))
                         for x in d["items"]]) for d in dicts]


def build_tree(ns: dict, seed: int = 7, depth: int = 4, branching: int = 5):
    rng = random.Random(seed)
    File, Dir = ns["File"], ns["Dir"]

    def make(level: int):
        if level == depth or rng.random() < 0.3:
            return File(name=_word(rng), size=rng.randint(0, 10**6))
        return Dir(name=_word(rng), contents=[make(level + 1) for _ in range(rng.randint(1, branching))])

    return Dir(name="root", contents=[make(1) for _ in range(branching)])


_UNICODE = "héllo wörld ñandú 日本語テキスト 中文 Ελληνικά русский 🙂🚀 emoji"


def _value(rng: random.Random, depth: int):
    r = rng.random()
    if depth > 0 and r < 0.12:
        return [_value(rng, depth - 1) for _ in range(rng.randint(0, 8))]
    if depth > 0 and r < 0.24:
        return {_word(rng, 3, 10): _value(rng, depth - 1) for _ in range(rng.randint(0, 8))}
    r = rng.random()
    if r < 0.25:
        return rng.randint(-(10**9), 10**9)
    if r < 0.30:
        return rng.randint(-(2**62), 2**62)
    if r < 0.50:
        return rng.uniform(-1e6, 1e6)
    if r < 0.55:
        return rng.random() * 10 ** rng.randint(-30, 30)
    if r < 0.75:
        return _word(rng, 3, 30)
    if r < 0.85:
        start = rng.randint(0, len(_UNICODE) - 10)
        return _UNICODE[start:start + rng.randint(3, 20)]
    if r < 0.90:
        return 'quote " back \\ nl \n tab \t ' + _word(rng)
    if r < 0.95:
        return rng.random() < 0.5
    return None


def untyped_document(target_bytes: int, seed: int = 1) -> list:
    """A list of records (dicts with nested lists/dicts) whose JSON is about `target_bytes` long."""
    import json

    rng = random.Random(seed)
    doc, size = [], 0
    while size < target_bytes:
        record = {"id": rng.randint(0, 10**9), "name": _word(rng), "score": rng.random() * 100,
                  "tags": [_word(rng, 2, 8) for _ in range(rng.randint(0, 5))],
                  "text": _UNICODE[: rng.randint(5, len(_UNICODE))],
                  "payload": {_word(rng, 3, 8): _value(rng, 3) for _ in range(rng.randint(2, 8))}}
        doc.append(record)
        size += len(json.dumps(record, ensure_ascii=False).encode())
    return doc
