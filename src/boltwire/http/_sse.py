"""sse(): Server-Sent Events over a streamed GET, parsed by the native event-stream parser (csrc/http/sse, WHATWG
rules), with reconnection (Last-Event-ID, the server's retry:, 204 stops)."""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Iterator

from boltwire import _core
from boltwire.http._errors import HTTPTransportError
from boltwire.http._streaming import AsyncStream, SyncStream
from boltwire.http._types import SSEEvent

__all__ = ["sse_async", "sse_sync"]

class _Session:
    """What survives reconnects: the last event ID, the reconnection delay, the count of fruitless reconnects."""

    def __init__(self, client: Any, tp: Any, reconnect_delay: float, max_reconnects: int | None) -> None:
        self.decode = None if tp is None or tp is str else client._decoder(tp)
        self.delay = reconnect_delay
        self.max_reconnects = max_reconnects
        self.failures = 0
        self.last_id = ""
        self.retry_ms: int | None = None  # the last retry: the server sent, on any connection
        self.parser: Any = None

    def headers(self, headers: Any) -> list[tuple[str, str]]:
        out = [("Accept", "text/event-stream"), ("Cache-Control", "no-cache")]
        if self.last_id:
            out.append(("Last-Event-ID", self.last_id))
        if headers:
            given = list(headers.items()) if hasattr(headers, "items") else list(headers)
            names = {str(n).lower() for n, _ in given}
            out = [h for h in out if h[0].lower() not in names] + given
        return out

    def check(self, stream: Any) -> bool:
        """False when the server said stop (204); raises for any status but 200 or a wrong media type."""
        status = stream.status
        if status == 204:
            return False
        if status != 200:
            raise HTTPTransportError(f"server-sent events: the server answered {status}, not 200")
        media = (stream.headers.get("content-type") or "").partition(";")[0].strip().lower()
        if media != "text/event-stream":
            raise HTTPTransportError(f"server-sent events: Content-Type is {media or 'missing'!r}, "
                                     "not 'text/event-stream'")
        self.parser = _core._SseParser()
        self.parser.last_event_id = self.last_id
        return True

    def events(self, chunk: bytes) -> list[SSEEvent]:
        parser = self.parser
        found = parser.feed(chunk)
        self.last_id = parser.last_event_id
        if parser.retry_ms is not None:
            self.retry_ms = parser.retry_ms
            self.delay = parser.retry_ms / 1000.0
        if found:
            self.failures = 0
        decode = self.decode
        retry = self.retry_ms
        return [SSEEvent(data if decode is None else decode(data.encode("utf-8")), kind, event_id, retry)
                for kind, data, event_id in found]

    def may_retry(self) -> bool:
        self.failures += 1
        return self.max_reconnects is None or self.failures <= self.max_reconnects

    def on_error(self, stream: Any, error: BaseException) -> None:
        """After a transport error: raise it when the stream was refused (status, media type) or reconnects ran
        out; otherwise the caller sleeps `delay` and reconnects."""
        if stream._status and not isinstance(error, _DROPS):
            raise error
        if not self.may_retry():
            raise error

    def on_close(self, reconnect_on_close: bool) -> bool:
        """After a clean end of the body: whether to reconnect."""
        return reconnect_on_close and self.may_retry()


async def sse_async(client: Any, url: str, tp: Any, params: Any, headers: Any, timeout: Any,
                    error_for_status: bool | None, max_reconnects: int | None, reconnect_delay: float,
                    reconnect_on_close: bool, skip_auth: bool = False, raises: Any = None,
                    error_type: Any = None) -> AsyncIterator[SSEEvent]:
    session = _Session(client, tp, reconnect_delay, max_reconnects)
    while True:
        stream = AsyncStream(client, "GET", url, params, session.headers(headers), None, None, None, None, timeout,
                             bytes, error_for_status, True, skip_auth, raises, error_type)
        try:
            async with stream:
                if not session.check(stream):
                    return
                async for chunk in stream._chunks():
                    for event in session.events(chunk):
                        yield event
        except HTTPTransportError as error:
            session.on_error(stream, error)
        else:
            if not session.on_close(reconnect_on_close):
                return
        await asyncio.sleep(session.delay)


def sse_sync(client: Any, url: str, tp: Any, params: Any, headers: Any, timeout: Any,
             error_for_status: bool | None, max_reconnects: int | None, reconnect_delay: float,
             reconnect_on_close: bool, skip_auth: bool = False, raises: Any = None,
             error_type: Any = None) -> Iterator[SSEEvent]:
    session = _Session(client, tp, reconnect_delay, max_reconnects)
    while True:
        stream = SyncStream(client, "GET", url, params, session.headers(headers), None, None, None, None, timeout,
                            bytes, error_for_status, True, skip_auth, raises, error_type)
        try:
            with stream:
                if not session.check(stream):
                    return
                for chunk in stream._chunks():
                    yield from session.events(chunk)
        except HTTPTransportError as error:
            session.on_error(stream, error)
        else:
            if not session.on_close(reconnect_on_close):
                return
        time.sleep(session.delay)


def _drops() -> tuple[type, ...]:
    from boltwire.http._errors import HTTPConnectionError, HTTPTimeoutError

    return (HTTPConnectionError, HTTPTimeoutError)


_DROPS = _drops()
