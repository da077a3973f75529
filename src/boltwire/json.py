"""JSON encoding: ``encode`` and ``Encoder``, byte-for-byte compatible with msgspec.json for common types."""

from boltwire._core import JsonEncoder as Encoder
from boltwire._core import json_encode as encode

__all__ = ["Encoder", "encode"]
