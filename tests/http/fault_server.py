"""tests/http/fault_server.py: a misbehaving HTTP/1.1 server on asyncio raw sockets, for fault-injection tests.

Overview
    FaultServer runs its own event loop in a background thread, so a blocking client and an asyncio client (in
    the test's own loop) can both talk to it. It listens on a free 127.0.0.1 port, reads each request head
    itself (and the body, by Content-Length, unless a scenario says not to), and dispatches on the request path:
    `/<scenario name>` runs that scenario on the connection. Unknown paths get a 404 and keep-alive.

    A scenario is a list of steps carried out in order: Send exact bytes, Sleep, Drip bytes one at a time, Repeat
    a message, then end the connection by Close (FIN), Reset (RST), Hang (stay open, silent) or KeepAlive (read
    the next request). Because the steps are data, tests/http/test_fault_server.py checks every scenario's bytes
    on a raw socket against `Scenario.promised()`; the client tests in test_faults.py then rely on them.
    `wait_sent(name)` lets a test wait until a run of a scenario has sent every byte before its end step.

Invariants
    - Only 127.0.0.1 is used. Every open-ended step (Drip/Repeat forever, Hang) is bounded by a time limit and
      ends as soon as the peer goes away, so a test that forgets a connection never leaves a task spinning.
    - The listening socket has a small receive buffer (RCVBUF), so a scenario that stops reading makes a client
      that keeps writing block within a few hundred KiB.
    - `stop()` cancels every connection task, closes every socket and joins the thread.
"""

from __future__ import annotations

import asyncio
import random
import socket
import struct
import threading
from collections.abc import Awaitable
from dataclasses import dataclass, field

MAX_HEAD = 64 << 10  # a request head longer than this is dropped
OPEN_LIMIT = 20.0  # seconds an open-ended step may last
RCVBUF = 16 << 10

# -- steps


@dataclass(frozen=True)
class Send:
    data: bytes


@dataclass(frozen=True)
class Sleep:
    seconds: float


@dataclass(frozen=True)
class Drip:
    """Send `data` one byte at a time, `interval` seconds apart; `forever` repeats it until the peer leaves."""

    data: bytes
    interval: float
    forever: bool = False


@dataclass(frozen=True)
class Repeat:
    """Send `data` `count` times (None: until the peer leaves or OPEN_LIMIT), `batch` copies per write."""

    data: bytes
    count: int | None = None
    batch: int = 100
    pause: float = 0.001


@dataclass(frozen=True)
class Cork:
    """Hold what is sent next (TCP_CORK) until the connection ends: with Close, the last bytes and the FIN leave in
    one segment, so the peer sees the answer and the end at once."""


@dataclass(frozen=True)
class Close:
    """Graceful close (FIN); everything sent before it arrives first."""


@dataclass(frozen=True)
class Reset:
    """Abortive close: SO_LINGER 0, so the peer gets an RST (ECONNRESET) instead of a FIN."""


@dataclass(frozen=True)
class Hang:
    """Stay open and send nothing. `read=True` reads and drops whatever comes (and ends when the peer closes);
    `read=False` never reads, so the peer's writes eventually block."""

    read: bool = True
    limit: float = OPEN_LIMIT


@dataclass(frozen=True)
class KeepAlive:
    """Serve the next request on this connection."""


Step = Send | Sleep | Drip | Repeat | Cork | Close | Reset | Hang | KeepAlive
END_STEPS = (Close, Reset, Hang, KeepAlive)


