"""Public type aliases of the HTTP API (lothc's names), for annotating code that calls the clients."""

from __future__ import annotations

import os
from typing import IO, Any, Literal, Mapping, Sequence, Tuple, Union

__all__ = ["Data", "File", "Form", "JSONPayload", "Params", "SSEEvent", "TlsVersion", "TypedHeaders"]

_Scalar = Union[str, int, float, bool, None]
# params=: a mapping (a list or tuple value repeats the key) or (name, value) pairs.
Params = Union[Mapping[str, Union[_Scalar, Sequence[_Scalar]]], Sequence[Tuple[str, _Scalar]]]
# data=: form fields sent as application/x-www-form-urlencoded.
Data = Params
# json=: anything the JSON encoder takes (dict, list, Struct, msgspec Struct, pydantic model, ...).
JSONPayload = Any
# response_headers_type=: a Struct or TypedDict class.
TypedHeaders = Any
# form= (multipart/form-data, _multipart.py): a File is a Path or a binary file (streamed from disk), or
# (filename, bytes | Path | binary file[, content type]), or (Path, content type). A Form maps names to text, bytes,
# JSON values or Files; a tuple of such values repeats the name.
File = Union[
    "os.PathLike[str]",
    IO[bytes],
    Tuple[str, Union[bytes, "os.PathLike[str]", IO[bytes]]],
    Tuple[str, Union[bytes, "os.PathLike[str]", IO[bytes]], str],
    Tuple["os.PathLike[str]", str],
]
Form = Mapping[str, Any]
TlsVersion = Literal["1.2", "1.3"]


class SSEEvent:
    """One server-sent event, as sse() yields it: `data` (str, or decoded into sse()'s response_data_type),
    `event` ("message" when the server named none), `id` (the last event ID, "" when none was sent), `retry` (the
    reconnection time in ms the stream last asked for, or None)."""

    __slots__ = ("event", "data", "id", "retry")

    def __init__(self, data: Any, event: str = "message", id: str = "", retry: int | None = None) -> None:
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry

    def __class_getitem__(cls, item: Any) -> Any:
        return cls

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SSEEvent):
            return NotImplemented
        return (self.data, self.event, self.id, self.retry) == (other.data, other.event, other.id, other.retry)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SSEEvent(data={self.data!r}, event={self.event!r}, id={self.id!r}, retry={self.retry!r})"
