from collections.abc import Callable, Iterable
from typing import Any, Generic, Literal, TypeVar, overload

T = TypeVar("T")

__all__ = ["Decoder", "Encoder", "decode", "encode", "format", "schema", "schema_components"]

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

class Decoder(Generic[T]):
    @overload
    def __init__(
        self: Decoder[Any],
        *,
        strict: bool = True,
        dec_hook: Callable[[type, Any], Any] | None = None,
        float_hook: Callable[[str], Any] | None = None,
        forbid_unknown_fields: bool = False,
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
        float_hook: Callable[[str], Any] | None = None,
        forbid_unknown_fields: bool = False,
        collect_errors: bool = False,
        max_errors: int = 100,
    ) -> None: ...
    @overload
    def __init__(
        self,
        type: Any,
        *,
        strict: bool = True,
        dec_hook: Callable[[type, Any], Any] | None = None,
        float_hook: Callable[[str], Any] | None = None,
        forbid_unknown_fields: bool = False,
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
    def float_hook(self) -> Callable[[str], Any] | None: ...
    @property
    def forbid_unknown_fields(self) -> bool: ...
    @property
    def collect_errors(self) -> bool: ...
    @property
    def max_errors(self) -> int: ...
    def decode(self, buf: bytes | bytearray | memoryview | str, /) -> T: ...
    def decode_lines(self, buf: bytes | bytearray | memoryview | str, /) -> list[T]: ...

@overload
def decode(
    buf: bytes | bytearray | memoryview | str,
    /,
    *,
    strict: bool = True,
    dec_hook: Callable[[type, Any], Any] | None = None,
    collect_errors: bool = False,
    max_errors: int = 100,
) -> Any: ...
@overload
def decode(
    buf: bytes | bytearray | memoryview | str,
    /,
    *,
    type: type[T],
    strict: bool = True,
    dec_hook: Callable[[type, Any], Any] | None = None,
    collect_errors: bool = False,
    max_errors: int = 100,
) -> T: ...
@overload
def decode(
    buf: bytes | bytearray | memoryview | str,
    /,
    *,
    type: Any,
    strict: bool = True,
    dec_hook: Callable[[type, Any], Any] | None = None,
    collect_errors: bool = False,
    max_errors: int = 100,
) -> Any: ...

def schema(
    type: Any,
    *,
    schema_hook: Callable[[type], dict[str, Any]] | None = None,
    ref_template: str = "#/$defs/{name}",
) -> dict[str, Any]: ...
def schema_components(
    types: Iterable[Any],
    *,
    schema_hook: Callable[[type], dict[str, Any]] | None = None,
    ref_template: str = "#/$defs/{name}",
) -> tuple[tuple[dict[str, Any], ...], dict[str, Any]]: ...

@overload
def format(buf: str, /, *, indent: int = 2) -> str: ...
@overload
def format(buf: bytes | bytearray | memoryview, /, *, indent: int = 2) -> bytes: ...
