"""JSON encoding: ``encode`` and ``Encoder``, byte-for-byte compatible with msgspec.json for common types;
``schema`` and ``schema_components`` for JSON Schema 2020-12 / OpenAPI 3.1."""

from boltwire._core import JsonEncoder as Encoder
from boltwire._core import json_encode as encode
from boltwire._json_schema import schema, schema_components

__all__ = ["Encoder", "encode", "schema", "schema_components"]
