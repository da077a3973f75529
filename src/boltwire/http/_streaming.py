"""Streaming: response bodies read as they arrive (bytes chunks or NDJSON values), request bodies given by
iterators, and download() to a file. Everything runs on the native transport's one exchange state machine
(csrc/http/engine/exchange_steps.hpp, "Streaming"); this module only feeds and drains it."""

from __future__ import annotations

import errno
import os
import time
from collections import deque
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterator

from boltwire import _core
from boltwire.http._codecs import resolve_decoder
from boltwire.http._errors import HTTPRedirectError, HTTPResponseError
from boltwire.http._policy import error_spec
from boltwire.http._response import CaseInsensitiveDict

__all__ = ["AsyncStream", "SyncStream", "Upload", "upload_of", "download_async", "download_sync"]

_ERROR_BODY_LIMIT = 1 << 20  # bytes of an error response's body kept for the status error
_PROGRESS_STEP = 256 << 10  # a download's progress callback runs at most once per this many bytes (and at the end)
_END = object()  # the end of an upload's iterator


class Upload:
    """A request body produced in pieces: `source` is an iterable or async iterable of bytes-like (or str, sent as
    UTF-8); `length` is its size when known (Content-Length), else None (chunked)."""

    __slots__ = ("source", "length", "content_type")

    def __init__(self, source: Any, length: int | None = None, content_type: str | None = None) -> None:
        self.source = source
        self.length = length
        self.content_type = content_type


def is_streamed_content(content: Any) -> bool:
    """Whether content= is an iterator / iterable / async iterable of pieces rather than one bytes or str."""
    if content is None or isinstance(content, (bytes, bytearray, memoryview, str)):
        return False
    return hasattr(content, "__iter__") or hasattr(content, "__aiter__")


def upload_of(content: Any, form: Any, infer_mime: bool) -> Upload | None:
    """The streamed request body of content= (an iterable) or form= (multipart), or None."""
    if form is not None:
        if content is not None:
            raise TypeError("pass at most one of json=, content=, data=, form=")
        from boltwire.http._multipart import encode_form

        return encode_form(form, infer_mime)
    if is_streamed_content(content):
        return Upload(content)
    return None


def _with_cookies(jar: Any, url: str, headers: Any, header_items: Callable[[Any], list]) -> Any:
    """`headers` with the jar's Cookie field for `url` added, unless they have one or the jar has none for it."""
    items = header_items(headers) if headers else []
    if any(name.lower() == "cookie" for name, _ in items):
        return headers
    cookie = jar.header_for(url)
    return items + [("Cookie", cookie)] if cookie else headers


def _piece(chunk: Any) -> bytes | memoryview:
    if isinstance(chunk, str):
        return chunk.encode("utf-8")
    if isinstance(chunk, (bytes, bytearray, memoryview)):
        return chunk
    raise TypeError(f"a streamed request body must yield bytes or str, got {type(chunk).__name__}")


