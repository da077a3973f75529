"""tests/http/test_fault_server.py: the fault server sends exactly the bytes each scenario promises, ends each
connection the way it says (FIN, RST, silence, keep-alive), and keeps every time bound. Raw sockets only, so
these checks run whether or not boltwire's HTTP client exists; test_faults.py builds on them."""

from __future__ import annotations

import socket
import time

import pytest
from fault_server import DELAY, FLAKY, MAX_DELAY, OK, SCENARIOS, Drip, FaultServer, Repeat

QUIET = 0.3  # seconds of silence that count as "stays open, sends nothing more"


def connect(server: FaultServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def request(path: str, body: bytes = b"", method: str = "GET") -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: test\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    return head + body


def read_exactly(sock: socket.socket, n: int, timeout: float = 5.0) -> bytes:
    sock.settimeout(timeout)
    out = bytearray()
    while len(out) < n:
        data = sock.recv(min(1 << 20, n - len(out)))
        if not data:
            break
        out += data
    return bytes(out)


def ending(sock: socket.socket, wait: float = QUIET) -> tuple[str, bytes]:
    """What happens next on the socket within `wait`: ('close', b''), ('reset', b''), ('open', b'') or
    ('data', first bytes)."""
    sock.settimeout(wait)
    try:
        data = sock.recv(65536)
    except socket.timeout:
        return "open", b""
    except ConnectionResetError:
        return "reset", b""
    return ("close", b"") if not data else ("data", data)


FIXED = [s for s in SCENARIOS.values() if s.read_body and not any(isinstance(x, Repeat) for x in s.steps)]


@pytest.mark.parametrize("scenario", FIXED, ids=[s.name for s in FIXED])
def test_scenario_sends_promised_bytes_and_ends_as_promised(fault_server, scenario):
    expected, end = scenario.promised()
    with connect(fault_server) as sock:
        sock.sendall(request(scenario.path))
        if end == "reset":
            # Linux delivers the bytes that arrived before the RST, then ECONNRESET.
            got = bytearray()
            with pytest.raises(ConnectionResetError):
                sock.settimeout(5)
                while True:
                    data = sock.recv(65536)
                    assert data, "FIN where an RST was promised"
                    got += data
            assert bytes(got) == expected
            return
        got = read_exactly(sock, len(expected))
        assert got == expected
        what, extra = ending(sock)
        if end == "close":
            assert (what, extra) == ("close", b"")
        elif end == "open":
            is_drip = any(isinstance(x, Drip) and x.forever for x in scenario.steps)
            if is_drip:
                assert what == "data" and set(extra) <= set(scenario.steps[-1].data)  # the drip goes on
            else:
                assert (what, extra) == ("open", b"")  # silent, and not closed
        else:
            assert end == "keep-alive" and what == "open"
            sock.sendall(request("/ok"))
            assert read_exactly(sock, len(OK)) == OK


def test_every_issue5_misbehaviour_has_a_scenario():
    wanted = [
        "close-before-status", "close-in-headers", "close-in-body", "reset-before-status", "garbage",
        "status-not-digits", "status-line-too-long", "header-line-too-long", "too-many-headers", "bad-chunk-size",
        "chunked-cut-short", "bad-trailers", "two-content-lengths", "negative-content-length",
        "nonnumeric-content-length", "body-longer-than-content-length", "te-and-content-length", "drip-forever",
        "silent", "never-reads-body", "continue-flood", "too-large-content-length", FLAKY, DELAY,
    ]
    missing = [w for w in wanted if w not in SCENARIOS and w not in (FLAKY, DELAY)]
    assert not missing
    assert len(SCENARIOS) >= 25
    for s in SCENARIOS.values():
        assert s.doc and s.path == "/" + s.name


def test_sizes_are_past_the_limits_they_probe():
    status, _ = SCENARIOS["status-line-too-long"].promised()
    assert len(status.split(b"\r\n", 1)[0]) > 1 << 20
    header, _ = SCENARIOS["header-line-too-long"].promised()
    assert max(len(line) for line in header.split(b"\r\n")) > 1 << 20
    many, _ = SCENARIOS["too-many-headers"].promised()
    assert many.count(b"\r\nX-H-") == 20_000
    for name in ("too-large-content-length", "too-large-chunked"):
        body, _ = SCENARIOS[name].promised()
        assert len(body) > 10 << 20


def test_drip_keeps_its_pace(fault_server):
    with connect(fault_server) as sock:
        sock.sendall(request("/drip-forever"))
        head, _ = SCENARIOS["drip-forever"].promised()
        assert read_exactly(sock, len(head)) == head
        sock.settimeout(0.2)
        got, start = b"", time.monotonic()
        while time.monotonic() - start < 1.0:
            try:
                got += sock.recv(100)
            except socket.timeout:
                pass
        # one byte per 50 ms: ~20 in a second; a loaded machine sends fewer, never a burst
        assert got == b"x" * len(got) and 5 <= len(got) <= 22


def test_drip_headers_never_ends_the_head(fault_server):
    with connect(fault_server) as sock:
        sock.sendall(request("/drip-headers-forever"))
        time.sleep(0.5)
        sock.settimeout(1)
        got = sock.recv(65536)
        assert got.startswith(b"HTTP/1.1 200 OK\r\nX-Slow: a") and b"\r\n\r\n" not in got


def test_continue_flood_is_only_100_continue(fault_server):
    message = b"HTTP/1.1 100 Continue\r\n\r\n"
    with connect(fault_server) as sock:
        sock.sendall(request("/continue-flood"))
        got = read_exactly(sock, len(message) * 20_000)
        assert got == message * 20_000


def test_never_reads_body_blocks_the_writer(fault_server):
    body_size = 64 << 20
    with connect(fault_server) as sock:
        sock.sendall(f"POST /never-reads-body HTTP/1.1\r\nHost: t\r\nContent-Length: {body_size}\r\n\r\n".encode())
        sock.setblocking(False)
        chunk, sent, start = b"y" * (256 << 10), 0, time.monotonic()
        while time.monotonic() - start < 1.0 and sent < body_size:
            try:
                sent += sock.send(chunk)
            except BlockingIOError:
                time.sleep(0.01)
        assert sent < body_size // 4  # it stopped accepting long before the end
        sock.settimeout(QUIET)
        with pytest.raises(socket.timeout):
            sock.recv(1)  # and it answers nothing


def test_refused_url_refuses(fault_server):
    port = int(fault_server.refused_url.rsplit(":", 1)[1])
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_unknown_path_is_404_with_keep_alive(fault_server):
    with connect(fault_server) as sock:
        sock.sendall(request("/no-such-scenario") + request("/ok"))
        not_found = b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found"
        assert read_exactly(sock, len(not_found) + len(OK)) == not_found + OK


def test_request_body_is_read_before_the_answer(fault_server):
    with connect(fault_server) as sock:
        body = b"b" * 300_000
        sock.sendall(request("/ok", body, "POST") + request("/ok"))
        assert read_exactly(sock, 2 * len(OK)) == OK * 2


def test_delay_answers_within_its_bound(fault_server):
    with connect(fault_server) as sock:
        for _ in range(20):
            start = time.monotonic()
            sock.sendall(request("/" + DELAY))
            assert read_exactly(sock, len(OK)) == OK
            assert time.monotonic() - start < MAX_DELAY + 0.5


def test_flaky_keepalive_closes_some_idle_connections_and_serves_prompt_requests(fault_server):
    outcomes = []
    for _ in range(30):
        with connect(fault_server) as sock:
            sock.sendall(request("/" + FLAKY))
            assert read_exactly(sock, len(OK)) == OK
            outcomes.append(ending(sock, 0.2)[0])  # idle for longer than the server's close window
    assert set(outcomes) == {"open", "close"}  # p=0.5 each: both show up (odds of not: 2**-29)
    with connect(fault_server) as sock:  # a request sent right after the answer is always served
        for _ in range(50):
            sock.sendall(request("/" + FLAKY))
            assert read_exactly(sock, len(OK)) == OK


def test_stop_closes_open_connections_and_the_port():
    server = FaultServer().start()
    port = server.port
    sock = connect(server)
    sock.sendall(request("/silent"))
    assert ending(sock)[0] == "open"
    start = time.monotonic()
    server.stop()
    assert time.monotonic() - start < 5
    assert ending(sock, 2)[0] in ("close", "reset")
    sock.close()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