@dataclass(frozen=True)
class Scenario:
    name: str
    steps: tuple[Step, ...]
    doc: str
    read_body: bool = True  # read the request body (Content-Length) before the steps

    @property
    def path(self) -> str:
        return "/" + self.name

    def promised(self) -> tuple[bytes, str]:
        """(bytes the peer will receive before the end or before the open-ended part, how it ends):
        'close', 'reset', 'open' (Hang, or a step that goes on forever) or 'keep-alive'."""
        out = b""
        for step in self.steps:
            if isinstance(step, Send):
                out += step.data
            elif isinstance(step, Drip):
                if step.forever:
                    return out, "open"
                out += step.data
            elif isinstance(step, Repeat):
                if step.count is None:
                    return out, "open"
                out += step.data * step.count
            elif isinstance(step, Close):
                return out, "close"
            elif isinstance(step, Reset):
                return out, "reset"
            elif isinstance(step, Hang):
                return out, "open"
            elif isinstance(step, KeepAlive):
                return out, "keep-alive"
        return out, "close"


# -- the scenarios

OK = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"
OK_CLOSE = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found"
CL10 = b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"
CHUNKED = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
BIG = 10 << 20  # bodies well past any max_response_size a test sets (tests use 1 MiB)
LONG = 1 << 20  # a status line or header line of 1 MiB: past any sane head limit
DOWNLOAD = 1 << 20  # a body well past the client's 64 KiB read buffer
STREAM = 3 << 20  # a body well past what a streaming client reads ahead of its consumer (256 KiB)


def _head(*lines: str) -> bytes:
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _many_headers(n: int) -> bytes:
    return b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-H-%d: v\r\n" % i for i in range(n)) + b"Content-Length: 2\r\n\r\nok"


