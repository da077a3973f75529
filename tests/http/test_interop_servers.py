"""Both clients against servers nobody here wrote: uvicorn, hypercorn, gunicorn, aiohttp.web and the stdlib's
http.server, each serving the same small app (interop_apps.py) from its own process on a loopback port.

Each case is a bug first seen against one of these servers: an early 413 to a large upload, more than 100 response
header fields, UTF-8 header values, query params with a fragment, dot segments, credentials in the URL."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boltwire import HTTPClient, SyncHTTPClient

HERE = Path(__file__).resolve().parent

SERVERS = {
    "uvicorn": ["-m", "uvicorn", "interop_apps:asgi_app", "--host", "127.0.0.1", "--port", "{port}",
                "--log-level", "warning", "--no-access-log"],
    "hypercorn": ["-m", "hypercorn", "interop_apps:asgi_app", "--bind", "127.0.0.1:{port}", "--log-level", "warning"],
    "gunicorn": ["-m", "gunicorn", "--bind", "127.0.0.1:{port}", "--workers", "1", "--threads", "4",
                 "--log-level", "warning", "interop_apps:wsgi_app"],
    "aiohttp": ["-m", "aiohttp.web", "-H", "127.0.0.1", "-P", "{port}", "interop_apps:aiohttp_app"],
    "http.server": ["interop_apps.py", "{port}"],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, process: subprocess.Popen, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {process.stderr.read().decode()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"server did not listen on {port} within {seconds} s")


@pytest.fixture(scope="module", params=sorted(SERVERS))
def server(request):
    port = free_port()
    args = [sys.executable, *[a.format(port=port) for a in SERVERS[request.param]]]
    env = {**os.environ, "PYTHONPATH": str(HERE) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    process = subprocess.Popen(args, cwd=HERE, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_listening(port, process)
        yield request.param, f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def header(doc: dict, name: str) -> str | None:
    for k, v in doc["headers"]:
        if k.lower() == name:
            return v
    return None


def test_plain_get_and_json_post(server):
    _, url = server
    with SyncHTTPClient(base_url=url) as client:
        r = client.get("/echo", response_data_type=dict)
        assert r.data["method"] == "GET" and r.data["path"] == "/echo"
        r = client.post("/echo", json={"a": 1}, response_data_type=dict)
        assert r.data["body_size"] == len(b'{"a":1}')

    async def main():
        async with HTTPClient(base_url=url) as client:
            rs = await asyncio.gather(*[client.get(f"/echo?i={i}", response_data_type=dict) for i in range(40)])
            return [r.data["query"] for r in rs]

    assert asyncio.run(main()) == [f"i={i}" for i in range(40)]


def test_early_413_to_a_20_mb_upload(server):
    _, url = server
    big = b"x" * (20 << 20)
    with SyncHTTPClient(base_url=url, timeout=30) as client:
        r = client.post("/reject", content=big, error_for_status=False)
        assert r.status == 413 and r.data == b'"too large"'
        assert client.get("/echo").status == 200  # the client recovers on a new connection

    async def main():
        async with HTTPClient(base_url=url, timeout=30) as client:
            r = await client.post("/reject", content=big, error_for_status=False)
            return r.status, r.data, (await client.get("/echo")).status

    assert asyncio.run(main()) == (413, b'"too large"', 200)


def test_more_than_100_header_fields(server):
    _, url = server
    with SyncHTTPClient(base_url=url) as client:
        r = client.get("/many-headers?n=150")
    assert r.headers["X-H149"] == "149"


def test_utf8_header_values(server):
    name, url = server
    with SyncHTTPClient(base_url=url) as client:
        r = client.get("/utf8")
    assert r.headers["X-Name"] == "café"


def test_params_with_a_fragment_and_dot_segments(server):
    _, url = server
    with SyncHTTPClient(base_url=url + "/api/v1") as client:
        r = client.get("../../echo#frag", params={"y": "2"}, response_data_type=dict)
    assert r.data["path"] == "/echo"
    assert r.data["query"] == "y=2"


def test_credentials_in_the_url_are_sent_as_basic_auth(server):
    _, url = server
    with SyncHTTPClient() as client:
        r = client.get(url.replace("http://", "http://user:p%40ss@") + "/echo", response_data_type=dict)
    assert header(r.data, "authorization") == "Basic " + base64.b64encode(b"user:p@ss").decode()
    assert "@" not in header(r.data, "host")
