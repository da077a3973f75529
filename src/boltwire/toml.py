"""TOML with msgspec.toml's API: ``decode`` over tomllib (tomli before Python 3.11) and ``encode`` over tomli_w
(optional dependencies, ``pip install boltwire[toml]``), with ``to_builtins`` / ``convert`` applying boltwire's
type rules."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from boltwire import _text_formats as _tf
from boltwire._errors import DecodeError as _DecodeError

__all__ = ("encode", "decode")

# TOML has local times too.
_TOML_TYPES = (*_tf.DATE_TYPES, datetime.time)


def __dir__() -> tuple[str, ...]:
    return __all__


def encode(obj: Any, *, enc_hook: Callable[[Any], Any] | None = None, order: str | None = None) -> bytes:
    """Serialize ``obj`` (which must become a table) as a TOML document (UTF-8 bytes)."""
    tomli_w = _tf.import_library("tomli_w", None, "tomli_w", "toml.encode")
    doc = _tf.as_builtins(obj, _TOML_TYPES, enc_hook, order, str_keys=True)
    if not isinstance(doc, dict):
        raise TypeError(f"TOML documents must be tables, got an object of type {type(obj).__name__!r}")
    return tomli_w.dumps(doc).encode("utf-8")


def decode(
    buf: Any,
    *,
    type: Any = Any,
    strict: bool = True,
    dec_hook: Callable[[type, Any], Any] | None = None,
) -> Any:
    """Deserialize a TOML document, as ``type`` when given."""
    tomllib = _tf.import_library("tomllib", "tomli", "tomli", "toml.decode")
    buf = _tf.to_text_input(buf)
    try:
        obj = tomllib.loads(buf.decode("utf-8") if isinstance(buf, bytes) else buf)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise _DecodeError(str(exc)) from None
    return _tf.from_builtins(obj, type, _TOML_TYPES, strict, dec_hook, str_keys=True)
