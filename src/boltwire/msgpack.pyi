import decimal
from collections.abc import Callable
from typing import Any, Generic, Literal, TypeVar, overload

T = TypeVar("T")

__all__ = ["Decoder", "Encoder", "Ext", "decode", "encode"]

class Ext:
    def __init__(self, code: int, data: bytes | bytearray | memoryview, /) -> None: ...
    @property
    def code(self) -> int: ...
    @property
    def data(self) -> bytes | bytearray | memoryview: ...

class Encoder:
    def __init__(
        self,
        *,
        enc_hook: Callable[[Any], Any] | None = None,
        decimal_format: Literal["string", "number"] | Callable[[decimal.Decimal], Any] = "string",
        uuid_format: Literal["canonical", "hex", "bytes"] = "canonical",
        order: Literal[None, "deterministic", "sorted"] = None,
    ) -> None: ...
    @property
    def enc_hook(self) -> Callable[[Any], Any] | None: ...
    @property
    def decimal_format(self) -> Literal["string", "number"] | Callable[[decimal.Decimal], Any]: ...
    @property
    def uuid_format(self) -> Literal["canonical", "hex", "bytes"]: ...
    @property
    def order(self) -> Literal[None, "deterministic", "sorted"]: ...
    def encode(self, obj: Any, /) -> bytes: ...
    def encode_into(self, obj: Any, buffer: bytearray, offset: int = 0, /) -> None: ...

def encode(
    obj: Any,
    /,
    *,
    enc_hook: Callable[[Any], Any] | None = None,
    order: Literal[None, "deterministic", "sorted"] = None,
) -> bytes: ...

class Decoder(Generic[T]):
    @overload
    def __init__(
        self: Decoder[Any],
        *,
        strict: bool = True,
        dec_hook: Callable[[type, Any], Any] | None = None,
        ext_hook: Callable[[int, memoryview], Any] | None = None,
        collect_errors: bool = False,
        max_errors: int = 100,
    ) -> None: ...
    @overload
    def __init__(
        self,
        type: type[T],
        *,
        strict: bool = True,
        dec_hook: Callable[[type, Any], Any] | None = None,
        ext_hook: Callable[[int, memoryview], Any] | None = None,
        collect_errors: bool = False,
        max_errors: int = 100,
    ) -> None: ...
    @property
    def type(self) -> Any: ...
    @property
    def strict(self) -> bool: ...
    @property
    def dec_hook(self) -> Callable[[type, Any], Any] | None: ...
    @property
    def ext_hook(self) -> Callable[[int, memoryview], Any] | None: ...
    @property
    def collect_errors(self) -> bool: ...
    @property
    def max_errors(self) -> int: ...
    def decode(self, buf: bytes | bytearray | memoryview, /) -> T: ...

@overload
def decode(
    buf: bytes | bytearray | memoryview,
    /,
    *,
    strict: bool = True,
    dec_hook: Callable[[type, Any], Any] | None = None,
    ext_hook: Callable[[int, memoryview], Any] | None = None,
    collect_errors: bool = False,
    max_errors: int = 100,
) -> Any: ...
@overload
def decode(
    buf: bytes | bytearray | memoryview,
    /,
    *,
    type: type[T],
    strict: bool = True,
    dec_hook: Callable[[type, Any], Any] | None = None,
    ext_hook: Callable[[int, memoryview], Any] | None = None,
    collect_errors: bool = False,
    max_errors: int = 100,
) -> T: ...
