"""JSON: ``encode`` / ``Encoder`` (byte-for-byte compatible with msgspec.json for common types),
``decode`` / ``Decoder`` (typed, single pass, msgspec's spelling and error messages), and ``schema`` /
``schema_components`` for JSON Schema 2020-12 / OpenAPI 3.1."""

from boltwire._core import JsonDecoder as Decoder
from boltwire._core import JsonEncoder as Encoder
from boltwire._core import json_decode as decode
from boltwire._core import json_encode as encode
from boltwire._json_schema import schema, schema_components

__all__ = ["Decoder", "Encoder", "decode", "encode", "schema", "schema_components"]
