"""Field renaming for the `rename=` class option (called once per class definition, never per instance)."""

from __future__ import annotations

from collections.abc import Callable, Mapping


def _split(name: str) -> tuple[str, list[str]]:
    """Split 'field_name' into ('', ['field', 'name']), keeping leading underscores apart."""
    stripped = name.lstrip("_")
    prefix = name[: len(name) - len(stripped)]
    return prefix, [part for part in stripped.split("_") if part]


def _camel(name: str) -> str:
    prefix, parts = _split(name)
    if not parts:
        return name
    return prefix + parts[0] + "".join(p[0].upper() + p[1:] for p in parts[1:])


def _pascal(name: str) -> str:
    prefix, parts = _split(name)
    if not parts:
        return name
    return prefix + "".join(p[0].upper() + p[1:] for p in parts)


def _kebab(name: str) -> str:
    return "-".join(part for part in name.strip("_").split("_") if part) or name


_NAMED: dict[str, Callable[[str], str]] = {
    "lower": str.lower,
    "upper": str.upper,
    "camel": _camel,
    "pascal": _pascal,
    "kebab": _kebab,
}


def rename_fields(rename: object, names: tuple[str, ...]) -> tuple[str, ...]:
    """Return the encoded name of each field under `rename`."""
    if isinstance(rename, str):
        try:
            convert = _NAMED[rename]
        except KeyError:
            raise ValueError(f"rename={rename!r} is unsupported, expected one of {sorted(_NAMED)}") from None
    elif isinstance(rename, Mapping):
        mapping = rename
        convert = lambda name: mapping.get(name, name)  # noqa: E731
    elif callable(rename):
        convert = rename
    else:
        raise TypeError(f"`rename` must be a str, callable, or mapping, got {type(rename).__name__}")
    out = []
    for name in names:
        new = convert(name)
        if new is None:
            new = name
        if not isinstance(new, str):
            raise TypeError(f"Expected calling `rename` to return a `str` or `None`, got `{type(new).__name__}`")
        if any(c in new for c in '"\\') or any(ord(c) < 0x20 for c in new):
            raise ValueError(f"Renamed field names must not contain '\\', '\"', or control characters - '{new}' is invalid")
        out.append(new)
    return tuple(out)
