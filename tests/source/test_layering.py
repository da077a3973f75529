"""DESIGN.md layering: a C++ file may include only its own layer and the layers above it."""

import re
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parents[2] / "csrc"
# Top to bottom, as DESIGN.md lists them; module.cpp (wiring) may include anything.
LAYERS = [
    "py",
    "schema",
    "struct",
    "json",
    "convert",
    "msgpack",  # a second format beside json: reads json's shared kernels and convert's scalar rules
    "http/codec",
    "http/url",
    "http/encoding",
    "http/sse",  # the event-stream parser: sans-IO, read by http/client's sse()
    "http/h2",
    "http/tls",
    "http/conn",
    "http/pool",
    "http/engine",
    "http/client",
]
# Sans-IO and engine layers never see Python objects (DESIGN.md).
NO_PYTHON = {"http/codec", "http/url", "http/encoding", "http/sse", "http/h2", "http/tls", "http/conn", "http/pool", "http/engine"}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.MULTILINE)


def layer_of(relative: str) -> str | None:
    for layer in sorted(LAYERS, key=len, reverse=True):
        if relative == layer or relative.startswith(layer + "/"):
            return layer
    return None


def sources():
    return sorted(p for p in CSRC.rglob("*") if p.suffix in {".cpp", ".hpp"})


def test_every_source_belongs_to_a_layer():
    assert sources(), "no C++ sources found"
    strays = [str(p.relative_to(CSRC)) for p in sources() if p.name != "module.cpp" and layer_of(str(p.relative_to(CSRC).parent)) is None]
    assert strays == []


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(CSRC)))
def test_includes_respect_layers(path):
    rel = path.relative_to(CSRC)
    if rel.name == "module.cpp":
        return
    own = layer_of(str(rel.parent))
    own_index = LAYERS.index(own)
    for target in INCLUDE.findall(path.read_text()):
        if own in NO_PYTHON:
            assert target not in {"Python.h", "structmember.h"} and not target.startswith("py/"), (
                f"{rel} is in a layer that never touches Python but includes {target}"
            )
        target_layer = layer_of(str(Path(target).parent))
        if target_layer is None:
            continue  # system or third-party header
        assert LAYERS.index(target_layer) <= own_index, f"{rel} ({own}) reaches down into {target} ({target_layer})"


def test_each_file_opens_with_its_purpose_line():
    missing = []
    for path in sources():
        rel = path.relative_to(CSRC)
        first = path.read_text().splitlines()[0] if path.read_text() else ""
        if not first.startswith(f"// csrc/{rel}:"):
            missing.append(str(rel))
    assert missing == []
