"""bench/json_documents.py: large generated JSON documents for the untyped encode / decode table (fixed seed)."""

from __future__ import annotations

import json
import random

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "sigma", "omega"]
UNICODE = ["café", "naïve", "Straße", "日本語", "한국어", "Ελληνικά", "русский", "emoji 🚀🔥", "مرحبا", "ℕ ⊆ ℤ"]
ESCAPES = ['say "hi"', "line\nbreak", "tab\there", "back\\slash", "ctl\x01char", "slash/ok"]


def make_document(target_bytes: int, seed: int) -> list:
    """A list of records whose compact JSON is about `target_bytes` long: ints (small and 64-bit), floats of
    varied magnitude, ASCII, escaped and non-ASCII strings, booleans, nulls, and nesting four levels deep."""
    rng = random.Random(seed)
    records: list = []
    size = 2
    while size < target_bytes:
        record = make_record(rng, len(records))
        records.append(record)
        size += len(json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()) + 1
    return records


def make_record(rng: random.Random, i: int) -> dict:
    def text(n: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(n))

    return {
        "id": i,
        "guid": f"{rng.getrandbits(128):032x}",
        "active": rng.random() < 0.5,
        "score": round(rng.uniform(-1000, 1000), rng.randint(0, 6)),
        "ratio": rng.random(),
        "tiny": rng.random() * 10.0 ** rng.randint(-12, -3),
        "huge": rng.random() * 10.0 ** rng.randint(10, 300),
        "big": rng.randint(-(2**63), 2**63 - 1),
        "count": rng.randint(0, 1000),
        "name": text(rng.randint(1, 4)),
        "bio": " ".join([text(rng.randint(3, 12)), rng.choice(UNICODE), rng.choice(ESCAPES), text(2)]),
        "tags": [rng.choice(WORDS) for _ in range(rng.randint(0, 6))],
        "missing": None,
        "location": {"lat": rng.uniform(-90, 90), "lon": rng.uniform(-180, 180), "city": rng.choice(UNICODE)},
        "history": [
            {
                "at": rng.randint(1_600_000_000, 1_800_000_000),
                "delta": [rng.randint(-100, 100) for _ in range(rng.randint(0, 5))],
                "meta": {"ok": rng.random() < 0.9, "note": rng.choice(ESCAPES + UNICODE), "level": {"x": 1.5}},
            }
            for _ in range(rng.randint(0, 4))
        ],
    }
