"""YAML with msgspec.yaml's API: ``encode`` / ``decode`` over PyYAML (an optional dependency,
``pip install boltwire[yaml]``), with ``to_builtins`` / ``convert`` applying boltwire's type rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boltwire import _text_formats as _tf
from boltwire._errors import DecodeError as _DecodeError

__all__ = ("encode", "decode")


def __dir__() -> tuple[str, ...]:
    return __all__


def _pyyaml(function: str) -> Any:
    return _tf.import_library("yaml", None, "PyYAML", f"yaml.{function}")


def encode(obj: Any, *, enc_hook: Callable[[Any], Any] | None = None, order: str | None = None) -> bytes:
    """Serialize ``obj`` as a YAML document (UTF-8 bytes)."""
    yaml = _pyyaml("encode")
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    doc = _tf.as_builtins(obj, _tf.DATE_TYPES, enc_hook, order)
    return yaml.dump_all([doc], encoding="utf-8", Dumper=dumper, allow_unicode=True, sort_keys=False)


def decode(
    buf: Any,
    *,
    type: Any = Any,
    strict: bool = True,
    dec_hook: Callable[[type, Any], Any] | None = None,
) -> Any:
    """Deserialize one YAML document, as ``type`` when given."""
    yaml = _pyyaml("decode")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        obj = yaml.load(_tf.to_text_input(buf), loader)
    except (yaml.YAMLError, ValueError, LookupError, AttributeError) as exc:
        raise _DecodeError(str(exc)) from None
    return _tf.from_builtins(obj, type, _tf.DATE_TYPES, strict, dec_hook)
