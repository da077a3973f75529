"""Defaults a user should not trip over: connection limits under a low fd limit, generous header limits, and
non-ASCII header values."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap

import pytest

from _local_server import LocalServer
from boltwire import HTTPClient, SyncHTTPClient
from boltwire.http import HTTPTransportError
from boltwire.http._client import DEFAULT_MAX_CONNECTIONS_PER_HOST, _default_max_connections


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def test_default_limits_follow_the_fd_limit():
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert DEFAULT_MAX_CONNECTIONS_PER_HOST == 100
    assert _default_max_connections() < soft or soft == resource.RLIM_INFINITY


def test_2000_concurrent_requests_under_a_low_fd_limit(nginx):
    # With no limits given, 2000 concurrent GETs queue for connections instead of failing with EMFILE.
    script = textwrap.dedent(
        """
        import asyncio, resource, sys
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        from boltwire import HTTPClient

        async def main():
            async with HTTPClient(base_url=sys.argv[1]) as client:
                rs = await asyncio.gather(*[client.get("/") for _ in range(2000)])
                print(sum(r.status == 200 for r in rs), client._stats()[0])

        asyncio.run(asyncio.wait_for(main(), 60))
        """
    )
    done = subprocess.run([sys.executable, "-c", script, nginx.url], capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    ok, connections = map(int, done.stdout.split())
    assert ok == 2000
    assert connections <= 100


def test_more_than_100_header_fields(server):
    with SyncHTTPClient(base_url=server.url) as client:
        r = client.get("/many-headers?n=200")
        assert r.headers["X-H199"] == "199"
    with SyncHTTPClient(base_url=server.url, max_response_headers=50) as client:
        with pytest.raises(HTTPTransportError, match="header"):
            client.get("/many-headers?n=60")
    with pytest.raises(ValueError):
        SyncHTTPClient(max_response_headers=0)


def test_non_ascii_header_values(server):
    async def main():
        async with HTTPClient(base_url=server.url) as client:
            return await client.get("/non-ascii-headers")

    with SyncHTTPClient(base_url=server.url) as client:
        sync = client.get("/non-ascii-headers")
    for r in (asyncio.run(main()), sync):
        assert r.headers["X-Utf8"] == "café"  # UTF-8 on the wire
        assert r.headers["X-Latin1"] == "café"  # not valid UTF-8: read as Latin-1