class _StreamBase:
    """What both kinds of stream share: the head, the status check, the line splitting."""

    def __init__(self, client: Any, method: str, url: str, params: Any, headers: Any, json: Any, content: Any,
                 data: Any, form: Any, timeout: float | None, tp: Any, error_for_status: bool | None,
                 infer_mime: bool = True, skip_auth: bool = False, raises: Any = None,
                 error_type: Any = None) -> None:
        policy = client._policy
        if policy is not None and (policy.middleware or (policy.auth is not None and not skip_auth)):
            # Sent without them, the request would silently lack its credentials or its middleware's changes.
            raise NotImplementedError("streams and streamed request bodies (content= iterables, form=) do not go "
                                      "through bearer_auth, digest_auth or middleware yet: give the Authorization "
                                      "header yourself (with skip_auth=True), or use a client without them")
        # HTTP/2 (csrc/http/engine/h2_steps) streams responses as they arrive; a streamed request body is refused
        # there with an HTTPTransportError (its DATA frames need the whole body yet), never cut short.
        self._client = client
        self._method = method
        self._upload = upload_of(content, form, infer_mime)
        if self._upload is not None:
            content = None
        self._request = (url, params, headers, json, content, data, skip_auth)
        self._timeout = timeout
        self._decoder = client._decoder(tp)  # None: raw bytes chunks
        # The status-error policy: the call's raises= / error_type= (checked now: a bad class is a TypeError before
        # anything is sent), else the client's; False when error_for_status is off.
        spec = error_spec(raises, error_type, resolve_decoder)
        on = client._error_for_status if error_for_status is None else error_for_status
        self._raises = (spec or client._errors) if on else False
        self._native: Any = None
        self._status = 0
        self._headers: Any = None
        self._block = ""
        self._http_version = "HTTP/1.1"
        self._url = ""
        self._sent_head = b""
        self._started = time.monotonic()
        self._pending = b""  # a line not yet complete (NDJSON)
        self._source: Any = None  # the upload's iterator while it has pieces left
        self._ready: deque[Any] = deque()  # decoded values not yet handed out
        self._done = False  # the body was read to its end
        self._arm: int | None = None  # a download's target, given at open (open_stream's arm): fd, -1 memory
        self._report_every = 0  # a download with a progress callback: wake the consumer per this many bytes

    def _open(self, sink: Any) -> Any:
        t = self._client._transport
        if t is None:
            raise RuntimeError("the client is not open")
        url, params, headers, json, content, data, skip_auth = self._request
        jar = self._client._cookies
        if jar is not None:  # cookie_store: the jar's cookies go out as on the verbs (a Cookie given wins)
            headers = _with_cookies(jar, self._client._full_url(url, params), headers, self._client._header_items)
        up = self._upload
        framing = None if up is None else (-1 if up.length is None else up.length, up.content_type)
        origin, head, body, full = self._client._prepare(self._method, url, params, headers, json, content, data,
                                                         skip_auth, upload=framing)
        self._url = full
        self._sent_head = head
        self._native = t.open_stream(sink, origin, self._method, head, body, self._timeout, up is not None,
                                     up is not None and up.length is None, self._arm, self._report_every)
        return self._native

    def _take_head(self, head: tuple[int, str, str]) -> None:
        self._status, self._block, self._http_version = head
        jar = self._client._cookies
        if jar is not None:  # what the response sets is kept, whatever its status (as on the verbs)
            jar.extract(self._url, self.headers.get_all("set-cookie"))

    def _check_status(self, body: bytes) -> None:
        """Raises the status error (HTTPResponseError, or the client's raises=) of an error status."""
        if self._raises is not False and self._status >= 400:
            self._finish(body, None, self._raises)

    def _finish(self, body: bytes, decoder: Any, raises: Any) -> Any:
        return _core._http_finish(self._status, self._block, body, self._method, self._url, self._sent_head, decoder,
                                  raises, time.monotonic() - self._started, self._http_version)

    @property
    def status(self) -> int:
        """The response status (available once the head arrived: after entering the stream or its first item)."""
        self._need_head()
        return self._status

    @property
    def headers(self) -> Any:
        self._need_head()
        if self._headers is None:
            self._headers = CaseInsensitiveDict._from_raw(self._block)
        return self._headers

    @property
    def http_version(self) -> str:
        self._need_head()
        return self._http_version

    @property
    def url(self) -> str:
        return self._url

    def _need_head(self) -> None:
        if not self._status:
            raise RuntimeError("the response head has not arrived yet: enter the stream or read from it first")

    def _lines(self, chunk: bytes) -> list[Any]:
        """The decoded values of the complete lines in pending + chunk (NDJSON: blank lines skipped)."""
        data = self._pending + chunk if self._pending else chunk
        end = data.rfind(b"\n")
        if end < 0:
            self._pending = data
            return []
        self._pending = data[end + 1:]
        decode = self._decoder
        return [decode(line) for line in data[:end].split(b"\n") if line.strip()]

    def _end(self) -> None:
        """The body is complete: the last line (without its LF) is a value too; the stream is closed."""
        self._done = True
        rest, self._pending = self._pending, b""
        if self._decoder is not None and rest.strip():
            self._ready.append(self._decoder(rest))
        self.close()


