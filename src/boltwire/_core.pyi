# Type stubs for the native core. `dataclass_transform` tells mypy and pyright how Struct classes build
# their __init__ (fields from annotations, `field()` specifiers, kw_only and frozen options).
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Final, Literal, TypeVar, dataclass_transform, overload


_T = TypeVar("_T")
_S = TypeVar("_S", bound="Struct")

class NoDefaultType: ...

NODEFAULT: Final[NoDefaultType]

class Factory:
    factory: Callable[[], Any]
    def __init__(self, factory: Callable[[], Any]) -> None: ...

class Field:
    default: Any
    default_factory: Any
    name: str | None

@overload
def field(*, default: _T, name: str | None = None, aliases: Iterable[str] = ()) -> _T: ...
@overload
def field(*, default_factory: Callable[[], _T], name: str | None = None, aliases: Iterable[str] = ()) -> _T: ...
@overload
def field(*, name: str | None = None, aliases: Iterable[str] = ()) -> Any: ...
@overload
def field(*, extra: bool, default_factory: Callable[[], _T] = ...) -> Any: ...

class StructConfig:
    frozen: bool
    eq: bool
    order: bool
    kw_only: bool
    array_like: bool
    gc: bool
    repr_omit_defaults: bool
    omit_defaults: bool
    forbid_unknown_fields: bool
    weakref: bool
    dict: bool
    cache_hash: bool
    validate_on_init: bool
    tag_fallback: bool
    extra_field: str | None
    tag: str | int | None
    tag_field: str | None

_RenameOption = Literal["lower", "upper", "camel", "pascal", "kebab"] | Mapping[str, str] | Callable[[str], str | None] | None

@dataclass_transform(field_specifiers=(field,))
class StructMeta(type):
    __struct_fields__: tuple[str, ...]
    __struct_encode_fields__: tuple[str, ...]
    __struct_defaults__: tuple[Any, ...]
    __struct_config__: StructConfig
    __match_args__: tuple[str, ...]
    def __new__(
        mcls: type[_T],
        name: str,
        bases: tuple[type, ...],
        namespace: dict[str, Any],
        /,
        *,
        tag: None | bool | str | int | Callable[[str], str | int] = None,
        tag_field: None | str = None,
        rename: _RenameOption = None,
        omit_defaults: bool = False,
        forbid_unknown_fields: bool = False,
        frozen: bool = False,
        eq: bool = True,
        order: bool = False,
        kw_only: bool = False,
        repr_omit_defaults: bool = False,
        array_like: bool = False,
        gc: bool = True,
        weakref: bool = False,
        dict: bool = False,
        cache_hash: bool = False,
        validate_on_init: bool = False,
        tag_fallback: bool = False,
        **kwargs: Any,
    ) -> _T: ...

@dataclass_transform(field_specifiers=(field,))
class Struct(metaclass=StructMeta):
    __struct_fields__: ClassVar[tuple[str, ...]]
    __struct_encode_fields__: ClassVar[tuple[str, ...]]
    __struct_defaults__: ClassVar[tuple[Any, ...]]
    __struct_config__: ClassVar[StructConfig]
    __match_args__: ClassVar[tuple[str, ...]]
    def __init_subclass__(
        cls,
        tag: None | bool | str | int | Callable[[str], str | int] = None,
        tag_field: None | str = None,
        rename: _RenameOption = None,
        omit_defaults: bool = False,
        forbid_unknown_fields: bool = False,
        frozen: bool = False,
        eq: bool = True,
        order: bool = False,
        kw_only: bool = False,
        repr_omit_defaults: bool = False,
        array_like: bool = False,
        gc: bool = True,
        weakref: bool = False,
        dict: bool = False,
        cache_hash: bool = False,
        validate_on_init: bool = False,
        tag_fallback: bool = False,
    ) -> None: ...
    def __copy__(self: _S) -> _S: ...
    def __replace__(self: _S, **changes: Any) -> _S: ...
    def __rich_repr__(self) -> Iterable[tuple[str, Any]]: ...

def replace(struct: _S, /, **changes: Any) -> _S: ...
def asdict(struct: Struct) -> dict[str, Any]: ...
def astuple(struct: Struct) -> tuple[Any, ...]: ...
def force_setattr(struct: Struct, name: str, value: Any) -> None: ...
def _rebuild_struct(cls: type[_S], values: tuple[Any, ...]) -> _S: ...
def _struct_ready(cls: type, /) -> bool: ...

@overload
def convert(
    obj: Any,
    type: type[_T],
    *,
    strict: bool = True,
    from_attributes: bool = False,
    dec_hook: Callable[[type, Any], Any] | None = None,
    builtin_types: Iterable[type] | None = None,
    str_keys: bool = False,
    collect_errors: bool = False,
    max_errors: int = 100,
) -> _T: ...
@overload
def convert(
    obj: Any,
    type: Any,
    *,
    strict: bool = True,
    from_attributes: bool = False,
    dec_hook: Callable[[type, Any], Any] | None = None,
    builtin_types: Iterable[type] | None = None,
    str_keys: bool = False,
    collect_errors: bool = False,
    max_errors: int = 100,
) -> Any: ...

class UnsetType:
    """The type of UNSET: falsy, repr "UNSET", pickled and copied as the singleton."""

    def __bool__(self) -> Literal[False]: ...

UNSET: Final[UnsetType]

class Raw:
    """Already-encoded JSON that the encoder writes verbatim."""

    def __init__(self, msg: bytes | bytearray | memoryview | str = b"", /) -> None: ...
    def __len__(self) -> int: ...
    def __buffer__(self, flags: int, /) -> memoryview: ...
    def copy(self) -> Raw: ...

def to_builtins(
    obj: Any,
    *,
    builtin_types: Iterable[type] | None = None,
    str_keys: bool = False,
    enc_hook: Callable[[Any], Any] | None = None,
    order: Literal[None, "deterministic", "sorted"] = None,
) -> Any: ...
