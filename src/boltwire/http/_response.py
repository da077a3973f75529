"""Response[T] and its case-insensitive, multi-valued Headers."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from boltwire import _core

__all__ = ["Headers", "Request", "Response"]



class Headers(Mapping[str, str]):
    """Response header fields in wire order. Lookup ignores case; ``h[name]`` is the first value, ``get_all`` all."""

    __slots__ = ("_items", "_index")

    def __init__(self, items: list[tuple[str, str]] | None = None) -> None:
        self._items: list[tuple[str, str]] = items or []
        self._index: dict[str, list[str]] | None = None

    @classmethod
    def _from_raw(cls, raw: Any) -> "Headers":
        """From the transport's header block ("Name: value\\r\\n" per field; str() of the native holder)."""
        if type(raw) is not str:
            raw = str(raw)
        items = []
        for line in raw.split("\r\n"):
            if line:
                name, _, value = line.partition(": ")
                items.append((name, value))
        return cls(items)

    def _lookup(self) -> dict[str, list[str]]:
        index = self._index
        if index is None:
            index = {}
            for name, value in self._items:
                index.setdefault(name.lower(), []).append(value)
            self._index = index
        return index

    def __getitem__(self, name: str) -> str:
        return self._lookup()[name.lower()][0]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._lookup()

    def get_all(self, name: str) -> list[str]:
        return list(self._lookup().get(name.lower(), ()))

    def items(self):  # type: ignore[override]
        return list(self._items)

    def __iter__(self) -> Iterator[str]:
        seen = set()
        for name, _ in self._items:
            low = name.lower()
            if low not in seen:
                seen.add(low)
                yield name

    def __len__(self) -> int:
        return len(self._lookup())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Headers):
            return [(n.lower(), v) for n, v in self._items] == [(n.lower(), v) for n, v in other._items]
        return super().__eq__(other)

    def __repr__(self) -> str:
        return f"Headers({self._items!r})"

    def __reduce__(self) -> Any:
        return (Headers, (list(self._items),))


class Request:
    """What was asked: ``method`` and ``url``."""

    __slots__ = ("method", "url")

    def __init__(self, method: str, url: str) -> None:
        self.method = method
        self.url = url

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.url}>"


# Response is native (csrc/http/client/response_object.cpp): the transport builds it when a request finishes, with
# the body already decoded. Its attributes: data, status, http_version, url; properties headers (Headers, made on
# first use), elapsed (timedelta), request (Request). Response(status, data=None, *, headers=None, url="",
# method="GET", http_version="HTTP/1.1", elapsed=0.0) makes one by hand; Response[T] works in annotations.
Response = _core.Response
