"""multipart/form-data request bodies (RFC 7578) for form=, in lothc's Form / File spelling; the one multipart
writer. Files (paths and open binary files) are streamed from disk in pieces, never read whole; the body's length
is known in advance (Content-Length), so a file that changes size while it is sent is an error."""

from __future__ import annotations

import io
import mimetypes
import os
import secrets
from pathlib import Path
from typing import Any, Iterator

from boltwire.http._codecs import encode_json

__all__ = ["encode_form"]

_PIECE = 256 * 1024  # bytes read from a file at a time
_OCTET = "application/octet-stream"


def _quote(value: str) -> str:
    """A name or filename inside the quoted-string of Content-Disposition, as browsers write it (the HTML standard's
    multipart/form-data encoding): ", CR and LF percent-encoded, everything else (a backslash too) as it is."""
    return value.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22")


def _mime(filename: str | None, infer: bool) -> str:
    if infer and filename:
        guessed, _ = mimetypes.guess_type(filename, strict=False)
        if guessed:
            return guessed
    return _OCTET


class _FilePart:
    """An open file (or a path opened when the body is written) sent from its current position to its end."""

    __slots__ = ("path", "file", "size")

    def __init__(self, source: Path | io.BufferedIOBase) -> None:
        if isinstance(source, Path):
            self.path: Path | None = source
            self.file: Any = None
            self.size = source.stat().st_size
        else:
            if isinstance(source, io.TextIOBase) or not hasattr(source, "read"):
                raise TypeError("a form file must be a Path or a file opened in binary mode")
            self.path = None
            self.file = source
            try:
                self.size = os.fstat(source.fileno()).st_size - source.tell()
            except (AttributeError, OSError, io.UnsupportedOperation):
                raise TypeError("a form file object must be a real file (fileno() and tell())") from None

    def pieces(self) -> Iterator[bytes]:
        f = self.file if self.path is None else open(self.path, "rb")
        try:
            left = self.size
            while left > 0:
                piece = f.read(min(_PIECE, left))
                if not piece:
                    break
                left -= len(piece)
                yield piece
            if left != 0 or (self.path is not None and f.read(1)):
                raise ValueError(f"a form file changed size while it was sent: {self.path or f}")
        finally:
            if self.path is not None:
                f.close()


def _file_part(value: Any, infer: bool) -> tuple[str | None, Any, str]:
    """(filename, bytes or _FilePart, content type) of a File value."""
    if isinstance(value, os.PathLike):
        value = Path(value)
        return value.name, _FilePart(value), _mime(value.name, infer)
    if isinstance(value, tuple):
        if len(value) == 2 and isinstance(value[0], Path) and isinstance(value[1], str):
            return value[0].name, _FilePart(value[0]), value[1]
        if len(value) in (2, 3) and isinstance(value[0], str):
            filename, content = value[0], value[1]
            if isinstance(content, os.PathLike):
                content = Path(content)
            ctype = value[2] if len(value) == 3 else _mime(filename, infer)
            if not isinstance(ctype, str):
                raise TypeError("a form file's content type must be str")
            if isinstance(content, (bytes, bytearray, memoryview)):
                return filename, bytes(content), ctype
            return filename, _FilePart(content), ctype
        raise TypeError(f"unsupported form file tuple: {value!r}")
    name = os.path.basename(getattr(value, "name", "") or "") or None
    if not isinstance(name, str):
        name = None
    return name, _FilePart(value), _mime(name, infer)


def _is_file(value: Any) -> bool:
    """Whether a value is a File (a tuple of plain values is a repeat instead)."""
    if isinstance(value, (os.PathLike, io.IOBase)):
        return True
    if not isinstance(value, tuple) or len(value) not in (2, 3):
        return False
    first, second = value[0], value[1]
    if isinstance(first, Path):
        return len(value) == 2 and isinstance(second, str)
    return (isinstance(first, str) and isinstance(second, (bytes, bytearray, memoryview, Path, io.IOBase))
            and (len(value) == 2 or isinstance(value[2], str)))


def _part(name: str, value: Any, infer: bool) -> tuple[str | None, Any, str | None]:
    """(filename, content: bytes or _FilePart, content type or None for text) of one form value."""
    if isinstance(value, bool):
        return None, b"true" if value else b"false", None
    if isinstance(value, (str, int, float)):
        return None, str(value).encode("utf-8"), None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return None, bytes(value), _OCTET
    if _is_file(value):
        return _file_part(value, infer)
    try:
        return None, encode_json(value), "application/json"
    except TypeError:
        raise TypeError(f"unsupported form value for {name!r}: {type(value).__name__}") from None


def encode_form(form: Any, infer_mime: bool = True, boundary: str | None = None) -> Any:
    """The Upload of a multipart/form-data body: pieces generated on demand (files read as they are sent), its
    exact length and its Content-Type with the boundary."""
    from boltwire.http._streaming import Upload

    if not hasattr(form, "items"):
        raise TypeError(f"form= must be a mapping of names to values, got {type(form).__name__}")
    boundary = boundary or "boltwire-" + secrets.token_hex(16)
    sep = f"--{boundary}\r\n".encode("ascii")
    layout: list[Any] = []  # bytes, or a _FilePart to stream
    for name, value in form.items():
        if not isinstance(name, str):
            raise TypeError(f"form field names must be str, got {type(name).__name__}")
        values = value if isinstance(value, tuple) and not _is_file(value) else (value,)
        if not values:
            raise ValueError(f"empty tuple for form field {name!r}: a tuple repeats the part once per element")
        for one in values:
            filename, content, ctype = _part(name, one, infer_mime)
            disposition = f'Content-Disposition: form-data; name="{_quote(name)}"'
            if filename is not None:
                disposition += f'; filename="{_quote(filename)}"'
            head = disposition + "\r\n"
            if ctype is not None:
                head += f"Content-Type: {ctype}\r\n"
            layout.append(sep + head.encode("utf-8") + b"\r\n")
            layout.append(content)
            layout.append(b"\r\n")
    layout.append(f"--{boundary}--\r\n".encode("ascii"))
    length = sum(len(p) if isinstance(p, bytes) else p.size for p in layout)
    return Upload(_MultipartBody(layout), length, f"multipart/form-data; boundary={boundary}")


class _MultipartBody:
    """Iterable over the pieces of a multipart body (again for each iteration: a resend starts over)."""

    __slots__ = ("layout",)

    def __init__(self, layout: list[Any]) -> None:
        self.layout = layout

    def __iter__(self) -> Iterator[bytes]:
        pending = b""
        for part in self.layout:
            if isinstance(part, bytes):
                pending += part  # small heads and separators go out with their neighbours
                if len(pending) >= _PIECE:
                    yield pending
                    pending = b""
                continue
            for piece in part.pieces():
                if pending:
                    yield pending
                    pending = b""
                yield piece
        if pending:
            yield pending
