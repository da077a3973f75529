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
# A multipart file part and form (lothc's shapes; this client does not send multipart bodies yet).
File = Union[Tuple[str, Union[bytes, "os.PathLike[str]", IO[bytes]]], Tuple[str, Union[bytes, IO[bytes]], str]]
Form = Mapping[str, Any]
TlsVersion = Literal["1.2", "1.3"]


class SSEEvent:
    """One Server-Sent Event (event, data, id, retry); the clients do not stream SSE yet."""

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

    def __repr__(self) -> str:
        return f"SSEEvent(data={self.data!r}, event={self.event!r}, id={self.id!r}, retry={self.retry!r})"
