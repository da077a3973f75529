"""inspect.Signature for a Struct class's generated __init__ (computed on demand, never on a hot path)."""

from __future__ import annotations

import inspect
from typing import Any

from boltwire._core import NODEFAULT, Factory


def _annotations(cls: type) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        merged.update(klass.__dict__.get("__annotations__", {}))
    return merged


def struct_signature(cls: Any) -> inspect.Signature:
    fields = cls.__struct_fields__
    defaults = cls.__struct_defaults__
    n_positional = len(cls.__match_args__)
    offset = len(fields) - len(defaults)
    annotations = _annotations(cls)
    params = []
    for i, name in enumerate(fields):
        default: Any = inspect.Parameter.empty
        if i >= offset:
            entry = defaults[i - offset]
            if isinstance(entry, Factory):
                default = entry.factory()
            elif entry is not NODEFAULT:
                default = entry
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if i < n_positional else inspect.Parameter.KEYWORD_ONLY
        params.append(
            inspect.Parameter(name, kind, default=default, annotation=annotations.get(name, inspect.Parameter.empty))
        )
    return inspect.Signature(params)