def _chunked_big() -> bytes:
    piece = 64 << 10
    return CHUNKED + (b"%x\r\n" % piece + b"z" * piece + b"\r\n") * (BIG // piece) + b"0\r\n\r\n"


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in [
        # well-behaved references
        Scenario("ok", (Send(OK), KeepAlive()), "200 'ok', keep-alive"),
        Scenario("ok-close", (Send(OK_CLOSE), Close()), "200 'ok' with Connection: close, then FIN"),
        Scenario("ok-then-fin", (Cork(), Send(OK), Close()),
                 "200 'ok' keep-alive by its head, but the FIN rides in the same segment as its last bytes: the "
                 "connection is over before the client has read the answer"),
        Scenario("stream-then-fin", (Cork(), Send(_head("HTTP/1.1 200 OK", f"Content-Length: {STREAM}") + b"s" * STREAM),
                                     Close()),
                 "a 3 MiB body keep-alive by its head, its FIN sent right behind it: a streaming client whose "
                 "consumer lags sees the end while it waits for the consumer"),
        Scenario("close-delimited", (Send(_head("HTTP/1.1 200 OK", "Connection: close") + b"hello"), Close()),
                 "a body that ends at FIN (no length, no chunking): valid HTTP/1.1"),
        Scenario("early-hints", (Send(_head("HTTP/1.1 103 Early Hints", "Link: </a>") + OK), KeepAlive()),
                 "a 103 then the real 200: valid"),
        # closes and resets
        Scenario("close-before-status", (Close(),), "FIN before a single byte of response"),
        Scenario("close-in-status-line", (Send(b"HTTP/1.1 20"), Close()), "FIN in the middle of the status line"),
        Scenario("close-in-headers", (Send(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\nX-Par"), Close()),
                 "FIN in the middle of a header line"),
        Scenario("close-after-headers", (Send(CL10), Close()), "FIN right after a head promising 10 bytes"),
        Scenario("close-in-body", (Send(CL10 + b"01234"), Close()), "FIN after 5 of 10 promised body bytes"),
        Scenario("reset-before-status", (Reset(),), "RST before any response byte"),
        Scenario("reset-in-body", (Send(CL10 + b"01234"), Reset()), "RST after 5 of 10 body bytes"),
        # not HTTP
        Scenario("garbage", (Send(b"\x00\x01\x02garbage\xff\xfe not http at all\r\n\r\n"), Close()),
                 "binary garbage instead of a status line, then FIN"),
        Scenario("garbage-then-silence", (Send(b"SSH-2.0-OpenSSH_9.2\r\n\r\n"), Hang()),
                 "another protocol's banner, then silence: must fail on the bytes, not on a timeout"),
        Scenario("bad-version", (Send(_head("HTTX/1.1 200 OK", "Content-Length: 2") + b"ok"), Hang()),
                 "an unknown protocol name in the status line"),
        # status line
        Scenario("status-not-digits", (Send(_head("HTTP/1.1 2x0 OK", "Content-Length: 0")), Hang()),
                 "a status code with a letter"),
        Scenario("status-four-digits", (Send(_head("HTTP/1.1 2000 OK", "Content-Length: 0")), Hang()),
                 "a four-digit status code"),
        Scenario("status-below-100", (Send(_head("HTTP/1.1 099 Low", "Content-Length: 0")), Hang()),
                 "a status code under 100"),
        Scenario("status-line-too-long", (Send(b"HTTP/1.1 200 " + b"A" * LONG + b"\r\nContent-Length: 0\r\n\r\n"), Hang()),
                 "a 1 MiB reason phrase"),
        # header lines
        Scenario("header-line-too-long", (Send(b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * LONG + b"\r\nContent-Length: 0\r\n\r\n"), Hang()),
                 "a 1 MiB header value"),
        Scenario("too-many-headers", (Send(_many_headers(20_000)), Hang()), "20,000 header lines"),
        Scenario("header-no-colon", (Send(_head("HTTP/1.1 200 OK", "NoColonHere", "Content-Length: 2") + b"ok"), Hang()),
                 "a header line without a colon"),
        Scenario("header-obs-fold", (Send(_head("HTTP/1.1 200 OK", "X-A: a", " folded", "Content-Length: 2") + b"ok"), Hang()),
                 "obsolete line folding (RFC 9112 5.2: reject)"),
        Scenario("header-nul", (Send(b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 2\r\n\r\nok"), Hang()),
                 "a NUL byte in a header value"),
        Scenario("header-space-before-colon", (Send(_head("HTTP/1.1 200 OK", "Content-Length : 2") + b"ok"), Hang()),
                 "whitespace between field name and colon (RFC 9112 5.1: reject)"),
        # chunked framing
        Scenario("bad-chunk-size", (Send(CHUNKED + b"zz\r\nhello\r\n0\r\n\r\n"), Hang()), "chunk size 'zz'"),
        Scenario("chunk-size-overflow", (Send(CHUNKED + b"1" + b"0" * 20 + b"\r\nhello\r\n0\r\n\r\n"), Hang()),
                 "a chunk size of 16**20, past 64 bits"),
        Scenario("chunk-missing-crlf", (Send(CHUNKED + b"5\r\nhelloXX0\r\n\r\n"), Hang()),
                 "chunk data not followed by CRLF"),
        Scenario("chunked-cut-short", (Send(CHUNKED + b"5\r\nhel"), Close()), "FIN inside a chunk"),
        Scenario("chunked-no-last-chunk", (Send(CHUNKED + b"5\r\nhello\r\n"), Close()), "FIN before the last chunk"),
        Scenario("bad-trailers", (Send(CHUNKED + b"5\r\nhello\r\n0\r\nBad Trailer Without Colon\r\n\r\n"), Hang()),
                 "a trailer line without a colon"),
        Scenario("trailers-cut-short", (Send(CHUNKED + b"5\r\nhello\r\n0\r\nX-Trailer: v"), Close()),
                 "FIN inside the trailer section"),
        # Content-Length
        Scenario("two-content-lengths", (Send(_head("HTTP/1.1 200 OK", "Content-Length: 5", "Content-Length: 6") + b"hello!"), Hang()),
                 "two different Content-Length fields"),
        Scenario("content-length-list", (Send(_head("HTTP/1.1 200 OK", "Content-Length: 5, 6") + b"hello!"), Hang()),
                 "a Content-Length list with different values"),
        Scenario("negative-content-length", (Send(_head("HTTP/1.1 200 OK", "Content-Length: -5") + b"hello"), Hang()),
                 "Content-Length: -5"),
        Scenario("nonnumeric-content-length", (Send(_head("HTTP/1.1 200 OK", "Content-Length: abc") + b"hello"), Hang()),
                 "Content-Length: abc"),
        Scenario("plus-content-length", (Send(_head("HTTP/1.1 200 OK", "Content-Length: +5") + b"hello"), Hang()),
                 "Content-Length: +5 (only digits are valid)"),
        Scenario("content-length-overflow", (Send(_head("HTTP/1.1 200 OK", "Content-Length: 99999999999999999999999") + b"hello"), Hang()),
                 "a Content-Length past 64 bits"),
        Scenario("body-longer-than-content-length",
                 (Send(_head("HTTP/1.1 200 OK", "Content-Length: 5") + b"hello"
                       + _head("HTTP/1.1 200 OK", "Content-Length: 8") + b"smuggled"), Hang()),
                 "5 promised bytes, then a whole extra response: must never be read as the next answer"),
        Scenario("download-longer-than-content-length",
                 (Send(_head("HTTP/1.1 200 OK", f"Content-Length: {DOWNLOAD}") + b"d" * DOWNLOAD
                       + _head("HTTP/1.1 200 OK", "Content-Length: 8") + b"smuggled"), Hang()),
                 "a body past the client's read buffer, then a whole extra response in the same write: a download "
                 "that takes the body straight from the socket must still not read it as the next answer"),
        Scenario("surplus-after-pause",
                 (Send(_head("HTTP/1.1 200 OK", "Content-Length: 5") + b"hello"), Sleep(0.02),
                  Send(_head("HTTP/1.1 200 OK", "Content-Length: 8") + b"smuggled"), Hang()),
                 "5 promised bytes, then a moment later a whole extra response (its own segment): the idle "
                 "keep-alive connection holds bytes nobody asked for and must not carry the next request"),
        Scenario("te-and-content-length",
                 (Send(_head("HTTP/1.1 200 OK", "Transfer-Encoding: chunked", "Content-Length: 5") + b"5\r\nhello\r\n0\r\n\r\n"), Hang()),
                 "Transfer-Encoding and Content-Length together (RFC 9112 6.3: an error)"),
        # time
        Scenario("drip-forever", (Send(_head("HTTP/1.1 200 OK", "Content-Length: 1000000")), Drip(b"x", 0.05, forever=True)),
                 "a 1 MB body at one byte per 50 ms: only a total timeout ends it"),
        Scenario("drip-headers-forever", (Send(b"HTTP/1.1 200 OK\r\nX-Slow: "), Drip(b"a", 0.05, forever=True)),
                 "a header line that grows by one byte per 50 ms, forever"),
        Scenario("silent", (Hang(),), "reads the request, never answers: a read timeout"),
        Scenario("silent-after-headers", (Send(CL10), Hang()), "sends the head, never the body: a read timeout"),
        Scenario("never-reads-body", (Hang(read=False),), "never reads the request body: the client's writes block",
                 read_body=False),
        Scenario("drip-while-not-reading", (Send(b"HTTP/1.1 200 OK\r\nX-Slow: "), Drip(b"a", 0.05, forever=True)),
                 "never reads the request body and answers with a head that grows by one byte per 50 ms: the "
                 "client's writes block while bytes keep arriving", read_body=False),
        Scenario("continue-flood", (Repeat(b"HTTP/1.1 100 Continue\r\n\r\n"),), "100 Continue, again and again, forever"),
        # size
        Scenario("too-large-content-length", (Send(_head("HTTP/1.1 200 OK", f"Content-Length: {BIG}") + b"z" * BIG), Close()),
                 "a 10 MiB body announced by Content-Length"),
        Scenario("too-large-chunked", (Send(_chunked_big()), Close()), "a 10 MiB chunked body (no length up front)"),
    ]
}

# Scenarios with behaviour that is not a fixed byte list (see FaultServer._custom).
FLAKY = "flaky-keepalive"  # 200 'ok' keep-alive, then at random closes the idle connection within IDLE_CLOSE
DELAY = "delay"  # 200 'ok' keep-alive after a random delay up to MAX_DELAY
IDLE_CLOSE = (0.03, 0.06)  # a flaky connection that gets no new request within this window (s) is closed
MAX_DELAY = 0.02


# -- the server


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes = b""


@dataclass
class Stats:
    connections: int = 0
    requests: int = 0
    by_path: dict[str, int] = field(default_factory=dict)
    sent: dict[str, int] = field(default_factory=dict)  # scenario path -> runs that sent all their bytes


class FaultServer:
    def __init__(self, seed: int = 1234) -> None:
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._listener: socket.socket | None = None
        self._refuser: socket.socket | None = None
        self._tasks: set[asyncio.Task] = set()
        self._sent = threading.Condition()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def refused_url(self) -> str:
        """A loopback port that is bound but not listening: connecting to it is refused (RST)."""
        return f"http://127.0.0.1:{self._refuser.getsockname()[1]}"

    def start(self) -> FaultServer:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)  # inherited by accepted sockets
        listener.bind(("127.0.0.1", 0))
        listener.listen(512)
        listener.setblocking(False)
        self._listener, self.port = listener, listener.getsockname()[1]
        # Bound and never listened on: the port stays ours (nobody else can take it) and refuses connections.
        self._refuser = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._refuser.bind(("127.0.0.1", 0))

        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(ready,), name="fault-server", daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None:
            loop.call_soon_threadsafe(self._shutdown)
            self._thread.join(10)
        for s in (self._listener, self._refuser):
            if s is not None:
                s.close()
        self._listener = self._refuser = None

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def url_for(self, name: str) -> str:
        return self.url + "/" + name

    def wait_sent(self, name: str, runs: int = 1, timeout: float = 5.0) -> bool:
        """Waits until `runs` runs of scenario `name` have sent every byte before their end step (the bytes are
        then in the loopback peer's receive queue); False after `timeout`."""
        with self._sent:
            return self._sent.wait_for(lambda: self.stats.sent.get("/" + name, 0) >= runs, timeout)

    def _note_sent(self, path: str) -> None:
        with self._sent:
            self.stats.sent[path] = self.stats.sent.get(path, 0) + 1
            self._sent.notify_all()

    # -- loop thread

    def _run(self, ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        self._spawn(self._accept_loop())
        ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def _shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        loop = asyncio.get_running_loop()

        async def finish() -> None:
            await asyncio.gather(*self._tasks, return_exceptions=True)
            loop.stop()

        loop.create_task(finish())

    def _spawn(self, coro: Awaitable) -> None:
        task = self._loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _accept_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            sock, _ = await loop.sock_accept(self._listener)
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.stats.connections += 1
            self._spawn(self._serve(sock))

    async def _serve(self, sock: socket.socket) -> None:
        conn = _Conn(sock)
        try:
            while True:
                request = await conn.read_head()
                if request is None:
                    return
                self.stats.requests += 1
                self.stats.by_path[request.path] = self.stats.by_path.get(request.path, 0) + 1
                name = request.path.lstrip("/")
                scenario = SCENARIOS.get(name)
                if scenario is None or scenario.read_body:
                    if not await conn.read_body(request):
                        return
                if name in (FLAKY, DELAY):
                    if not await self._custom(name, conn):
                        return
                    continue
                if scenario is None:
                    await conn.send(NOT_FOUND)
                    continue
                if not await conn.run(scenario.steps, lambda: self._note_sent(request.path)):
                    return
        except (ConnectionError, OSError, asyncio.TimeoutError):
            return  # the peer went away or reset us: that ends the connection, never the server
        finally:
            conn.close()

    async def _custom(self, name: str, conn: _Conn) -> bool:
        """True: keep serving this connection."""
        if name == DELAY:
            await asyncio.sleep(self.rng.uniform(0, MAX_DELAY))
            await conn.send(OK)
            return True
        await conn.send(OK)  # FLAKY
        if self.rng.random() < 0.5:
            return True
        # Close it if it stays idle for a random moment; a request that arrives in time is served.
        return await conn.wait_readable(self.rng.uniform(*IDLE_CLOSE))


class _Conn:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""
        self.closed = False
        self.loop = asyncio.get_running_loop()

    async def recv(self) -> bytes:
        return await self.loop.sock_recv(self.sock, 65536)

    async def read_head(self) -> Request | None:
        while b"\r\n\r\n" not in self.buf:
            if len(self.buf) > MAX_HEAD:
                return None
            data = await self.recv()
            if not data:
                return None
            self.buf += data
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3:
            return None
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        return Request(parts[0], parts[1].split("?", 1)[0], headers)

    async def read_body(self, request: Request) -> bool:
        try:
            n = int(request.headers.get("content-length", "0"))
        except ValueError:
            return False
        while len(self.buf) < n:
            data = await self.recv()
            if not data:
                return False
            self.buf += data
        request.body, self.buf = self.buf[:n], self.buf[n:]
        return True

    async def wait_readable(self, seconds: float) -> bool:
        """Wait up to `seconds` for more request bytes; True when some arrived (they stay buffered)."""
        if self.buf:
            return True
        try:
            data = await asyncio.wait_for(self.recv(), seconds)
        except asyncio.TimeoutError:
            return False
        self.buf += data
        return bool(data)

    async def send(self, data: bytes) -> None:
        await self.loop.sock_sendall(self.sock, data)

    async def run(self, steps: tuple[Step, ...], on_sent=lambda: None) -> bool:
        """Carry out the steps; True when the connection should serve another request. `on_sent` is called when
        the end step is reached (every byte before it was sent)."""
        for step in steps:
            if isinstance(step, END_STEPS):
                on_sent()
            if isinstance(step, Send):
                await self.send(step.data)
            elif isinstance(step, Sleep):
                await asyncio.sleep(step.seconds)
            elif isinstance(step, Cork):
                self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
            elif isinstance(step, Drip):
                await self._drip(step)
            elif isinstance(step, Repeat):
                await self._repeat(step)
            elif isinstance(step, Close):
                self.close()
                return False
            elif isinstance(step, Reset):
                self.reset()
                return False
            elif isinstance(step, Hang):
                await self._hang(step)
                return False
            elif isinstance(step, KeepAlive):
                return True
        return False

    async def _drip(self, step: Drip) -> None:
        deadline = self.loop.time() + OPEN_LIMIT
        while True:
            for i in range(len(step.data)):
                await self.send(step.data[i : i + 1])
                await asyncio.sleep(step.interval)
                if self.loop.time() > deadline:
                    return
            if not step.forever:
                return

    async def _repeat(self, step: Repeat) -> None:
        deadline = self.loop.time() + OPEN_LIMIT
        left = step.count
        while left is None or left > 0:
            n = step.batch if left is None else min(step.batch, left)
            await self.send(step.data * n)
            if left is not None:
                left -= n
            elif self.loop.time() > deadline:
                return
            await asyncio.sleep(step.pause)

    async def _hang(self, step: Hang) -> None:
        if not step.read:
            await asyncio.sleep(step.limit)
            return
        try:
            async with asyncio.timeout(step.limit):
                while await self.recv():
                    pass  # drop it; EOF (b"") means the peer left
        except TimeoutError:
            pass

    def reset(self) -> None:
        if not self.closed:
            self.closed = True
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.sock.close()  # no shutdown first: that would send a FIN ahead of the RST

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            self.sock.close()

