"""What boltwire.yaml and boltwire.toml share: a third-party parser/emitter imported on first use, with
convert() / to_builtins() doing every type rule (so YAML and TOML accept exactly what JSON's `convert` does)."""

from __future__ import annotations

import datetime
import importlib
from typing import Any

from boltwire._core import convert, to_builtins

# date / datetime (and time for TOML) are native to both formats: the libraries read and write them.
DATE_TYPES: tuple[type, ...] = (datetime.datetime, datetime.date)


def import_library(module: str, fallback: str | None, package: str, function: str) -> Any:
    """Import `module` (or `fallback`), or raise ImportError naming the package to install."""
    for name in (module, fallback):
        if name is None:
            continue
        try:
            return importlib.import_module(name)
        except ImportError:
            pass
    raise ImportError(
        f"`boltwire.{function}` requires {package} be installed.\n\n"
        "Please either `pip` or `conda` install it as follows:\n\n"
        f"  $ python -m pip install {package.lower()}  # using pip\n"
        f"  $ conda install {package.lower()}          # or using conda"
    ) from None


def as_builtins(obj: Any, builtin_types: tuple[type, ...], enc_hook: Any, order: Any, str_keys: bool = False) -> Any:
    """`str_keys`: the format's tables only have str keys (TOML), so other keys are written as their str form."""
    return to_builtins(obj, builtin_types=builtin_types, enc_hook=enc_hook, order=order, str_keys=str_keys)


def from_builtins(obj: Any, type: Any, builtin_types: tuple[type, ...], strict: bool, dec_hook: Any,
                  str_keys: bool = False) -> Any:
    if type is Any:
        return obj
    return convert(obj, type, builtin_types=builtin_types, strict=strict, dec_hook=dec_hook, str_keys=str_keys)


def to_text_input(buf: Any) -> Any:
    """str and bytes as given; any other buffer as bytes (memoryview first: bytes(1) would be b'\\x00')."""
    if isinstance(buf, (str, bytes)):
        return buf
    return bytes(memoryview(buf))
