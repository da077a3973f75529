"""The exception hierarchy shared by boltwire's codecs (msgspec's spelling)."""

__all__ = ["BoltwireError", "DecodeError", "EncodeError", "MsgspecError", "ValidationError"]


class BoltwireError(Exception):
    """Base class for every error boltwire's codecs raise on purpose."""


# msgspec's name for the same base class: `except msgspec.MsgspecError` keeps working after the import swap.
MsgspecError = BoltwireError


class EncodeError(BoltwireError):
    """An error raised while encoding an object."""


class DecodeError(BoltwireError, ValueError):
    """An error raised while decoding input: malformed data."""


class ValidationError(DecodeError):
    """Well-formed input that does not match the expected type."""
