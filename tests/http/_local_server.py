"""tests/http/_local_server.py: a small threaded raw-socket HTTP/1.1 server on 127.0.0.1 for the client tests.

Each connection gets a thread; the request path picks the behaviour, so a test controls bytes, delays and closes:
  /json                 the 523-byte JSON document            /status/<code>   that status, a short body
  /slow?ms=N            answer after N ms                      /hang            read the request, never answer
  /close                answer, then close silently (no Connection: close header): a stale keep-alive connection
  /drip?n=N&ms=M        head at once, then the body one byte every M ms
  /chunked              a chunked body with a trailer          /multi           repeated Set-Cookie fields
  /malformed            bytes that are not HTTP               /echo            JSON of method, target, headers, body
  /noread               never read the request body (the client's writes stall)
  /early                answer before reading the request body, then read it
  /reject               answer 413 with Connection: close before reading the body, then close at once
  /drop                 on a connection that already served a request: read the request, close without answering
                        (a keep-alive connection dropped after the request arrived); otherwise answer 200
  /reset?ms=N           answer, then N ms later reset the connection (RST): a keep-alive connection that dies idle
  /peer                 JSON of the client's (host, port): which connection carried the request
  /surplus?n=N          an N-byte body followed, in the same write, by a whole extra response (never an answer)
  /many-headers?n=N     N extra header fields          /non-ascii-headers  one UTF-8 and one Latin-1 field value
  /encoded?c=gzip,br    the JSON document in those content codings (see _encoded_response for the options)
Every request is logged as (method, target) in `log`. `LocalServer(tls=True)` speaks https (a certificate for
127.0.0.1 and localhost from a CA that trustme makes; `ca_pem` is that CA) with the same routes; a close is then a
TCP close without close_notify, as a server that drops a connection does.
Counters (connections, peak concurrent connections, requests, peak requests in progress) let tests see reuse and limits.
"""

from __future__ import annotations

import functools
import json
import socket
import ssl
import struct
import threading
import time
from urllib.parse import parse_qs, urlsplit

PAYLOAD = (
    b'{"status":"success","timestamp":"2026-08-19T12:34:56Z","user":{"id":42,"name":"Alice Johnson",'
    b'"email":"alice@example.com","roles":["admin","editor"],"metadata":{"last_login":"2026-08-19T10:00:00Z",'
    b'"login_count":127,"active":true}},"data":[{"id":1,"title":"First Item","tags":["rust","async"],'
    b'"score":95.5,"nested":{"depth":2,"values":[10,20,30]}},{"id":2,"title":"Second Item",'
    b'"tags":["web","performance"],"score":88.3,"nested":{"depth":2,"values":[40,50,60]}}],'
    b'"pagination":{"page":1,"limit":2,"total":42,"has_more":true}}'
)
assert len(PAYLOAD) == 523


