"""tests/http/_script_server.py: a scripted HTTP/1.1 server for the client-policy tests.

Each path answers from a script (a list of replies, consumed in order; the last one repeats) and every request is
recorded (method, path with query, headers, body). A reply is (status, headers, body), "drop" to close the
connection without answering, or ("delay", seconds, reply) to answer late. /digest/<algorithm> checks RFC 7616 Digest credentials itself."""

from __future__ import annotations

import hashlib
import http.server
import re
import socketserver
import sys
import threading
import time
from typing import Any

USER, PASSWORD, REALM = "alice", "s3cret pass", "boltwire-tests"
_HASH = {"MD5": hashlib.md5, "SHA-256": hashlib.sha256}


class Recorded:
    def __init__(self, method: str, path: str, headers: dict, body: bytes) -> None:
        self.method, self.path, self.headers, self.body = method, path, headers, body

    def __repr__(self) -> str:
        return f"<{self.method} {self.path}>"


class ScriptServer:
    def __init__(self) -> None:
        self.scripts: dict[str, list[Any]] = {}
        self.requests: list[Recorded] = []
        self.lock = threading.Lock()
        self.nonce_count = 0
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                with server.lock:
                    server.requests.append(Recorded(self.command, self.path, headers, body))
                if self.path.startswith("/digest/"):
                    reply = server.check_digest(self.command, self.path, headers)
                else:
                    reply = server.next_reply(self.path.split("?")[0])
                if reply == "drop":
                    self.close_connection = True
                    return
                if reply[0] == "delay":  # ("delay", seconds, reply): answer late
                    time.sleep(reply[1])
                    reply = reply[2]
                status, extra, payload = reply
                self.send_response(status)
                for name, value in extra:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _handle

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True
            request_queue_size = 256

            def handle_error(self, request: Any, client_address: Any) -> None:
                if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):  # a client gone
                    super().handle_error(request, client_address)

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def script(self, path: str, *replies: Any) -> None:
        with self.lock:
            self.scripts[path] = list(replies)

    def next_reply(self, path: str) -> Any:
        with self.lock:
            replies = self.scripts.get(path)
            if not replies:
                return (200, [("Content-Type", "application/json")], b'{"ok":true}')
            return replies.pop(0) if len(replies) > 1 else replies[0]

    def hits(self, path: str) -> list[Recorded]:
        with self.lock:
            return [r for r in self.requests if r.path.split("?")[0] == path]

    def reset(self) -> None:
        with self.lock:
            self.scripts.clear()
            self.requests.clear()

    def check_digest(self, method: str, path: str, headers: dict) -> Any:
        """401 with a challenge unless Authorization carries a valid RFC 7616 response (qop=auth)."""
        algorithm = path.split("/")[2].split("?")[0]
        nonce = "n0nce-" + algorithm
        challenge = (f'Digest realm="{REALM}", qop="auth", nonce="{nonce}", opaque="op4que", '
                     f"algorithm={algorithm}")
        auth = headers.get("authorization", "")
        if auth.startswith("Digest "):
            p = dict((m.group(1), m.group(2) or m.group(3))
                     for m in re.finditer(r'(\w+)=(?:"([^"]*)"|([^\s,]+))', auth[7:]))
            h = _HASH[algorithm]

            def hx(s: str) -> str:
                return h(s.encode()).hexdigest()

            ha1 = hx(f"{USER}:{REALM}:{PASSWORD}")
            ha2 = hx(f"{method}:{p.get('uri')}")
            expected = hx(f"{ha1}:{nonce}:{p.get('nc')}:{p.get('cnonce')}:auth:{ha2}")
            if (p.get("username") == USER and p.get("uri") == path and p.get("response") == expected
                    and p.get("opaque") == "op4que" and p.get("qop") == "auth"):
                return (200, [("Content-Type", "application/json")], b'{"authenticated":true}')
        return (401, [("WWW-Authenticate", challenge)], b"unauthorized")

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