class SyncStream(_StreamBase):
    """A response body read as it arrives, on the calling thread: iterate it for bytes chunks (or, with
    response_data_type=T, one decoded T per line). `status`, `headers` and `http_version` are available once the
    head arrived (after `with` or the first item). Leaving the loop early, `close()` or leaving the `with` block ends
    the exchange; a connection not read to its end is closed, never reused."""

    def __enter__(self) -> "SyncStream":
        self._start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        native = getattr(self, "_native", None)
        if native is not None:
            native.close()

    def close(self) -> None:
        if self._native is not None:
            self._native.close()

    def _start(self) -> Any:
        s = self._native
        if s is not None:
            return s
        s = self._open(None)
        try:
            if self._upload is not None:
                self._source = iter(self._upload.source)
            while (head := s.head()) is None:
                self._advance(s)
            self._take_head(head)
            if self._raises is not False and self._status >= 400:
                self._check_status(self._read_rest(_ERROR_BODY_LIMIT))
        except BaseException:
            s.close()
            raise
        return s

    def _read_rest(self, limit: int) -> bytes:
        parts = []
        size = 0
        for chunk in self._chunks():
            parts.append(chunk)
            size += len(chunk)
            if size >= limit:
                break
        return b"".join(parts)

    def _advance(self, s: Any) -> None:
        """Gives the transport the next piece of the request body when it waits for one (the server may answer
        before it read the whole body), else reads on."""
        if self._source is not None and s.needs_upload():
            chunk = next(self._source, _END)
            if chunk is _END:
                self._source = None
                s.send(b"", True)
            else:
                s.send(_piece(chunk), False)
        s.pump()

    def _chunks(self, view: bool = False, idle: Callable[[], Any] | None = None) -> Iterator[Any]:
        """The body's pieces as they arrive: bytes, or (view) buffer objects owning the transport's bytes. `idle` is
        called each time the transport had news but no piece (a download's progress)."""
        s = self._start()
        while True:
            chunk = s.take(view)
            if chunk is None:
                return
            if chunk:
                yield chunk
            else:
                if idle is not None:
                    idle()
                self._advance(s)

    def __iter__(self) -> Iterator[Any]:
        """A fresh iterator over the items; a loop that leaves early drops it, which closes the stream."""
        try:
            while True:
                try:
                    item = self.__next__()
                except StopIteration:
                    return
                yield item
        finally:
            self.close()

    def __next__(self) -> Any:
        # A method on the stream (for next(stream)), and what __iter__ loops over; the stream never holds a generator
        # of its own, which would be a cycle that only the collector could break.
        try:
            while True:
                if self._ready:
                    return self._ready.popleft()
                if self._done:
                    raise StopIteration
                s = self._start()
                chunk = s.take()
                if chunk is None:
                    self._end()
                elif chunk:
                    if self._decoder is None:
                        return chunk
                    self._ready.extend(self._lines(chunk))
                else:
                    self._advance(s)
        except BaseException:
            self.close()
            raise

    def read(self) -> bytes:
        """The rest of the body at once."""
        try:
            return b"".join(self._chunks())
        finally:
            self.close()


