"""JSON encoding: ``encode`` and ``Encoder``, byte-for-byte compatible with msgspec.json for common types."""

from boltwire._core import JsonEncoder as Encoder
from boltwire._core import json_encode as encode
from boltwire._core import json_format as format  # noqa: A001 (msgspec's name)

__all__ = ["Encoder", "encode", "format"]
