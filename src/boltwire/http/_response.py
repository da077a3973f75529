"""Response[T], its case-insensitive multi-valued headers (CaseInsensitiveDict) and RequestInfo."""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping, MutableMapping
from urllib.parse import urlsplit

from boltwire import _core

__all__ = ["CaseInsensitiveDict", "Headers", "Request", "RequestInfo", "Response"]


def _pairs(data: Any) -> Iterable[tuple[str, str]]:
    """Every (name, value) pair of `data`: a CaseInsensitiveDict (all values), a mapping, or pairs."""
    if isinstance(data, CaseInsensitiveDict):
        return data._items
    if isinstance(data, Mapping):
        return data.items()
    return data


class CaseInsensitiveDict(MutableMapping[str, str]):
    """Header fields in wire order. Lookup ignores case (RFC 9110 §5.1); ``h[name]`` is the first value, ``get_all``
    every value; iteration yields each name once, as first written. Setting a name replaces all its values."""

    __slots__ = ("_items", "_index")

    def __init__(self, data: Any = None) -> None:
        self._items: list[tuple[str, str]] = [] if data is None else [(k, v) for k, v in _pairs(data)]
        self._index: dict[str, list[str]] | None = None

    @classmethod
    def _from_raw(cls, raw: Any) -> "CaseInsensitiveDict":
        """From the transport's header block ("Name: value\\r\\n" per field; str() of the native holder)."""
        if type(raw) is not str:
            raw = str(raw)
        self = cls()
        items = self._items
        for line in raw.split("\r\n"):
            if line:
                name, _, value = line.partition(": ")
                items.append((name, value))
        return self

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

    def __setitem__(self, name: str, value: str) -> None:
        low = name.lower()
        self._items = [(n, v) for n, v in self._items if n.lower() != low]
        self._items.append((name, value))
        self._index = None

    def __delitem__(self, name: str) -> None:
        low = name.lower()
        if low not in self._lookup():
            raise KeyError(name)
        self._items = [(n, v) for n, v in self._items if n.lower() != low]
        self._index = None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._lookup()

    def get_all(self, name: str) -> list[str]:
        """Every value sent under `name`, in arrival order ([] when absent)."""
        return list(self._lookup().get(name.lower(), ()))

    def add(self, name: str, value: str) -> None:
        """Append one more value for `name` (keeping the others)."""
        self._items.append((name, value))
        self._index = None

    def items(self):  # type: ignore[override]
        """Every (name, value) pair in wire order, a repeated name once per value."""
        return list(self._items)

    def copy(self) -> "CaseInsensitiveDict":
        """An independent mutable copy, repeated values included."""
        return CaseInsensitiveDict(self)

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
        if isinstance(other, CaseInsensitiveDict):
            return self._lookup() == other._lookup()
        if isinstance(other, Mapping):
            return {k: v[0] for k, v in self._lookup().items()} == {str(k).lower(): v for k, v in other.items()}
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._items!r})"

    def __reduce__(self) -> Any:
        return (type(self), (list(self._items),))


Headers = CaseInsensitiveDict  # the name this project used first


class RequestInfo:
    """The request as sent: method, url, path, host (without port) and headers (a CaseInsensitiveDict)."""

    __slots__ = ("method", "url", "path", "host", "headers")

    def __init__(self, method: str, url: str, path: str | None = None, host: str | None = None,
                 headers: Any = None) -> None:
        self.method = method
        self.url = url
        if path is None or host is None:
            parts = urlsplit(url)
            if path is None:
                path = parts.path or "/"
            if host is None:
                host = parts.hostname
        self.path = path
        self.host = host
        self.headers = headers if isinstance(headers, CaseInsensitiveDict) else CaseInsensitiveDict(headers)

    @classmethod
    def _from_head(cls, method: str, url: str, head: bytes | None) -> "RequestInfo":
        """From the request head bytes the transport sent (None for a hand-made response)."""
        headers = CaseInsensitiveDict()
        if head:
            lines = head.decode("latin-1").split("\r\n")
            items = headers._items
            for line in lines[1:]:
                if line:
                    name, _, value = line.partition(":")
                    items.append((name, value.strip()))
        return cls(method, url, None, None, headers)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RequestInfo):
            return NotImplemented
        return (self.method, self.url, self.path, self.host) == (other.method, other.url, other.path, other.host)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RequestInfo(method={self.method!r}, url={self.url!r}, path={self.path!r}, host={self.host!r})"

    def __reduce__(self) -> Any:
        return (RequestInfo, (self.method, self.url, self.path, self.host, list(self.headers._items)))


Request = RequestInfo  # the name this project used first

# Response is native (csrc/http/client/response_object.cpp): the transport builds it when a request finishes, with
# the body already decoded (None for HEAD). Attributes: data, status, http_version, tls_version ("TLSv1.3", None for
# plain http), url, typed_headers; properties headers (CaseInsensitiveDict, made on first use), elapsed (float
# seconds), elapsed_timedelta, request (RequestInfo, made on first use). Response(status, data=None, *, headers=None,
# url="", method="GET", http_version="HTTP/1.1", elapsed=0.0, request=None, typed_headers=None, tls_version=None)
# makes one by hand; Response[T] works in annotations.
Response = _core.Response