class AsyncStream(_StreamBase):
    """A response body read as it arrives: `async for` it for bytes chunks (or, with response_data_type=T, one
    decoded T per line). The engine stops reading while a bounded buffer (256 KiB) waits for the consumer. `status`,
    `headers` and `http_version` are available once the head arrived (after `async with` or the first item).
    Leaving the loop early, `aclose()` or leaving the `async with` block ends the exchange; a connection not read to
    its end is closed, never reused."""

    async def __aenter__(self) -> "AsyncStream":
        await self._start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.close()

    async def aclose(self) -> None:
        self.close()

    def close(self) -> None:
        if self._native is not None:
            self._native.close()

    def __del__(self) -> None:
        native = getattr(self, "_native", None)
        if native is not None:
            native.close()

    async def _start(self) -> Any:
        s = self._native
        if s is not None:
            return s
        sink = self._client._current_sink()
        s = self._open(sink)
        try:
            if self._upload is not None:
                src = self._upload.source
                self._source = src.__aiter__() if hasattr(src, "__aiter__") else _aiter_sync(iter(src))
            while (head := s.head()) is None:
                await self._advance(s)
            self._take_head(head)
            if self._raises is not False and self._status >= 400:
                self._check_status(await self._read_rest(_ERROR_BODY_LIMIT))
        except BaseException:
            s.close()
            raise
        return s

    async def _read_rest(self, limit: int) -> bytes:
        parts = []
        size = 0
        async for chunk in self._chunks():
            parts.append(chunk)
            size += len(chunk)
            if size >= limit:
                break
        return b"".join(parts)

    async def _advance(self, s: Any) -> None:
        """Gives the transport the next piece of the request body when it waits for one (the server may answer
        before it read the whole body), else waits for the engine's next news."""
        if self._source is not None and s.needs_upload():
            try:
                chunk = _piece(await self._source.__anext__())
            except StopAsyncIteration:
                self._source = None
                s.send(b"", True)
            else:
                s.send(chunk, False)
            return
        await s.wait()

    async def _chunks(self, view: bool = False, idle: Callable[[], Any] | None = None) -> AsyncIterator[Any]:
        """See SyncStream._chunks."""
        s = await self._start()
        while True:
            chunk = s.take(view)
            if chunk is None:
                return
            if chunk:
                yield chunk
            else:
                if idle is not None:
                    idle()
                await self._advance(s)

    def __aiter__(self) -> AsyncIterator[Any]:
        """A fresh async iterator over the items; a loop that leaves early drops it, which closes the stream."""
        return self._items()

    async def _items(self) -> AsyncIterator[Any]:
        try:
            while True:
                try:
                    item = await self.__anext__()
                except StopAsyncIteration:
                    return
                yield item
        finally:
            self.close()

    async def __anext__(self) -> Any:
        # See SyncStream.__next__.
        try:
            while True:
                if self._ready:
                    return self._ready.popleft()
                if self._done:
                    raise StopAsyncIteration
                s = await self._start()
                chunk = s.take()
                if chunk is None:
                    self._end()
                elif chunk:
                    if self._decoder is None:
                        return chunk
                    self._ready.extend(self._lines(chunk))
                else:
                    await self._advance(s)
        except BaseException:
            self.close()
            raise

    async def read(self) -> bytes:
        """The rest of the body at once."""
        try:
            return b"".join([chunk async for chunk in self._chunks()])
        finally:
            self.close()


async def _aiter_sync(it: Iterator[Any]) -> AsyncIterator[Any]:
    for item in it:
        yield item


# ---- request bodies for the ordinary verbs ----------------------------------------------------------------------


def send_sync(client: Any, method: str, url: str, params: Any, headers: Any, content: Any, form: Any,
              timeout: Any, tp: Any, error_for_status: bool | None, infer_mime: bool = True,
              skip_auth: bool = False, raises: Any = None, error_type: Any = None) -> Any:
    """A verb whose body is streamed (content= iterable, form=): the Response, decoded as the verbs do."""
    stream = SyncStream(client, method, url, params, headers, None, content, None, form, timeout, bytes,
                        error_for_status, infer_mime, skip_auth, raises, error_type)
    with stream:
        body = b"".join(stream._chunks())
    signal = _redirect_of(client, stream, body)
    if signal is not None:  # the rest of the chain, with the call's own skip_auth, raises and error_type
        from boltwire.http._session import follow_sync

        return follow_sync(client, signal, method, url, params, headers, None, None, None, timeout, tp,
                           error_for_status, skip_auth, raises, error_type)
    return stream._finish(body, client._decoder(tp), stream._raises)


