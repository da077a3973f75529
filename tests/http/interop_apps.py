"""tests/http/interop_apps.py: one small app, written for each server interface (ASGI, WSGI, aiohttp.web,
http.server), so that the clients can be tested against servers nobody here wrote (test_interop_servers.py).

Routes, the same on every server:
  /echo            JSON {"method", "path", "query", "headers": [[name, value], ...], "body_size"}
  /reject          413 with Connection: close, without reading the request body
  /many-headers    200 with n=N (query) extra header fields X-H0..X-H<N-1>
  /utf8            200 with the header X-Name: café sent as UTF-8 bytes
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

CAFE_UTF8 = "café".encode()


def echo_doc(method: str, path: str, query: str, headers: list[tuple[str, str]], body_size: int) -> bytes:
    return json.dumps({"method": method, "path": path, "query": query, "headers": [list(h) for h in headers],
                       "body_size": body_size}).encode()


def header_count(query: str) -> int:
    return int(parse_qs(query).get("n", ["150"])[0])


# ---- ASGI (uvicorn, hypercorn) --------------------------------------------------------------------------------


async def asgi_app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    path, query = scope["path"], scope["query_string"].decode("latin-1")

    async def respond(status, body, headers=()):
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), *headers]})
        await send({"type": "http.response.body", "body": body})

    if path == "/reject":
        return await respond(413, b'"too large"', [(b"connection", b"close")])
    size, more = 0, True
    while more:
        message = await receive()
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    if path == "/many-headers":
        return await respond(200, b"{}", [(b"x-h%d" % i, b"%d" % i) for i in range(header_count(query))])
    if path == "/utf8":
        return await respond(200, b"{}", [(b"x-name", CAFE_UTF8)])
    headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]]
    await respond(200, echo_doc(scope["method"], path, query, headers, size))


# ---- WSGI (gunicorn) ------------------------------------------------------------------------------------------


def wsgi_app(environ, start_response):
    path, query = environ["PATH_INFO"], environ.get("QUERY_STRING", "")
    if path == "/reject":
        start_response("413 Payload Too Large", [("Content-Type", "application/json"), ("Connection", "close")])
        return [b'"too large"']
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length else b""
    if path == "/many-headers":
        start_response("200 OK", [("Content-Type", "application/json")]
                       + [(f"X-H{i}", str(i)) for i in range(header_count(query))])
        return [b"{}"]
    if path == "/utf8":
        start_response("200 OK", [("Content-Type", "application/json"), ("X-Name", CAFE_UTF8.decode("latin-1"))])
        return [b"{}"]
    headers = [(k[5:].replace("_", "-").lower(), v) for k, v in environ.items() if k.startswith("HTTP_")]
    if environ.get("CONTENT_TYPE"):
        headers.append(("content-type", environ["CONTENT_TYPE"]))
    start_response("200 OK", [("Content-Type", "application/json")])
    return [echo_doc(environ["REQUEST_METHOD"], path, query, headers, len(body))]


# ---- aiohttp.web ----------------------------------------------------------------------------------------------


def aiohttp_app(argv=None):
    from aiohttp import web

    async def handle(request: web.Request) -> web.StreamResponse:
        path, query = request.path, request.query_string
        if path == "/reject":
            return web.Response(status=413, body=b'"too large"', content_type="application/json",
                                headers={"Connection": "close"})
        body = await request.read()
        if path == "/many-headers":
            return web.Response(body=b"{}", content_type="application/json",
                                headers={f"X-H{i}": str(i) for i in range(header_count(query))})
        if path == "/utf8":
            return web.Response(body=b"{}", content_type="application/json", headers={"X-Name": "café"})
        headers = [(k, v) for k, v in request.headers.items()]
        return web.Response(body=echo_doc(request.method, path, query, headers, len(body)),
                            content_type="application/json")

    app = web.Application(client_max_size=64 << 20)
    app.router.add_route("*", "/{tail:.*}", handle)
    return app


# ---- http.server (stdlib) -------------------------------------------------------------------------------------


class StdlibHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def _handle(self):
        path, _, query = self.path.partition("?")
        if path == "/reject":
            self.send_response(413)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "11")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b'"too large"')
            self.close_connection = True
            return
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        extra: list[tuple[str, str]] = []
        if path == "/many-headers":
            extra = [(f"X-H{i}", str(i)) for i in range(header_count(query))]
            out = b"{}"
        elif path == "/utf8":
            extra = [("X-Name", CAFE_UTF8.decode("latin-1"))]
            out = b"{}"
        else:
            out = echo_doc(self.command, path, query, list(self.headers.items()), len(body))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(out)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _handle


def serve_stdlib(port: int) -> None:
    ThreadingHTTPServer(("127.0.0.1", port), StdlibHandler).serve_forever()


if __name__ == "__main__":  # python interop_apps.py <port>: the stdlib server
    import sys

    serve_stdlib(int(sys.argv[1]))