class LocalServer:
    def __init__(self, host: str = "127.0.0.1", tls: bool = False) -> None:
        self.ssl_context: ssl.SSLContext | None = None
        self.ca_pem: bytes | None = None
        if tls:
            import trustme

            ca = trustme.CA()
            self.ca_pem = ca.cert_pem.bytes()
            self.ssl_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ca.issue_cert("127.0.0.1", "localhost", "::1").configure_cert(self.ssl_context)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(1024)
        self.port = self.sock.getsockname()[1]
        scheme = "https" if tls else "http"
        self.url = f"{scheme}://[{host}]:{self.port}" if ":" in host else f"{scheme}://{host}:{self.port}"
        self.lock = threading.Lock()
        self.connections = 0
        self.open_now = 0
        self.peak_open = 0
        self.requests = 0
        self.active = 0
        self.peak_active = 0
        self.log: list[tuple[str, str]] = []
        self.stopping = threading.Event()
        self.conns: set[socket.socket] = set()
        self.thread = threading.Thread(target=self._accept_loop, daemon=True)
        self.thread.start()

    def reset_counters(self) -> None:
        with self.lock:
            self.connections = 0
            self.peak_open = self.open_now
            self.requests = 0
            self.peak_active = self.active

    def close(self) -> None:
        self.stopping.set()
        try:
            self.sock.close()
        except OSError:
            pass
        with self.lock:
            conns = list(self.conns)
        for c in conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
                c.close()
            except OSError:
                pass

    def __enter__(self) -> "LocalServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _accept_loop(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                self.connections += 1
                self.open_now += 1
                self.peak_open = max(self.peak_open, self.open_now)
                self.conns.add(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, raw: socket.socket) -> None:
        conn = raw  # the TLS socket over it with tls=True
        buf = bytearray()
        served = 0  # requests read on this connection
        try:
            if self.ssl_context is not None:
                conn = self.ssl_context.wrap_socket(conn, server_side=True)  # the handshake, in this thread
                with self.lock:  # close() shuts the TLS socket down (the raw one is detached from its fd now)
                    self.conns.discard(raw)
                    self.conns.add(conn)
            while not self.stopping.is_set():
                while b"\r\n\r\n" not in buf:
                    data = conn.recv(65536)
                    if not data:
                        return
                    buf += data
                head, _, rest = buf.partition(b"\r\n\r\n")
                buf = bytearray(rest)
                lines = bytes(head).decode("latin-1").split("\r\n")
                method, target, _ = lines[0].split(" ", 2)
                headers = [tuple(line.split(": ", 1)) for line in lines[1:]]
                length = 0
                for name, value in headers:
                    if name.lower() == "content-length":
                        length = int(value)
                path = urlsplit(target).path
                with self.lock:
                    self.log.append((method, target))
                if path == "/reject":
                    conn.sendall(self._response(413, b'"too large"', "Connection: close\r\n"))
                    return
                if path == "/noread":
                    self.stopping.wait(10)
                    return
                if path == "/early":  # answer first, then read (and drop) the body: keep-alive stays in sync
                    conn.sendall(self._response(200, b'"early"'))
                    while len(buf) < length:
                        data = conn.recv(65536)
                        if not data:
                            return
                        buf += data
                    del buf[:length]
                    continue
                while len(buf) < length:
                    data = conn.recv(65536)
                    if not data:
                        return
                    buf += data
                body = bytes(buf[:length])
                del buf[:length]
                served += 1
                if path == "/drop" and served > 1:
                    return
                with self.lock:
                    self.requests += 1
                    self.active += 1
                    self.peak_active = max(self.peak_active, self.active)
                answering = _Answering(conn, self)
                try:
                    keep = self._answer(answering, method, target, headers, body)
                finally:
                    answering.done()
                if not keep:
                    return
        except OSError:
            return
        finally:
            with self.lock:
                self.open_now -= 1
                self.conns.discard(raw)
                self.conns.discard(conn)
            try:
                conn.close()
            except OSError:
                pass

    @staticmethod
    def _response(status: int, body: bytes, extra: str = "", content_type: str = "application/json") -> bytes:
        return (
            f"HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n{extra}\r\n"
        ).encode() + body

    def _answer(self, conn: socket.socket, method: str, target: str, headers: list, body: bytes) -> bool:
        """Writes the response; False to close the connection."""
        parts = urlsplit(target)
        path = parts.path
        if path.startswith("/base/"):  # base_url tests: the same routes under a path prefix
            path = path[len("/base"):]
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        if path in ("/", "/json"):
            conn.sendall(self._response(200, PAYLOAD))
        elif path == "/slow":
            time.sleep(int(query.get("ms", "100")) / 1000)
            conn.sendall(self._response(200, PAYLOAD))
        elif path.startswith("/status/"):
            code = int(path.rsplit("/", 1)[1])
            conn.sendall(self._response(code, b'{"error":"status %d","detail":"' % code + b"x" * 300 + b'"}',
                                        "X-Status: yes\r\n"))
        elif path == "/hang":
            self.stopping.wait(10)
            return False
        elif path == "/close":
            conn.sendall(self._response(200, b'"closing"'))
            time.sleep(0.05)
            return False
        elif path == "/drip":
            n, ms = int(query.get("n", "10")), int(query.get("ms", "50"))
            conn.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {n}\r\n\r\n".encode())
            for _ in range(n):
                if self.stopping.wait(ms / 1000):
                    return False
                conn.sendall(b"x")
        elif path == "/chunked":
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-T\r\n\r\n"
                         b"5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-T: done\r\n\r\n")
        elif path == "/multi":
            conn.sendall(self._response(200, b"[1,2,3]", "Set-Cookie: a=1\r\nset-cookie: b=2\r\nX-One: 1\r\n"))
        elif path == "/malformed":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!")
            return False
        elif path == "/garbage":
            conn.sendall(b"SSH-2.0-OpenSSH\r\n\r\n")
            return False
        elif path == "/echo":
            doc = {"method": method, "target": target, "headers": [list(h) for h in headers],
                   "body": body.decode("latin-1")}
            conn.sendall(self._response(200, json.dumps(doc).encode()))
        elif path == "/encoded":
            conn.sendall(_encoded_response(query))
            return "close" not in query
        elif path == "/many-headers":
            n = int(query.get("n", "150"))
            conn.sendall(self._response(200, b"{}", "".join(f"X-H{i}: {i}\r\n" for i in range(n))))
        elif path == "/non-ascii-headers":  # one value in UTF-8, one in Latin-1 (not valid UTF-8)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Utf8: " + "café".encode()
                         + b"\r\nX-Latin1: " + "café".encode("latin-1") + b"\r\n\r\n{}")
        elif path == "/drop":  # the first request of a connection (later ones are dropped by _serve)
            conn.sendall(self._response(200, b'"kept"'))
        elif path == "/reset":
            conn.sendall(self._response(200, PAYLOAD))
            time.sleep(int(query.get("ms", "20")) / 1000)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close() sends RST
            return False
        elif path == "/peer":
            conn.sendall(self._response(200, json.dumps(list(conn.getpeername()[:2])).encode()))
        elif path == "/point":
            conn.sendall(self._response(200, b'{"x":1,"y":2}'))
        elif path == "/points":
            conn.sendall(self._response(200, b'[{"x":1,"y":2},{"x":3,"y":4}]'))
        elif path == "/big":
            n = int(query.get("n", "1000000"))
            conn.sendall(self._response(200, bytes(range(256)) * (n // 256) + b"z" * (n % 256)))
        elif path == "/bigchunked":
            n, size = int(query.get("n", "100")), int(query.get("size", "10000"))
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in range(n):
                conn.sendall(b"%x\r\n" % size + b"c" * size + b"\r\n")
            conn.sendall(b"0\r\n\r\n")
        elif path == "/http10":
            conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close")
            return False
        elif path == "/interim":
            conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                         + self._response(201, b"made"))
        elif path == "/nocontent":
            conn.sendall(b"HTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n")
        elif path == "/truncated":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this")
            return False
        elif path == "/text":
            conn.sendall(self._response(200, "héllo".encode(), content_type="text/plain; charset=utf-8"))
        elif path == "/surplus":  # ?n=N: an N-byte body, then a whole extra response in the same write
            n = int(query.get("n", "1048576"))
            conn.sendall(self._response(200, b"s" * n) + self._response(200, b"smuggled"))
        elif path == "/head-only":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" if method == "HEAD"
                         else self._response(200, b"x" * 100))
        else:
            conn.sendall(self._response(404, b'{"error":"not found"}'))
        return True


class _Answering:
    """The socket while one request is answered: the request stops counting as active when its answer starts to go
    out (a client may reuse the connection as soon as it has the answer, before this thread runs again)."""

    def __init__(self, conn: socket.socket, server: "LocalServer") -> None:
        self._conn = conn
        self._server = server
        self._counted = True

    def done(self) -> None:
        if self._counted:
            self._counted = False
            with self._server.lock:
                self._server.active -= 1

    def sendall(self, data: bytes) -> None:
        self.done()
        self._conn.sendall(data)

    def __getattr__(self, name: str):
        return getattr(self._conn, name)


def encode_content(data: bytes, coding: str) -> bytes:
    """`data` in one content coding (RFC 9110 §8.4.1)."""
    import gzip
    import zlib

    if coding == "identity":
        return data
    if coding in ("gzip", "x-gzip"):
        return gzip.compress(data)
    if coding == "deflate":
        return zlib.compress(data)
    if coding == "raw-deflate":  # what some servers send as "deflate"
        c = zlib.compressobj(wbits=-15)
        return c.compress(data) + c.flush()
    if coding == "br":
        import brotli

        # Quality 11 (the default) spends ~25 s on the 256 MiB bomb, close to the client's 30 s timeout under load;
        # quality 4 still packs zeros more than 1000:1.
        return brotli.compress(data, quality=11 if len(data) < (1 << 20) else 4)
    if coding == "zstd":
        import zstandard

        return zstandard.ZstdCompressor(write_checksum=True).compress(data)  # as the zstd CLI writes it
    raise ValueError(coding)


@functools.lru_cache(maxsize=32)
def _encoded_body(zeros: int, codings: tuple, text: int = -1) -> bytes:
    """PAYLOAD (zeros < 0 and text < 0), `zeros` zero bytes, or the JSON document {"s": "aaa..."} with `text`
    letters, in `codings`, applied in order; cached: the bomb tests ask for the same 256 MiB body from both
    clients."""
    body = bytes(zeros) if zeros >= 0 else b'{"s":"' + b"a" * text + b'"}' if text >= 0 else PAYLOAD
    for coding in codings:
        body = encode_content(body, coding)
    return body


def _encoded_response(query: dict) -> bytes:
    """/encoded options: c=codings applied in order (comma-separated); zeros=N the body is N zero bytes instead of
    the JSON document; text=N the body is {"s": N letters}; extra=NAME lists one more (made-up) coding in the header only; corrupt=1 flips bytes in the middle; truncate=N drops the last N bytes; chunked=1 chunked
    framing; close=1 delimited by closing the connection."""
    codings = [c for c in query.get("c", "gzip").split(",") if c]
    body = _encoded_body(int(query.get("zeros", -1)), tuple(codings), int(query.get("text", -1)))
    if query.get("corrupt"):
        middle = len(body) // 2
        body = body[:middle] + bytes(b ^ 0x5A for b in body[middle:middle + 8]) + body[middle + 8:]
    if query.get("truncate"):
        body = body[: len(body) - int(query["truncate"])]
    names = ", ".join(["deflate" if c == "raw-deflate" else c for c in codings] + query.get("extra", "").split(",")[:1])
    names = names.rstrip(", ")
    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: {names}\r\n"
    if query.get("chunked"):
        chunks = b"".join(b"%x\r\n" % len(body[i:i + 100]) + body[i:i + 100] + b"\r\n" for i in range(0, len(body), 100))
        return (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + chunks + b"0\r\n\r\n"
    if query.get("close"):
        return (head + "Connection: close\r\n\r\n").encode() + body
    return (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body