async def send_async(client: Any, method: str, url: str, params: Any, headers: Any, content: Any, form: Any,
                     timeout: Any, tp: Any, error_for_status: bool | None, infer_mime: bool = True,
                     skip_auth: bool = False, raises: Any = None, error_type: Any = None) -> Any:
    stream = AsyncStream(client, method, url, params, headers, None, content, None, form, timeout, bytes,
                         error_for_status, infer_mime, skip_auth, raises, error_type)
    async with stream:
        body = b"".join([chunk async for chunk in stream._chunks()])
    signal = _redirect_of(client, stream, body)
    if signal is not None:  # see send_sync
        from boltwire.http._session import follow_async

        return await follow_async(client, signal, method, url, params, headers, None, None, None, timeout, tp,
                                  error_for_status, skip_auth, raises, error_type)
    return stream._finish(body, client._decoder(tp), stream._raises)


def _redirect_of(client: Any, stream: _StreamBase, body: bytes) -> Any:
    """The redirect a verb with a streamed request body follows, as the verbs' RedirectSignal: 301/302/303 go on as
    a GET without a body (what the verbs do too). 307/308 must send the same body again, which was streamed (an
    iterable, form=) and is gone: HTTPRedirectError, never a silently empty body. None: no redirect to follow."""
    from boltwire.http._redirects import RedirectSignal

    status = stream._status
    if not _follows_redirect(client, stream):
        return None
    response = stream._finish(body, None, False)
    if status in (307, 308):
        raise HTTPRedirectError(f"cannot follow the {status} redirect to {stream.headers['location']!r}: it must "
                                "send the request body again, and a streamed body (an iterable, form=) cannot be "
                                "replayed; send bytes to have it followed", [response])
    return RedirectSignal(response)


# ---- download ---------------------------------------------------------------------------------------------------


