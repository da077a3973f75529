"""boltwire.Meta: constraints and JSON Schema metadata attached to a type with ``Annotated[T, Meta(...)]``.

The class mirrors msgspec.Meta: the same keyword-only arguments, the same argument checks and messages, immutable
instances that compare and hash by value. It is plain Python because it is read only while a type plan is built
(the native side reads the attributes ``gt``, ``ge``, ``lt``, ``le``, ``multiple_of``, ``pattern``,
``min_length``, ``max_length``, ``tz`` and ``validator``), never on a hot path.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["Meta"]

_NUMERIC = ("gt", "ge", "lt", "le", "multiple_of")
_NON_NUMERIC = ("pattern", "min_length", "max_length", "tz")
_FIELDS = (
    "gt",
    "ge",
    "lt",
    "le",
    "multiple_of",
    "pattern",
    "min_length",
    "max_length",
    "tz",
    "title",
    "description",
    "examples",
    "extra_json_schema",
    "extra",
    "validator",
)
# Left out of the hash (equality still compares them): lists and dicts, as msgspec does, and the validator,
# which may be an unhashable callable object.
_UNHASHED = frozenset({"examples", "extra_json_schema", "extra", "validator"})


def _check_number(name: str, value: Any) -> Any:
    if value is None:
        return None
    if type(value) is not int and type(value) is not float:
        raise TypeError(f"`{name}` must be an int or float, got {type(value).__name__}")
    if type(value) is float and not math.isfinite(value):
        raise ValueError(f"`{name}` must be finite, {value!r} is not supported")
    if type(value) is int:
        try:
            float(value)
        except OverflowError:  # msgspec's rule: a bound must be representable as a float
            raise ValueError(f"`{name}` is out of range, {value!r} is not representable as a float") from None
    return value


def _check_length(name: str, value: Any) -> Any:
    if value is None:
        return None
    if type(value) is not int:
        raise TypeError(f"`{name}` must be an int, got {type(value).__name__}")
    if not -sys.maxsize - 1 <= value <= sys.maxsize:
        raise ValueError(f"`{name}` is out of range, {value} is not a valid length")
    if value < 0:
        raise ValueError(f"`{name}` must be >= 0, got {value}")
    return value


def _check_exact(name: str, value: Any, kind: type, label: str) -> Any:
    if value is not None and type(value) is not kind:
        raise TypeError(f"`{name}` must be {label}, got {type(value).__name__}")
    return value


class Meta:
    """Extra metadata and constraints for a type or field.

    Parameters
    ----------
    gt, ge, lt, le : int or float, optional
        Bounds on the annotated number (strictly greater / greater or equal / strictly less / less or equal).
        ``gt`` and ``ge`` are exclusive of each other, as are ``lt`` and ``le``.
    multiple_of : int or float, optional
        The annotated number must be a multiple of this (> 0).
    pattern : str, optional
        A regex the annotated string must match, **unanchored** (``re.search``).
    min_length, max_length : int, optional
        Bounds on the length of the annotated str, bytes or collection.
    tz : bool, optional
        ``True`` requires timezone-aware ``datetime`` / ``time`` values, ``False`` naive ones; ``None`` accepts both.
    title, description : str, optional
        Used when generating a JSON Schema.
    examples : list, optional
        Examples for the JSON Schema.
    extra_json_schema : dict, optional
        Recursively merged into the generated JSON Schema, overriding generated keys.
    extra : dict, optional
        Any user-defined metadata.
    validator : callable, optional
        boltwire only (msgspec has no equivalent). Called with the value after the type and the other
        constraints passed; its return value is ignored. A ``ValueError``, ``TypeError`` or ``AssertionError``
        it raises becomes a ``ValidationError`` carrying the path to the value.

    Numeric constraints (``gt``, ``ge``, ``lt``, ``le``, ``multiple_of``) cannot be mixed with the others
    (``pattern``, ``min_length``, ``max_length``, ``tz``) in one ``Meta``.

    Examples
    --------
    >>> from typing import Annotated
    >>> import boltwire
    >>> NonNegativeInt = Annotated[int, boltwire.Meta(ge=0)]
    >>> class User(boltwire.Struct):
    ...     name: Annotated[str, boltwire.Meta(max_length=32)]
    ...     age: NonNegativeInt
    """

    __slots__ = _FIELDS

    gt: int | float | None
    ge: int | float | None
    lt: int | float | None
    le: int | float | None
    multiple_of: int | float | None
    pattern: str | None
    min_length: int | None
    max_length: int | None
    tz: bool | None
    title: str | None
    description: str | None
    examples: list[Any] | None
    extra_json_schema: dict[str, Any] | None
    extra: dict[Any, Any] | None
    validator: Callable[[Any], Any] | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("type 'boltwire.Meta' is not an acceptable base type")

    def __new__(
        cls,
        *,
        gt: int | float | None = None,
        ge: int | float | None = None,
        lt: int | float | None = None,
        le: int | float | None = None,
        multiple_of: int | float | None = None,
        pattern: str | None = None,
        min_length: int | None = None,
        max_length: int | None = None,
        tz: bool | None = None,
        title: str | None = None,
        description: str | None = None,
        examples: list[Any] | None = None,
        extra_json_schema: dict[str, Any] | None = None,
        extra: dict[Any, Any] | None = None,
        validator: Callable[[Any], Any] | None = None,
    ) -> Meta:
        values = {
            "gt": _check_number("gt", gt),
            "ge": _check_number("ge", ge),
            "lt": _check_number("lt", lt),
            "le": _check_number("le", le),
            "multiple_of": _check_number("multiple_of", multiple_of),
            "pattern": _check_exact("pattern", pattern, str, "a str"),
            "min_length": _check_length("min_length", min_length),
            "max_length": _check_length("max_length", max_length),
            "tz": _check_exact("tz", tz, bool, "a bool"),
            "title": _check_exact("title", title, str, "a str"),
            "description": _check_exact("description", description, str, "a str"),
            "examples": _check_exact("examples", examples, list, "a list"),
            "extra_json_schema": _check_exact("extra_json_schema", extra_json_schema, dict, "a dict"),
            "extra": _check_exact("extra", extra, dict, "a dict"),
            "validator": validator,
        }
        if multiple_of is not None and multiple_of <= 0:
            raise ValueError("`multiple_of` must be > 0")
        if gt is not None and ge is not None:
            raise ValueError("Cannot specify both `gt` and `ge`")
        if lt is not None and le is not None:
            raise ValueError("Cannot specify both `lt` and `le`")
        if any(values[k] is not None for k in _NUMERIC) and any(values[k] is not None for k in _NON_NUMERIC):
            raise ValueError(
                "Cannot mix numeric constraints (gt, lt, ...) with non-numeric constraints "
                "(pattern, min_length, max_length, tz)"
            )
        if pattern is not None:
            re.compile(pattern)  # a bad pattern raises re.error here, not at decode time
        if validator is not None and not callable(validator):
            raise TypeError(f"`validator` must be callable, got {type(validator).__name__}")

        self = object.__new__(cls)
        for name, value in values.items():
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _FIELDS:
            raise AttributeError("readonly attribute")
        raise AttributeError(f"'boltwire.Meta' object has no attribute {name!r}")

    def __delattr__(self, name: str) -> None:
        if name in _FIELDS:
            raise AttributeError("readonly attribute")
        raise AttributeError(f"'boltwire.Meta' object has no attribute {name!r}")

    def _items(self) -> list[tuple[str, Any]]:
        return [(name, v) for name in _FIELDS if (v := getattr(self, name)) is not None]

    def __repr__(self) -> str:
        return "boltwire.Meta(" + ", ".join(f"{k}={v!r}" for k, v in self._items()) + ")"

    def __rich_repr__(self) -> list[tuple[str, Any]]:
        return self._items()

    def __eq__(self, other: object) -> bool:
        if type(other) is not Meta:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in _FIELDS if name not in _UNHASHED))

    def __reduce__(self) -> Any:
        # msgspec.Meta cannot be pickled; boltwire's can (a type annotated with it may travel to a worker).
        return (_rebuild, (dict(self._items()),))

    def __copy__(self) -> Meta:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, Any]) -> Meta:
        return self


def _rebuild(kwargs: dict[str, Any]) -> Meta:
    return Meta(**kwargs)


Meta.__module__ = "boltwire"
