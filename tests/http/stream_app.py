"""tests/http/stream_app.py: a starlette app (served by uvicorn in its own process) for the streaming, upload, SSE,
download, zstd and cookie tests.

Routes:
  /ndjson?n=N&delay=S     N JSON lines {"i": k} sent one by one (S seconds apart), chunked
  /endless                body chunks of 16 KiB forever; X-Peer: the client's port; records each disconnect
  /peer                   {"port": the client's port}
  /stats                  {"endless_open": streams still sending, "endless_closed": streams the client left,
                          "endless_sent": {client port: bytes that port's /endless stream handed over so far}}
  /upload                 reads the request body: {"size", "sha256", "transfer_encoding", "content_type", "pieces"}
  /echo-body              the request body back, with the request's Content-Type
  /cut?size=N             Content-Length N, sends half of it, then drops the connection
  /sse?scenario=...       server-sent events (see sse_route)
  /release?token=T        lets /sse?scenario=gated&token=T send its second event
  /zstd                   the JSON document {"user": ..., "items": [...]} zstd-compressed, sent chunked in small pieces
  /login, /logout         starlette's set_cookie / delete_cookie on a redirect (303 / 302) to /account
  /account                {"cookies": the cookies the request carried, "method": its method}
  /status/N               an empty response with status N
  /reject                 413 with Connection: close, without reading the request body
"""

from __future__ import annotations

import asyncio
import hashlib
import json

import zstandard
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

STATE = {"endless_open": 0, "endless_closed": 0, "endless_sent": {}, "sse_connects": [], }
GATES: dict[str, asyncio.Event] = {}  # /sse?scenario=gated waits on its token's event until /release sets it


async def ndjson(request: Request) -> Response:
    n = int(request.query_params.get("n", "5"))
    delay = float(request.query_params.get("delay", "0"))

    async def lines():
        for i in range(n):
            yield json.dumps({"i": i}).encode() + b"\n"
            if delay:
                await asyncio.sleep(delay)

    return StreamingResponse(lines(), media_type="application/x-ndjson")


async def endless(request: Request) -> Response:
    peer = request.client.port if request.client else 0

    async def chunks():
        STATE["endless_open"] += 1
        try:
            i = 0
            while True:
                yield bytes([i % 251]) * 16384
                # (after the yield: uvicorn took the chunk, past its flow control)
                STATE["endless_sent"][str(peer)] = STATE["endless_sent"].get(str(peer), 0) + 16384
                i += 1
                await asyncio.sleep(0)
        finally:
            STATE["endless_open"] -= 1
            STATE["endless_closed"] += 1

    return StreamingResponse(chunks(), media_type="application/octet-stream", headers={"X-Peer": str(peer)})


async def peer(request: Request) -> Response:
    return JSONResponse({"port": request.client.port if request.client else 0})


async def stats(request: Request) -> Response:
    return JSONResponse({k: v for k, v in STATE.items()})


async def upload(request: Request) -> Response:
    digest = hashlib.sha256()
    size = pieces = 0
    async for piece in request.stream():
        if piece:
            digest.update(piece)
            size += len(piece)
            pieces += 1
    return JSONResponse({"size": size, "sha256": digest.hexdigest(), "pieces": pieces,
                         "transfer_encoding": request.headers.get("transfer-encoding"),
                         "content_length": request.headers.get("content-length"),
                         "content_type": request.headers.get("content-type")})


async def echo_body(request: Request) -> Response:
    body = await request.body()
    return Response(body, media_type=request.headers.get("content-type", "application/octet-stream"))


async def moved(request: Request) -> Response:
    """Reads the whole request body, answers it back with the redirect status in the path and Location: /peer."""
    body = await request.body()
    return Response(body, status_code=int(request.path_params["code"]), headers={"Location": "/peer"})


