"""bench/library_models.py: the seed page's Item / Order and File / Dir types, defined once per library, and data.

boltwire and msgspec share one source text, executed with `lib` bound to each; structtype spells the class
options its own way (a `struct_config` attribute); pydantic gets the equivalent models (a Literal `type` field with a discriminator stands in for the tag).
Each definition runs in its own module object so that the string annotations (`Dir` refers to itself) resolve.
"""

from __future__ import annotations

import importlib
import random
import sys
import types

STRUCT_SOURCE = '''
from __future__ import annotations


class Item(lib.Struct):
    name: str
    price: float
    tags: list[str] = []
    metadata: dict[str, str] | None = None


class Order(lib.Struct, kw_only=True):
    id: int
    customer: str
    items: list[Item]
    created_at: str
    status: str = "pending"


class File(lib.Struct, tag="file", kw_only=True):
    name: str
    size: int


class Dir(lib.Struct, tag="dir", kw_only=True):
    name: str
    contents: list[File | Dir]
'''

# structtype (0.15) spells class options as a `struct_config` class attribute instead of class keywords.
STRUCTTYPE_SOURCE = '''
from __future__ import annotations


class Item(lib.Struct):
    name: str
    price: float
    tags: list[str] = []
    metadata: dict[str, str] | None = None


class Order(lib.Struct):
    struct_config = lib.StructConfig(kw_only=True)
    id: int
    customer: str
    items: list[Item]
    created_at: str
    status: str = "pending"


class File(lib.Struct):
    struct_config = lib.StructConfig(tag="file", kw_only=True)
    name: str
    size: int


class Dir(lib.Struct):
    struct_config = lib.StructConfig(tag="dir", kw_only=True)
    name: str
    contents: list[File | Dir]
'''

PYDANTIC_SOURCE = '''
from __future__ import annotations

from typing import Annotated, Literal, Union


class Item(lib.BaseModel):
    name: str
    price: float
    tags: list[str] = []
    metadata: dict[str, str] | None = None


class Order(lib.BaseModel):
    id: int
    customer: str
    items: list[Item]
    created_at: str
    status: str = "pending"


class File(lib.BaseModel):
    type: Literal["file"] = "file"
    name: str
    size: int


class Dir(lib.BaseModel):
    type: Literal["dir"] = "dir"
    name: str
    contents: list[Annotated[Union[File, Dir], lib.Field(discriminator="type")]]
'''


def load(package: str) -> types.ModuleType:
    """A module holding Item, Order, File and Dir for `package`; ImportError when it is not installed."""
    lib = importlib.import_module(package)
    name = f"bench_library_models_{package}"
    module = types.ModuleType(name)
    module.lib = lib
    sys.modules[name] = module
    source = {"pydantic": PYDANTIC_SOURCE, "structtype": STRUCTTYPE_SOURCE}.get(package, STRUCT_SOURCE)
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module


def make_orders(n: int = 500, seed: int = 20240115) -> list[dict]:
    """`n` random orders as plain dicts: 5-20 items each, tags drawn from five letters, metadata on ~30%."""
    rng = random.Random(seed)
    orders = []
    for oid in range(n):
        items = []
        for _ in range(rng.randint(5, 20)):
            item = {
                "name": f"item-{rng.randint(1, 100)}",
                "price": round(rng.uniform(1.0, 100.0), 2),
                "tags": rng.sample(["a", "b", "c", "d", "e"], rng.randint(1, 5)),
            }
            if rng.random() < 0.3:
                item["metadata"] = {"key": "val"}
            items.append(item)
        orders.append(
            {
                "id": oid,
                "customer": f"cust-{rng.randint(1, 50)}",
                "items": items,
                "created_at": "2024-01-15",
                "status": rng.choice(["pending", "shipped", "delivered"]),
            }
        )
    return orders


def make_tree(depth: int = 4, width: int = 5) -> dict:
    """The tagged File / Dir tree: a directory at each level holds `width` children, the i-th of which
    branches i ways (so branching is up to 5), files at depth 0."""
    if depth == 0:
        return {"type": "file", "name": f"f-{depth}", "size": 42}
    return {"type": "dir", "name": f"d-{depth}", "contents": [make_tree(depth - 1, i) for i in range(width)]}


def build_orders(models: types.ModuleType, orders: list[dict]) -> list:
    """Struct instances from the dicts by calling the constructors (needs no convert())."""
    Item, Order = models.Item, models.Order
    out = []
    for o in orders:
        items = [Item(**i) for i in o["items"]]
        out.append(Order(**{**o, "items": items}))
    return out


def build_tree(models: types.ModuleType, node: dict):
    if node["type"] == "file":
        return models.File(name=node["name"], size=node["size"])
    return models.Dir(name=node["name"], contents=[build_tree(models, c) for c in node["contents"]])
