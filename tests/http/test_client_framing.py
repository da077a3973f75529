"""Response framing end to end: large and chunked bodies, HTTP/1.0 close-delimited, 1xx, 204, truncated bodies."""

from __future__ import annotations

import asyncio

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient, HTTPConnectionError, SyncHTTPClient


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def fetch(server, mode, path, **kwargs):
    if mode == "sync":
        with SyncHTTPClient(base_url=server.url) as client:
            r = client.get(path, **kwargs)
            return r, client._stats()

    async def main():
        async with HTTPClient(base_url=server.url) as client:
            r = await client.get(path, **kwargs)
            await asyncio.sleep(0.02)
            return r, client._stats()

    return asyncio.run(asyncio.wait_for(main(), 20))


MODES = ["sync", "async"]


@pytest.mark.parametrize("mode", MODES)
def test_large_body(server, mode):
    n = 5_000_003
    r, stats = fetch(server, mode, f"/big?n={n}")
    assert len(r.data) == n
    assert r.data[:256] == bytes(range(256)) and r.data.endswith(b"z" * (n % 256))
    assert stats == (1, 1)


@pytest.mark.parametrize("mode", MODES)
def test_large_chunked_body(server, mode):
    r, stats = fetch(server, mode, "/bigchunked?n=300&size=7001")
    assert r.data == b"c" * (300 * 7001)
    assert stats == (1, 1)


@pytest.mark.parametrize("mode", MODES)
def test_http10_close_delimited(server, mode):
    r, stats = fetch(server, mode, "/http10")
    assert r.http_version == "HTTP/1.0"
    assert r.data == b"until close"
    assert stats == (0, 0)  # not reusable


@pytest.mark.parametrize("mode", MODES)
def test_interim_responses_skipped(server, mode):
    r, _ = fetch(server, mode, "/interim")
    assert r.status == 201 and r.data == b"made"
    assert "link" not in r.headers


@pytest.mark.parametrize("mode", MODES)
def test_no_content(server, mode):
    r, stats = fetch(server, mode, "/nocontent")
    assert r.status == 204 and r.data == b"" and r.headers["x-a"] == "1"
    assert stats == (1, 1)


@pytest.mark.parametrize("mode", MODES)
def test_truncated_body_is_a_connection_error(server, mode):
    with pytest.raises(HTTPConnectionError, match="closed"):
        fetch(server, mode, "/truncated")
