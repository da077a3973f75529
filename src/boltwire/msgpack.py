"""MessagePack: ``encode`` / ``Encoder`` (byte-for-byte msgspec.msgpack's output) and ``decode`` / ``Decoder``
(typed, single pass over the same type plans as JSON, msgspec's error messages), ``Ext`` for extension values.
Datetimes with a timezone travel as the timestamp extension (-1)."""

from boltwire._core import MsgpackDecoder as Decoder
from boltwire._core import MsgpackEncoder as Encoder
from boltwire._core import MsgpackExt as Ext
from boltwire._core import msgpack_decode as decode
from boltwire._core import msgpack_encode as encode

__all__ = ["Decoder", "Encoder", "Ext", "decode", "encode"]