async def cut(scope, receive, send):
    """Raw ASGI: promises `size` bytes and sends half, then fails (uvicorn drops the connection)."""
    size = int(dict(p.split("=") for p in scope["query_string"].decode().split("&") if p).get("size", "1000000"))
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(size).encode()), (b"content-type", b"application/octet-stream")]})
    await send({"type": "http.response.body", "body": b"x" * (size // 2), "more_body": True})
    await asyncio.sleep(0.05)
    raise RuntimeError("connection cut on purpose")


def sse_response(body_parts, status=200):
    async def gen():
        for part in body_parts:
            if part is None:
                raise RuntimeError("dropped on purpose")
            yield part
            await asyncio.sleep(0.01)

    return StreamingResponse(gen(), status_code=status, media_type="text/event-stream")


async def sse_route(request: Request) -> Response:
    """scenario=drop: first connection sends retry 50 ms and events 1, 2 then drops; a reconnect carrying
    Last-Event-ID: 2 gets event 3 and a clean end. scenario=parse: one stream with every line-end kind, a BOM,
    comments, multi-line data, an event type, an id holding NUL (ignored). scenario=json: data is JSON."""
    scenario = request.query_params.get("scenario", "parse")
    last = request.headers.get("last-event-id")
    STATE["sse_connects"].append(last)
    if scenario == "drop":
        if last is None:
            return sse_response([b"retry: 50\n\n", b"id: 1\ndata: a\n\n", b"id: 2\ndata: b\n\n", None])
        return sse_response([f"id: 3\ndata: c after {last}\n\n".encode()])
    if scenario == "stop":
        if last is None:
            return sse_response([b"retry: 10\nid: 9\ndata: only\n\n", None])
        return Response(status_code=204)
    if scenario == "gated":  # the second event is held until the client has seen the first and asks for more
        gate = GATES.setdefault(request.query_params["token"], asyncio.Event())

        async def gated():
            yield b"id: 1\ndata: first\n\n"
            try:
                await asyncio.wait_for(gate.wait(), 10)
                yield b"id: 2\ndata: second\n\n"
            except asyncio.TimeoutError:
                yield b"data: never released\n\n"

        return StreamingResponse(gated(), media_type="text/event-stream")
    if scenario == "json":
        return sse_response([b'data: {"x": 1}\n\n', b'event: tick\ndata: {"x": 2}\n\n'])
    return sse_response([
        b"\xef\xbb\xbf: a comment\r\n",
        b"data: one\r\ndata: two\r\n\r\n",
        b"event: custom\rdata:three\r\r",
        b"id: 5\ndata\n\n",
        b"id: bad\x00id\ndata: four\n\n",
        b"data: incomplete at the end",
    ])


async def release(request: Request) -> Response:
    GATES.setdefault(request.query_params["token"], asyncio.Event()).set()
    return JSONResponse({"released": True})


DOCUMENT = {"user": {"id": 7, "name": "Alice Johnson"}, "items": [{"i": i, "tag": "x" * (i % 7)} for i in range(500)]}


async def zstd_route(request: Request) -> Response:
    body = zstandard.ZstdCompressor(write_checksum=True).compress(json.dumps(DOCUMENT).encode())

    async def pieces():  # small pieces: the client's decoder sees a frame cut anywhere
        for i in range(0, len(body), 100):
            yield body[i:i + 100]

    return StreamingResponse(pieces(), media_type="application/json", headers={"Content-Encoding": "zstd"})


async def login(request: Request) -> Response:
    response = RedirectResponse("/account", status_code=303)
    response.set_cookie("session", "s1", httponly=True, samesite="lax")
    response.set_cookie("narrow", "n1", path="/elsewhere")
    return response


async def logout(request: Request) -> Response:
    response = RedirectResponse("/account", status_code=302)
    response.delete_cookie("session")
    return response


async def account(request: Request) -> Response:
    return JSONResponse({"cookies": dict(request.cookies), "method": request.method})


async def status_route(request: Request) -> Response:
    return Response(b"no", status_code=int(request.path_params["code"]))


async def reject(request: Request) -> Response:
    return Response(b"too large", status_code=413, headers={"Connection": "close"})


async def asgi_wrapper(scope, receive, send):
    if scope["type"] == "http" and scope["path"] == "/cut":
        return await cut(scope, receive, send)
    return await starlette_app(scope, receive, send)


starlette_app = Starlette(routes=[
    Route("/ndjson", ndjson),
    Route("/endless", endless),
    Route("/peer", peer),
    Route("/stats", stats),
    Route("/upload", upload, methods=["POST", "PUT"]),
    Route("/echo-body", echo_body, methods=["POST"]),
    Route("/sse", sse_route),
    Route("/status/{code:int}", status_route),
    Route("/reject", reject, methods=["POST"]),
    Route("/moved/{code:int}", moved, methods=["POST", "PUT"]),
    Route("/release", release),
    Route("/zstd", zstd_route),
    Route("/login", login, methods=["POST"]),
    Route("/logout", logout),
    Route("/account", account),
])
app = asgi_wrapper
