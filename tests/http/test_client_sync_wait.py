"""The blocking client waits for a response inside its read (one recv with a receive timeout, no poll): after the
first wait a connection's socket is in blocking mode, so every other read and write on it must stay non-blocking,
and the waits must still honour the deadlines and Ctrl-C. Each test first makes a request so that the connection
it then uses is such a switched one (the pool reuses it: the stats show one connection)."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from _local_server import LocalServer
from boltwire import HTTPTimeoutError, SyncHTTPClient


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def warm(client):
    """One request, so that the pooled connection has waited in its read once."""
    assert client.get("/json").status == 200
    assert client._stats() == (1, 1)


def test_response_slower_than_several_wait_slices(server):
    # The wait is sliced (100 ms, for Ctrl-C): a 450 ms answer takes several waits on the same read.
    with SyncHTTPClient(base_url=server.url, timeout=5) as client:
        warm(client)
        start = time.monotonic()
        r = client.get("/slow?ms=450")
        assert r.status == 200 and len(r.data) == 523
        assert time.monotonic() - start >= 0.4
        assert client._stats() == (1, 1)


def test_body_arriving_byte_by_byte(server):
    with SyncHTTPClient(base_url=server.url, timeout=5) as client:
        warm(client)
        r = client.get("/drip?n=8&ms=30")
        assert r.data == b"x" * 8
        assert client._stats() == (1, 1)


def test_short_deadline_then_long_waits_on_the_same_connection(server):
    # A request with little time left shrinks the socket's receive timeout; later requests without a deadline
    # still wait as long as the answer takes.
    with SyncHTTPClient(base_url=server.url) as client:
        warm(client)
        assert client.get("/json", timeout=0.03).status == 200
        assert client.get("/slow?ms=300").status == 200
        assert client.get("/slow?ms=20", timeout=2).status == 200
        assert client._stats() == (1, 1)


def test_read_timeout_on_a_reused_connection(server):
    with SyncHTTPClient(base_url=server.url, read_timeout=0.25) as client:
        warm(client)
        start = time.monotonic()
        with pytest.raises(HTTPTimeoutError) as info:
            client.get("/hang")
        elapsed = time.monotonic() - start
        assert info.value.kind == "read"
        assert 0.2 <= elapsed < 2
        assert client._stats() == (0, 0)


def test_total_timeout_on_a_reused_connection(server):
    with SyncHTTPClient(base_url=server.url) as client:
        warm(client)
        start = time.monotonic()
        with pytest.raises(HTTPTimeoutError) as info:
            client.get("/drip?n=100&ms=40", timeout=0.3)
        assert info.value.kind == "total"
        assert 0.25 <= time.monotonic() - start < 2


def test_write_timeout_on_a_reused_connection(server):
    # The socket is in blocking mode now: a send that blocked would hang here instead of timing out.
    body = b"x" * (32 * 1024 * 1024)
    with SyncHTTPClient(base_url=server.url, write_timeout=0.2) as client:
        warm(client)
        start = time.monotonic()
        with pytest.raises(HTTPTimeoutError) as info:
            client.post("/noread", content=body)
        assert info.value.kind == "write"
        assert time.monotonic() - start < 5


def test_early_413_to_a_large_upload_on_a_reused_connection(server):
    with SyncHTTPClient(base_url=server.url, timeout=20) as client:
        warm(client)
        r = client.post("/reject", content=b"x" * (20 * 1024 * 1024), error_for_status=False)
        assert r.status == 413
        assert r.data == b'"too large"'


def test_ctrl_c_during_a_wait_on_a_reused_connection(server, sigint_raises):
    with SyncHTTPClient(base_url=server.url, timeout=None) as client:
        warm(client)
        timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            client.get("/hang")
        assert time.monotonic() - start < 2
        timer.join()
        assert client._stats() == (0, 0)
        assert client.get("/json").status == 200


def test_a_signal_whose_handler_returns_does_not_end_the_wait(server):
    # The wait comes back early on the signal, runs the handler, and waits again.
    seen = []
    previous = signal.signal(signal.SIGUSR1, lambda *a: seen.append(1))
    try:
        with SyncHTTPClient(base_url=server.url, timeout=5) as client:
            warm(client)
            timer = threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGUSR1))
            timer.start()
            r = client.get("/slow?ms=400")
            timer.join()
            assert r.status == 200 and len(r.data) == 523
            assert seen == [1]
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_many_threads_share_one_client(server):
    # Connections move between threads through the pool; each thread's waits use its own reads.
    errors = []
    with SyncHTTPClient(base_url=server.url, timeout=10) as client:
        warm(client)

        def work():
            try:
                for i in range(30):
                    r = client.get(f"/echo?i={i}")
                    assert r.status == 200 and f"i={i}".encode() in r.data
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    assert errors == []
