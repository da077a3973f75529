"""JSON: ``encode`` / ``Encoder`` (byte-for-byte compatible with msgspec.json for common types) and
``decode`` / ``Decoder`` (typed, single pass, msgspec's spelling and error messages)."""

from boltwire._core import JsonDecoder as Decoder
from boltwire._core import JsonEncoder as Encoder
from boltwire._core import json_decode as decode
from boltwire._core import json_encode as encode

__all__ = ["Decoder", "Encoder", "decode", "encode"]