class _AtomicFile:
    """A temporary file beside `dest`: committed (flushed, fsync'ed, renamed over dest, directory fsync'ed) or
    removed; never a partial file at `dest`."""

    def __init__(self, dest: Path) -> None:
        self.dest = dest
        # Made as open(dest, "wb") makes a file: 0o666 less the umask (mkstemp's 0o600 would become dest's mode).
        for _ in range(100):
            path = dest.parent / f".{dest.name}.{os.urandom(6).hex()}.part"
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
                break
            except FileExistsError:
                continue
        else:
            raise FileExistsError(errno.EEXIST, "no unused temporary file name beside the download", str(dest))
        self.path = path
        self.file = os.fdopen(fd, "wb", buffering=0)
        self.streams: list[Any] = []  # armed with the descriptor: closed before it is (discard)

    def write(self, chunk: Any) -> None:
        view = memoryview(chunk)
        while view:
            n = self.file.write(view)
            view = view[n:]

    def commit(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        os.replace(self.path, self.dest)
        try:
            dir_fd = os.open(self.dest.parent, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)

    def discard(self) -> None:
        # The transport (its file-writer thread too) writes no more into the descriptor once each stream armed with
        # it is closed; only then may the number go to another file. Whatever interrupted the download (Ctrl-C
        # between two lines of the hop loop, say), the streams are closed here first.
        for stream in self.streams:
            stream.close()
        self.file.close()
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass


def _total_of(stream: _StreamBase) -> int | None:
    value = stream.headers.get("content-length")
    try:
        return int(value) if value is not None and "content-encoding" not in stream.headers else None
    except ValueError:
        return None


def _arm(stream: _StreamBase, file: _AtomicFile | None) -> None:
    """Arms a stream of a download (open_stream's arm): with the file's descriptor, the file then closing the stream
    before the descriptor (_AtomicFile.discard), or -1 for memory."""
    if file is None:
        stream._arm = -1
    else:
        stream._arm = file.file.fileno()
        file.streams.append(stream)


class _Download:
    """Where download() puts the body: a list of pieces (no dest) or an _AtomicFile (made before the request, so
    that the transport can take the body from the first byte: _arm); reports progress. The transport writes the
    body itself (Stream.receive_into: straight into the file, or into one bytes object made for its Content-Length),
    with no Python call per piece; a progress callback then runs when the transport reports another _PROGRESS_STEP
    bytes (Stream.delivered) and at the end. A body without a length or with a coding to undo comes in pieces."""

    def __init__(self, stream: _StreamBase, file: _AtomicFile | None,
                 progress: Callable[[int, int | None], Any] | None) -> None:
        self.stream = stream
        self.total = _total_of(stream)
        self.done = 0
        self.progress = progress
        self.path = None if file is None else file.dest
        self.parts: list[Any] = []
        self.block: bytes | None = None  # the bytes object the transport fills (memory, length known)
        self.file = file
        self.direct = False  # the transport writes the body into its target (no pieces come)

    def start(self) -> None:
        native = self.stream._native
        if self.file is not None:
            self.direct = native.receive_into(self.file.file.fileno())
        else:
            self.block = native.receive_into(None)
            self.direct = self.block is not None

    def tick(self) -> None:
        """Reports the transport's progress with a direct target (the pieces path reports in add())."""
        if self.progress is not None and self.direct:
            done = self.stream._native.delivered
            if done != self.done:
                self.done = done
                self.progress(done, self.total)

    def add(self, chunk: Any) -> None:
        """One piece (a buffer object owning the transport's bytes: written or kept without a copy)."""
        if self.file is None:
            self.parts.append(chunk)
        else:
            self.file.write(chunk)
        self.done += memoryview(chunk).nbytes
        if self.progress is not None:
            self.progress(self.done, self.total)

    def finish(self, history: list[Any]) -> Any:
        """The Response (with the redirects before it): data is the bytes, or the path once the file is committed."""
        self.tick()  # the last step (the whole body)
        if self.file is None:
            data = self.block if self.block is not None else b"".join(self.parts)
            response = self.stream._finish(b"", lambda _body: data, False)  # (the body is not copied again)
        else:
            self.file.commit()
            path = self.path
            response = self.stream._finish(b"", lambda _body: path, False)
        if history:
            response.history = history
        return response

    def discard(self) -> None:
        self.stream.close()  # first: the transport writes no more into the file
        if self.file is not None:
            self.file.discard()


def _follows_redirect(client: Any, stream: _StreamBase) -> bool:
    """A 3xx with Location that the client follows (the native transport's rule for the verbs)."""
    return (client._settings.get("follow_redirects", False) and stream._status in (301, 302, 303, 307, 308)
            and "location" in stream.headers)


class _Landed:
    """The chain's outcome for a download: the stream of the final response (its history set by the chain)."""

    __slots__ = ("stream", "history")

    def __init__(self, stream: _StreamBase) -> None:
        self.stream = stream
        self.history: list[Any] = []


def _download_hops(client: Any, url: str, params: Any, headers: Any, skip_auth: bool) -> Any:
    """The redirect chain of a download (the verbs' hop loop, _session._chain): yields (request, skip_auth) for each
    hop and is sent the hop's stream, or a RedirectSignal for a redirect it follows."""
    from boltwire.http._session import _chain, _outgoing

    return _chain(client, _outgoing(client, "GET", url, params, headers, None, None, None), skip_auth, None)


def _open_sync(client: Any, url: str, params: Any, headers: Any, timeout: Any, error_for_status: bool | None,
               skip_auth: bool, raises: Any, error_type: Any, file: _AtomicFile | None, report_every: int) -> _Landed:
    """The stream of the response a download ends on, its head read, after following redirects."""
    from boltwire.http._redirects import RedirectSignal

    steps = _download_hops(client, url, params, headers, skip_auth)
    value: Any = None
    try:
        while True:
            hop, hop_skip_auth = steps.send(value)
            stream = SyncStream(client, "GET", hop.url, None, hop.headers, None, None, None, None, timeout, bytes,
                                error_for_status, True, hop_skip_auth, raises, error_type)
            _arm(stream, file)
            stream._report_every = report_every
            try:
                stream._start()
                if not _follows_redirect(client, stream):
                    value = _Landed(stream)
                    continue
                value = RedirectSignal(stream._finish(stream._read_rest(_ERROR_BODY_LIMIT), None, False))
                stream.close()
            except HTTPResponseError as error:
                stream.close()
                steps.throw(error)  # re-raised with the chain on it
            except BaseException:
                stream.close()
                raise
    except StopIteration as done:
        return done.value


async def _open_async(client: Any, url: str, params: Any, headers: Any, timeout: Any,
                      error_for_status: bool | None, skip_auth: bool, raises: Any, error_type: Any,
                      file: _AtomicFile | None, report_every: int) -> _Landed:
    """_open_sync for HTTPClient."""
    from boltwire.http._redirects import RedirectSignal

    steps = _download_hops(client, url, params, headers, skip_auth)
    value: Any = None
    try:
        while True:
            hop, hop_skip_auth = steps.send(value)
            stream = AsyncStream(client, "GET", hop.url, None, hop.headers, None, None, None, None, timeout, bytes,
                                 error_for_status, True, hop_skip_auth, raises, error_type)
            _arm(stream, file)
            stream._report_every = report_every
            try:
                await stream._start()
                if not _follows_redirect(client, stream):
                    value = _Landed(stream)
                    continue
                value = RedirectSignal(stream._finish(await stream._read_rest(_ERROR_BODY_LIMIT), None, False))
                stream.close()
            except HTTPResponseError as error:
                stream.close()
                steps.throw(error)
            except BaseException:
                stream.close()
                raise
    except StopIteration as done:
        return done.value


def download_sync(client: Any, url: str, dest: Any, params: Any, headers: Any, timeout: Any,
                  error_for_status: bool | None, progress: Callable[[int, int | None], Any] | None,
                  skip_auth: bool = False, raises: Any = None, error_type: Any = None) -> Any:
    if dest is None and progress is None and client._policy is not None:  # auth, middleware: the verbs' path
        return client.get(url, params=params, headers=headers, timeout=timeout, error_for_status=error_for_status,
                          skip_auth=skip_auth, raises=raises, error_type=error_type)
    file = None if dest is None else _AtomicFile(Path(dest))
    try:
        landed = _open_sync(client, url, params, headers, timeout, error_for_status, skip_auth, raises, error_type,
                            file, 0 if progress is None else _PROGRESS_STEP)
    except BaseException:
        if file is not None:
            file.discard()  # (every stream of the chain is closed: the transport writes no more into it)
        raise
    stream = landed.stream
    with stream:
        target = _Download(stream, file, progress)
        try:
            target.start()
            for chunk in stream._chunks(view=True, idle=target.tick):
                target.add(chunk)
            return target.finish(landed.history)
        except BaseException:
            target.discard()
            raise


async def download_async(client: Any, url: str, dest: Any, params: Any, headers: Any, timeout: Any,
                         error_for_status: bool | None, progress: Callable[[int, int | None], Any] | None,
                         skip_auth: bool = False, raises: Any = None, error_type: Any = None) -> Any:
    if dest is None and progress is None and client._policy is not None:  # see download_sync
        return await client.get(url, params=params, headers=headers, timeout=timeout,
                                error_for_status=error_for_status, skip_auth=skip_auth, raises=raises,
                                error_type=error_type)
    file = None if dest is None else _AtomicFile(Path(dest))
    try:
        landed = await _open_async(client, url, params, headers, timeout, error_for_status, skip_auth, raises,
                                   error_type, file, 0 if progress is None else _PROGRESS_STEP)
    except BaseException:
        if file is not None:
            file.discard()  # (every stream of the chain is closed: the transport writes no more into it)
        raise
    stream = landed.stream
    async with stream:
        target = _Download(stream, file, progress)
        try:
            target.start()
            async for chunk in stream._chunks(view=True, idle=target.tick):
                target.add(chunk)
            return target.finish(landed.history)
        except BaseException:
            target.discard()
            raise
