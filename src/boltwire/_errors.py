"""The exception hierarchy shared by boltwire's codecs (msgspec's spelling), and ErrorDetail, one entry of
``ValidationError.errors()``."""

from __future__ import annotations

from typing import Any

from boltwire._core import Struct

__all__ = ["BoltwireError", "DecodeError", "EncodeError", "ErrorDetail", "MsgspecError", "ValidationError"]


class BoltwireError(Exception):
    """Base class for every error boltwire's codecs raise on purpose."""


# msgspec's name for the same base class: `except msgspec.MsgspecError` keeps working after the import swap.
MsgspecError = BoltwireError


class EncodeError(BoltwireError):
    """An error raised while encoding an object."""


class DecodeError(BoltwireError, ValueError):
    """An error raised while decoding input: malformed data."""


class ErrorDetail(Struct, frozen=True):
    """One validation error.

    ``type`` is a stable code: ``wrong_type``, ``missing``, ``unknown_field``, ``invalid_tag``, ``constraint``,
    ``validator``, ``invalid_value``, ``out_of_range``, ``wrong_length``, ``not_hashable``, or ``malformed``
    (collect mode only: the input stopped being well-formed after the errors before it).
    ``loc`` is the path from the root: field names (as encoded), array indices, dict keys (a dict key's own
    error ends in ``"[key]"``). ``msg`` is msgspec's message without the `` - at `$...` `` suffix. ``input``
    is the offending value when the decoder had it at hand, else its type name (``"str"``, ``"object"``...),
    else None.
    """

    type: str
    loc: tuple[str | int, ...]
    msg: str
    input: Any = None


class ValidationError(DecodeError):
    """Well-formed input that does not match the expected type."""

    def errors(self) -> list[ErrorDetail]:
        """Every error this exception carries, in input order: one for a fail-fast decode, all of them
        (up to ``max_errors``) with ``collect_errors=True``."""
        # _details: a tuple of (type, loc, msg, input) tuples, or with collect_errors=True the compact records
        # (a sequence that makes those tuples on first use).
        details = self.__dict__.get("_details")
        if details is None:  # raised by user code (a hook): its text is the message
            return [ErrorDetail("validator", (), str(self), None)]
        return [ErrorDetail(*d) for d in details]

    def error_count(self) -> int:
        """How many errors ``errors()`` returns, without building them (pydantic's name)."""
        details = self.__dict__.get("_details")
        return 1 if details is None else len(details)
