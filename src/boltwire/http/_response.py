"""Response[T] and its case-insensitive, multi-valued Headers."""

from __future__ import annotations

import datetime
from typing import Any, Generic, Iterator, Mapping, TypeVar

__all__ = ["Headers", "Request", "Response"]

T = TypeVar("T")


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


class Response(Generic[T]):
    """One HTTP response; ``data`` is the body decoded as ``response_data_type`` (bytes by default)."""

    __slots__ = ("data", "status", "http_version", "url", "_method", "_raw", "_headers", "_elapsed")

    data: T
    status: int
    http_version: str
    url: str

    @property
    def headers(self) -> Headers:
        h = self._headers
        if h is None:
            h = self._headers = Headers._from_raw(self._raw)
        return h

    @property
    def elapsed(self) -> datetime.timedelta:
        return datetime.timedelta(seconds=self._elapsed)

    @property
    def request(self) -> Request:
        return Request(self._method, self.url)

    def __repr__(self) -> str:
        return f"<Response [{self.status}] {self._method} {self.url}>"


_new = object.__new__


def _make_response(status: int, version: str, raw: str, data: Any, elapsed: float, method: str, url: str) -> Response:
    r = _new(Response)
    r.status = status
    r.http_version = version
    r._raw = raw
    r._headers = None
    r.data = data
    r._elapsed = elapsed
    r._method = method
    r.url = url
    return r
