from collections.abc import Callable, Iterable
from typing import Any, Literal, overload

__all__ = ["Encoder", "encode", "format"]

class Encoder:
    def __init__(
        self,
        *,
        enc_hook: Callable[[Any], Any] | None = None,
        decimal_format: Literal["string", "number"] = "string",
        uuid_format: Literal["canonical", "hex"] = "canonical",
        order: Literal[None, "deterministic", "sorted"] = None,
    ) -> None: ...
    @property
    def enc_hook(self) -> Callable[[Any], Any] | None: ...
    @property
    def decimal_format(self) -> Literal["string", "number"]: ...
    @property
    def uuid_format(self) -> Literal["canonical", "hex"]: ...
    @property
    def order(self) -> Literal[None, "deterministic", "sorted"]: ...
    def encode(self, obj: Any, /) -> bytes: ...
    def encode_into(self, obj: Any, buffer: bytearray, offset: int = 0, /) -> None: ...
    def encode_lines(self, items: Iterable[Any], /) -> bytes: ...

def encode(
    obj: Any,
    /,
    *,
    enc_hook: Callable[[Any], Any] | None = None,
    order: Literal[None, "deterministic", "sorted"] = None,
) -> bytes: ...

@overload
def format(buf: str, /, *, indent: int = 2) -> str: ...
@overload
def format(buf: bytes | bytearray | memoryview, /, *, indent: int = 2) -> bytes: ...
