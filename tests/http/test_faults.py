"""tests/http/test_faults.py: issue 5's fault injection: every misbehaviour of a plain-HTTP server ends in the named
boltwire exception within its time bound, on HTTPClient and on SyncHTTPClient, and the same client then makes a
normal request successfully. The server side is tests/http/fault_server.py, whose bytes test_fault_server.py
checks on raw sockets.

Expectations:
    PROTOCOL  a malformed, cut or reset response: HTTPTransportError, and NOT HTTPTimeoutError (the client must
              see the fault in the bytes or the close, not wait for a clock; its total timeout is far away)
    TIMEOUT   HTTPTimeoutError, from the timeout that the case sets
    CONNECT   HTTPConnectionError (refused, unresolvable)
    ANY       HTTPTransportError of any kind (a flood of 100 Continue may end by a 1xx limit or by the timeout)
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from dataclasses import dataclass, field

import pytest

import boltwire

from _local_server import PAYLOAD, LocalServer
from boltwire import HTTPClient, HTTPConnectionError, HTTPTimeoutError, HTTPTransportError, SyncHTTPClient

# A 64-byte label cannot be encoded in a DNS query, so getaddrinfo fails locally: no packet leaves the
# machine (a plain .invalid name would still be sent to the configured resolver, which is not loopback).
UNRESOLVABLE_HOST = "a" * 64 + ".invalid"

PROTOCOL, TIMEOUT, CONNECT, ANY = "protocol", "timeout", "connect", "any"
FAR = 10.0  # a total timeout that a PROTOCOL case must never need
MIB = 1 << 20


@dataclass(frozen=True)
class Fault:
    name: str  # fault_server scenario, or "refused" / "dns"
    expect: str
    client: dict = field(default_factory=lambda: {"timeout": FAR})
    bound: float = 5.0  # seconds within which the exception must arrive
    method: str = "GET"
    body: bytes | None = None


def protocol(name: str, **client) -> Fault:
    return Fault(name, PROTOCOL, {"timeout": FAR, **client})


FAULTS = [
    Fault("refused", CONNECT),
    Fault("dns", CONNECT, bound=FAR),
    # closes and resets
    protocol("close-before-status"),
    protocol("close-in-status-line"),
    protocol("close-in-headers"),
    protocol("close-after-headers"),
    protocol("close-in-body"),
    protocol("reset-before-status"),
    protocol("reset-in-body"),
    # not HTTP
    protocol("garbage"),
    protocol("garbage-then-silence"),
    protocol("bad-version"),
    # status line
    protocol("status-not-digits"),
    protocol("status-four-digits"),
    protocol("status-below-100"),
    protocol("status-line-too-long"),
    # header lines
    protocol("header-line-too-long"),
    protocol("too-many-headers"),
    protocol("header-no-colon"),
    protocol("header-obs-fold"),
    protocol("header-nul"),
    protocol("header-space-before-colon"),
    # chunked framing
    protocol("bad-chunk-size"),
    protocol("chunk-size-overflow"),
    protocol("chunk-missing-crlf"),
    protocol("chunked-cut-short"),
    protocol("chunked-no-last-chunk"),
    protocol("bad-trailers"),
    protocol("trailers-cut-short"),
    # Content-Length
    protocol("two-content-lengths"),
    protocol("content-length-list"),
    protocol("negative-content-length"),
    protocol("nonnumeric-content-length"),
    protocol("plus-content-length"),
    protocol("content-length-overflow"),
    protocol("te-and-content-length"),
    # size
    protocol("too-large-content-length", max_response_size=MIB),
    protocol("too-large-chunked", max_response_size=MIB),
    # time: each bound is the timeout that should fire, plus slack for a loaded machine
    Fault("drip-forever", TIMEOUT, {"timeout": 1.0, "read_timeout": FAR}, bound=3.5),
    Fault("drip-headers-forever", TIMEOUT, {"timeout": 1.0, "read_timeout": FAR}, bound=3.5),
    Fault("silent", TIMEOUT, {"timeout": 3 * FAR, "read_timeout": 0.5}, bound=3.0),
    Fault("silent-after-headers", TIMEOUT, {"timeout": 3 * FAR, "read_timeout": 0.5}, bound=3.0),
    Fault("never-reads-body", TIMEOUT, {"timeout": 3 * FAR, "write_timeout": 0.5}, bound=3.0,
          method="POST", body=b"x" * (64 * MIB)),
    # bytes that arrive while the upload is stuck are no progress of the upload
    Fault("drip-while-not-reading", TIMEOUT, {"timeout": 3 * FAR, "write_timeout": 0.5, "read_timeout": FAR},
          bound=3.0, method="POST", body=b"x" * (64 * MIB)),
    Fault("continue-flood", ANY, {"timeout": 2.0}, bound=5.0),
]
assert len(FAULTS) >= 25


def target(fault_server, fault: Fault) -> str:
    if fault.name == "refused":
        return fault_server.refused_url + "/"
    if fault.name == "dns":
        return f"http://{UNRESOLVABLE_HOST}/"
    return fault_server.url_for(fault.name)


def check_error(fault: Fault, error: BaseException, elapsed: float) -> None:
    expected = {PROTOCOL: HTTPTransportError, TIMEOUT: HTTPTimeoutError, CONNECT: HTTPConnectionError,
                ANY: HTTPTransportError}[fault.expect]
    assert isinstance(error, expected), f"{fault.name}: expected {expected.__name__}, got {error!r}"
    if fault.expect == PROTOCOL:
        assert not isinstance(error, HTTPTimeoutError), f"{fault.name}: waited for a timeout instead of failing"
    assert str(error), "the error must say what was wrong"
    assert elapsed < fault.bound, f"{fault.name}: took {elapsed:.2f}s, bound {fault.bound}s"


def check_ok(response) -> None:
    assert response.status == 200
    assert response.data == b"ok"


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_fault_sync(fault_server, fault):
    with SyncHTTPClient(**fault.client) as client:
        start = time.monotonic()
        with pytest.raises(HTTPTransportError) as info:
            if fault.body is None:
                client.request(fault.method, target(fault_server, fault))
            else:
                client.request(fault.method, target(fault_server, fault), content=fault.body)
        check_error(fault, info.value, time.monotonic() - start)
        check_ok(client.get(fault_server.url_for("ok")))  # the same client is still usable


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_fault_async(fault_server, fault):
    async def main():
        async with HTTPClient(**fault.client) as client:
            start = time.monotonic()
            with pytest.raises(HTTPTransportError) as info:
                if fault.body is None:
                    await client.request(fault.method, target(fault_server, fault))
                else:
                    await client.request(fault.method, target(fault_server, fault), content=fault.body)
            check_error(fault, info.value, time.monotonic() - start)
            check_ok(await client.get(fault_server.url_for("ok")))

    asyncio.run(main())


# -- misbehaviours whose right outcome is not an exception


def test_body_longer_than_content_length_sync(fault_server):
    # The extra bytes are a whole fake response: a client that reuses the connection would answer the next
    # request with b"smuggled".
    with SyncHTTPClient(timeout=FAR) as client:
        r = client.get(fault_server.url_for("body-longer-than-content-length"))
        assert (r.status, r.data) == (200, b"hello")
        for _ in range(3):
            check_ok(client.get(fault_server.url_for("ok")))


def test_body_longer_than_content_length_async(fault_server):
    async def main():
        async with HTTPClient(timeout=FAR) as client:
            r = await client.get(fault_server.url_for("body-longer-than-content-length"))
            assert (r.status, r.data) == (200, b"hello")
            for _ in range(3):
                check_ok(await client.get(fault_server.url_for("ok")))

    asyncio.run(main())


def test_surplus_after_a_pause_is_not_the_next_answer_sync(fault_server):
    # The extra response arrives in its own segment after the first one was read whole: the idle connection then
    # holds bytes nobody asked for. The next request follows at once (well within any "hot connection" window).
    with SyncHTTPClient(timeout=FAR) as client:
        before = fault_server.stats.sent.get("/surplus-after-pause", 0)
        r = client.get(fault_server.url_for("surplus-after-pause"))
        assert (r.status, r.data) == (200, b"hello")
        assert fault_server.wait_sent("surplus-after-pause", before + 1)
        check_ok(client.get(fault_server.url_for("ok")))


def test_surplus_after_a_pause_is_not_the_next_answer_async(fault_server):
    async def main():
        async with HTTPClient(timeout=FAR) as client:
            before = fault_server.stats.sent.get("/surplus-after-pause", 0)
            r = await client.get(fault_server.url_for("surplus-after-pause"))
            assert (r.status, r.data) == (200, b"hello")
            assert await asyncio.to_thread(fault_server.wait_sent, "surplus-after-pause", before + 1)
            check_ok(await client.get(fault_server.url_for("ok")))

    asyncio.run(main())


@pytest.mark.parametrize("into", ["file", "memory"])
def test_download_longer_than_content_length_sync(fault_server, tmp_path, into):
    # A download takes the body's tail straight from the socket (exactly the bytes the length promised): the
    # whole extra response behind it must not stay there for the next request.
    dest = tmp_path / "d.bin" if into == "file" else None
    with SyncHTTPClient(timeout=FAR) as client:
        r = client.download(fault_server.url_for("download-longer-than-content-length"), dest)
        data = dest.read_bytes() if into == "file" else r.data
        assert data == b"d" * (1 << 20)
        for _ in range(3):
            check_ok(client.get(fault_server.url_for("ok")))


@pytest.mark.parametrize("into", ["file", "memory"])
def test_download_longer_than_content_length_async(fault_server, tmp_path, into):
    dest = tmp_path / "d.bin" if into == "file" else None

    async def main():
        async with HTTPClient(timeout=FAR) as client:
            r = await client.download(fault_server.url_for("download-longer-than-content-length"), dest)
            data = dest.read_bytes() if into == "file" else r.data
            assert data == b"d" * (1 << 20)
            for _ in range(3):
                check_ok(await client.get(fault_server.url_for("ok")))

    asyncio.run(main())


def test_post_after_an_answer_that_came_with_fin_sync(fault_server):
    # The FIN arrived with the answer: the connection was over before the POST, which must go on a new one (it
    # cannot be resent once it went out on a connection that may have read it).
    with SyncHTTPClient(timeout=FAR) as client:
        check_ok(client.get(fault_server.url_for("ok-then-fin")))
        check_ok(client.post(fault_server.url_for("ok"), content=b"pay once"))


def test_post_after_an_answer_that_came_with_fin_async(fault_server):
    async def main():
        async with HTTPClient(timeout=FAR) as client:
            check_ok(await client.get(fault_server.url_for("ok-then-fin")))
            check_ok(await client.post(fault_server.url_for("ok"), content=b"pay once"))

    asyncio.run(main())


def test_post_after_a_stream_that_ended_with_fin_sync(fault_server):
    with SyncHTTPClient(timeout=FAR) as client:
        with client.stream_get(fault_server.url_for("stream-then-fin")) as stream:
            assert sum(len(chunk) for chunk in stream) == 3 * MIB
        check_ok(client.post(fault_server.url_for("ok"), content=b"pay once"))


def test_post_after_a_stream_that_ended_with_fin_async(fault_server):
    # The FIN arrives while the stream waits for its consumer (nothing is read then); the rest of the body is read
    # when the consumer asks for more, and the connection must not be pooled after it.
    async def main():
        async with HTTPClient(timeout=FAR) as client:
            async with client.stream_get(fault_server.url_for("stream-then-fin")) as stream:
                assert sum([len(chunk) async for chunk in stream]) == 3 * MIB
            check_ok(await client.post(fault_server.url_for("ok"), content=b"pay once"))

    asyncio.run(main())


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_download_over_tls_longer_than_content_length(kind):
    # On https the body's tail and the extra response share TLS records: a download that reads exactly the body
    # leaves the rest decrypted (or still encrypted) inside the TLS session, where no socket peek sees it.
    with LocalServer(tls=True) as server:
        tls = {"root_certificates": [server.ca_pem], "tls_built_in_root_certs": False, "timeout": FAR}
        if kind == "sync":
            with SyncHTTPClient(base_url=server.url, **tls) as client:
                assert client.download("/surplus").data == b"s" * MIB
                second = client.get("/json")
        else:
            async def main():
                async with HTTPClient(base_url=server.url, **tls) as client:
                    assert (await client.download("/surplus")).data == b"s" * MIB
                    return await client.get("/json")

            second = asyncio.run(main())
    assert second.status == 200 and second.data == PAYLOAD


@pytest.mark.parametrize("name, data", [("ok-close", b"ok"), ("close-delimited", b"hello"), ("early-hints", b"ok")])
def test_well_formed_edges_both_clients(fault_server, name, data):
    with SyncHTTPClient(timeout=FAR) as client:
        r = client.get(fault_server.url_for(name))
        assert (r.status, r.data) == (200, data)
        check_ok(client.get(fault_server.url_for("ok")))

    async def main():
        async with HTTPClient(timeout=FAR) as client:
            r = await client.get(fault_server.url_for(name))
            assert (r.status, r.data) == (200, data)
            check_ok(await client.get(fault_server.url_for("ok")))

    asyncio.run(main())


FLAKY_REQUESTS = 60
IDLE_PAUSE = 0.15  # longer than the server's idle-close window (fault_server.IDLE_CLOSE)


def test_idle_keepalive_closed_at_random_sync(fault_server):
    rng = random.Random(11)
    before = fault_server.stats.connections
    with SyncHTTPClient(timeout=FAR) as client:
        for _ in range(FLAKY_REQUESTS):
            check_ok(client.get(fault_server.url_for("flaky-keepalive")))
            if rng.random() < 0.5:
                time.sleep(IDLE_PAUSE)  # the server may close the idle connection meanwhile
    assert fault_server.stats.connections - before > 1  # connections were closed under the client


def test_idle_keepalive_closed_at_random_async(fault_server):
    async def main():
        rng = random.Random(12)
        async with HTTPClient(timeout=FAR) as client:
            for _ in range(FLAKY_REQUESTS):
                check_ok(await client.get(fault_server.url_for("flaky-keepalive")))
                if rng.random() < 0.5:
                    await asyncio.sleep(IDLE_PAUSE)

    before = fault_server.stats.connections
    asyncio.run(main())
    assert fault_server.stats.connections - before > 1


def test_cancellation_storm_async(fault_server):
    """1,000 requests, half cancelled at random moments, then 1,000 more that must all succeed: with a pool of
    20 connections and pool_timeout=5, a slot leaked by a cancelled request would make the second wave fail."""

    async def main():
        rng = random.Random(13)
        loop = asyncio.get_running_loop()
        url = fault_server.url_for("delay")
        async with HTTPClient(timeout=FAR, max_connections=20, pool_timeout=5.0) as client:
            tasks = [asyncio.ensure_future(client.get(url)) for _ in range(1000)]
            for task in rng.sample(tasks, 500):
                loop.call_later(rng.uniform(0, 0.3), task.cancel)
            results = await asyncio.gather(*tasks, return_exceptions=True)
            cancelled = sum(isinstance(r, asyncio.CancelledError) for r in results)
            done = [r for r in results if not isinstance(r, BaseException)]
            errors = [r for r in results if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
            assert not errors, errors[:3]
            assert cancelled > 0 and len(done) + cancelled == 1000
            for r in done:
                check_ok(r)
            second = await asyncio.wait_for(asyncio.gather(*(client.get(url) for _ in range(1000))), 60)
            for r in second:
                check_ok(r)

    start = time.monotonic()
    asyncio.run(main())
    assert time.monotonic() - start < 60


def test_timeout_storm_sync(fault_server):
    """The blocking analogue of cancellation: 8 threads share one client (4 connections, pool_timeout=5) and
    abort requests at random with tiny per-request timeouts; then every normal request must succeed."""
    url = fault_server.url_for("delay")
    outcomes: list[str] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    with SyncHTTPClient(timeout=FAR, max_connections=4, pool_timeout=5.0) as client:

        def storm(seed: int) -> None:
            rng = random.Random(seed)
            for _ in range(40):
                try:
                    check_ok(client.get(url, timeout=rng.uniform(0.001, 0.03)))
                    outcome = "ok"
                except HTTPTimeoutError:
                    outcome = "timeout"
                except BaseException as e:  # noqa: BLE001 - reported below
                    with lock:
                        failures.append(e)
                    return
                with lock:
                    outcomes.append(outcome)

        def calm() -> None:
            try:
                for _ in range(25):
                    check_ok(client.get(url))
            except BaseException as e:  # noqa: BLE001
                with lock:
                    failures.append(e)

        for work in ([lambda i=i: storm(100 + i) for i in range(8)], [calm] * 8):
            threads = [threading.Thread(target=w) for w in work]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert not any(t.is_alive() for t in threads), "a request hung"
            assert not failures, failures[:3]
    assert "timeout" in outcomes and "ok" in outcomes
