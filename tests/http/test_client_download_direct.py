"""download() without a progress callback: the transport puts the body straight into its target (Stream.receive_into,
csrc/http/engine/body_direct.hpp): a file (splice(2) on plain http, written from the read buffer on https or when
a coding is undone) or one bytes object made for the Content-Length; against nginx (plain and TLS) and uvicorn."""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from boltwire import HTTPClient, SyncHTTPClient
from boltwire.http import HTTPTransportError
from nginx_server import chunked_body, payload

SIZE = 9 << 20  # past the prefault threshold (4 MiB) of the memory target, and many pipe loads


@pytest.fixture(scope="module")
def large(nginx):
    """A 9 MiB random file served by the session's nginx: (url, bytes)."""
    body = os.urandom(SIZE)
    return serve(nginx, "direct-large.bin", body), body


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def serve(nginx, name: str, body: bytes) -> str:
    """`body` served by the session's nginx as `name`: its URL."""
    path = nginx.prefix / "www" / name
    path.write_bytes(body)
    os.chmod(path, 0o644)
    return nginx.url + "/" + name


# For the fork tests' child scripts: forks, the child closes its copy of `stream` and exits; the parent waits up to
# 10 s for it and fails the script if it hung.
CLOSE_IN_A_CHILD = textwrap.dedent("""
    import os, sys, time
    def close_in_a_child(stream):
        pid = os.fork()
        if pid == 0:
            stream.close()
            os._exit(0)
        deadline = time.monotonic() + 10
        while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        if done[0] == 0:
            os.kill(pid, 9)
            sys.exit("the child hung closing its stream")
        assert done[1] == 0, done
""")


def download(kind: str, url: str, dest=None, **client_options):
    """client.download(url, dest) on a fresh sync or async client."""
    if kind == "sync":
        with SyncHTTPClient(**client_options) as client:
            return client.download(url, dest)

    async def main():
        async with HTTPClient(**client_options) as client:
            return await client.download(url, dest)

    return asyncio.run(main())


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_large_download_into_a_file_is_exact(large, tmp_path, kind):
    url, body = large
    dest = tmp_path / "large.bin"
    for _ in range(2):  # the second one replaces the first
        r = download(kind, url, dest)
        assert r.status == 200 and r.data == dest
        assert hashlib.sha256(dest.read_bytes()).digest() == hashlib.sha256(body).digest()
    assert leftovers(tmp_path) == ["large.bin"]


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_large_download_into_memory_is_one_exact_bytes_object(large, kind):
    url, body = large
    r = download(kind, url)
    assert type(r.data) is bytes and len(r.data) == SIZE
    assert r.data == body
    assert r.headers["content-length"] == str(SIZE)


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_bodies_without_a_length_or_with_a_coding_take_the_piece_path(nginx, tmp_path, kind):
    assert download(kind, nginx.url + "/chunked").data == chunked_body()  # chunked: no length for one block
    dest = tmp_path / "c.bin"
    download(kind, nginx.url + "/chunked", dest)
    assert dest.read_bytes() == chunked_body()
    r = download(kind, nginx.url + "/gzipped")  # gzip: the Content-Length is not the decoded size
    assert r.headers["content-encoding"] == "gzip" and r.data == payload()
    download(kind, nginx.url + "/gzipped", dest)
    assert dest.read_bytes() == payload()
    assert download(kind, nginx.url + "/status/204").data == b""


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_https_download_into_file_and_memory(nginx_tls, tmp_path, kind):
    # TLS: no splice (the bytes must be decrypted); the file is written from the read buffer, memory is read into.
    options = {"root_certificates": [nginx_tls.ca_pem], "tls_built_in_root_certs": False}
    big = (nginx_tls.prefix / "www" / "big.bin").read_bytes()
    dest = tmp_path / "tls.bin"
    assert download(kind, nginx_tls.url + "/big", dest, **options).data == dest
    assert dest.read_bytes() == big
    assert download(kind, nginx_tls.url + "/big", **options).data == big


def test_large_https_and_chunked_downloads_into_a_file_are_exact(nginx_tls, nginx, tmp_path):
    # The file writer's byte pieces: a body that is decrypted (https, 20 MiB over HTTP/1.1, past the thread's 4 MiB)
    # or has no length (chunked: the thread starts at once) reaches the file whole and in order, for both clients.
    from nginx_tls_server import huge_body

    options = {"root_certificates": [nginx_tls.ca_pem], "tls_built_in_root_certs": False}
    huge = huge_body()
    for kind in ("sync", "async"):
        dest = tmp_path / f"{kind}-huge.bin"
        download(kind, nginx_tls.h2_url + "/huge", dest, **options)
        assert hashlib.sha256(dest.read_bytes()).digest() == hashlib.sha256(huge).digest()
        dest = tmp_path / f"{kind}-chunked.bin"
        download(kind, nginx.url + "/chunked", dest)
        assert dest.read_bytes() == chunked_body()


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_memory_download_follows_a_redirect(nginx, kind):
    r = download(kind, nginx.url + "/redirect")
    assert r.status == 200 and r.data == payload()
    assert [h.status for h in r.history] == [302]


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_body_cut_short_fails_with_no_partial_file(stream_server, tmp_path, kind):
    dest = tmp_path / "cut.bin"
    with pytest.raises(HTTPTransportError):
        download(kind, stream_server.url + "/cut?size=3000000", dest)
    with pytest.raises(HTTPTransportError):
        download(kind, stream_server.url + "/cut?size=3000000")
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("scheme", ["http", "https"])
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_file_that_cannot_grow_fails_cleanly(request, tmp_path, kind, scheme):
    # RLIMIT_FSIZE makes the transport's writes fail with EFBIG part way (SIGXFSZ ignored): a clear error, and the
    # temporary file is removed. In a child process, so the limit binds nothing else. Plain http: pipe pieces; https
    # (20 MiB over HTTP/1.1): byte pieces, both written by the file writer's thread.
    if scheme == "http":
        url, ca = request.getfixturevalue("large")[0], None
    else:
        server = request.getfixturevalue("nginx_tls")
        url, ca = server.h2_url + "/huge", str(server.ca_file)
    script = textwrap.dedent(f"""
        import asyncio, resource, signal, sys
        from pathlib import Path
        from boltwire import HTTPClient, SyncHTTPClient
        from boltwire.http import HTTPTransportError
        ca = {ca!r}
        options = {{}}
        if ca is not None:
            options = {{"root_certificates": [Path(ca).read_bytes()], "tls_built_in_root_certs": False}}
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
        dest = Path(sys.argv[1]) / "x.bin"
        async def run_async():
            async with HTTPClient(**options) as client:
                await client.download({url!r}, dest)
        try:
            if {kind!r} == "sync":
                with SyncHTTPClient(**options) as client:
                    client.download({url!r}, dest)
            else:
                asyncio.run(run_async())
        except HTTPTransportError as error:
            print("error:", error)
        else:
            print("no error")
    """)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("error:") and "cannot write the download" in done.stdout, done.stdout
    assert "File too large" in done.stdout
    assert leftovers(tmp_path) == []


def test_cancelled_async_downloads_leave_nothing_behind(nginx, tmp_path):
    # /slow sends 64 KiB/s: cancelled part way, while the transport owns the target (file or memory). The memory
    # target must not be written after it is released (a use after free would show under the leak loop / ASan).
    async def main():
        async with HTTPClient() as client:
            for dest in (tmp_path / "slow.bin", None):
                for _ in range(3):
                    task = asyncio.ensure_future(client.download(nginx.url + "/slow", dest))
                    await asyncio.sleep(0.15)
                    task.cancel()
                    with pytest.raises(asyncio.CancelledError):
                        await task
            r = await client.download(nginx.url + "/big")  # the client still works
            assert r.data == (nginx.prefix / "www" / "big.bin").read_bytes()

    asyncio.run(main())
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_memory_downloads_closed_at_once_stop_their_prefault_thread(large, kind):
    # receive_into(None) for a body of 4 MiB or more starts a thread that faults the block's pages in ahead of the
    # reads (csrc/http/engine/prefault.hpp); closing the stream must stop it before the block may be freed. Closed at
    # once (the thread is still running) and the block dropped, many times: a thread still touching freed memory
    # would crash here or show under ASan (make sanitize).
    url, body = large

    def open_and_drop(stream):
        with stream:
            block = stream._native.receive_into(None)
            assert type(block) is bytes and len(block) == SIZE

    if kind == "sync":
        with SyncHTTPClient() as client:
            for _ in range(20):
                open_and_drop(client.stream("GET", url))
            assert client.download(url).data == body
        return

    async def main():
        async with HTTPClient() as client:
            for _ in range(20):
                stream = client.stream("GET", url)
                await stream.__aenter__()
                try:
                    block = stream._native.receive_into(None)
                    assert type(block) is bytes and len(block) == SIZE
                finally:
                    await stream.__aexit__(None, None, None)
                del block
            assert (await client.download(url)).data == body

    asyncio.run(main())


def test_a_forked_child_closes_a_stream_whose_prefault_thread_it_lacks(nginx):
    # Forked right after receive_into(None): the prefault thread (which holds its mutex while it populates a step)
    # is not in the child. The child closing its copy of the stream must not wait for that thread (it would hang
    # forever); the parent's download goes on. 32 MiB: the thread runs for milliseconds, so the fork lands while it
    # holds the mutex. In a subprocess: forking pytest would duplicate the session.
    body = os.urandom(32 << 20)
    url = serve(nginx, "direct-fork.bin", body)
    script = CLOSE_IN_A_CHILD + textwrap.dedent(f"""
        import hashlib
        from boltwire import SyncHTTPClient
        with SyncHTTPClient() as client:
            for _ in range(5):
                stream = client.stream("GET", {url!r})
                with stream:
                    block = stream._native.receive_into(None)
                    close_in_a_child(stream)
                    assert list(stream._chunks()) == []
                print(hashlib.sha256(block).hexdigest())
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [hashlib.sha256(body).hexdigest()] * 5


def test_receive_into_misuse_is_refused(nginx):
    with SyncHTTPClient() as client:
        stream = client.stream("GET", nginx.url + "/big")
        with stream:
            native = stream._native
            with pytest.raises(ValueError):
                native.receive_into(-1)
            block = native.receive_into(None)
            assert type(block) is bytes and len(block) == 1 << 20
            with pytest.raises(RuntimeError):
                native.receive_into(None)  # once
            assert list(stream._chunks()) == []  # no pieces: the body went to the block
        assert block == (nginx.prefix / "www" / "big.bin").read_bytes()


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_file_download_follows_redirects(nginx, tmp_path, kind):
    # /redirect is a 302 to /: the file gets the final body, the response keeps the chain.
    dest = tmp_path / "r.json"
    r = download(kind, nginx.url + "/redirect", dest)
    assert r.status == 200 and r.data == dest and dest.read_bytes() == payload()
    assert [(h.status, h.url) for h in r.history] == [(302, nginx.url + "/redirect")]
    assert r.url == nginx.url + "/"
    assert leftovers(tmp_path) == ["r.json"]


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_download_without_following_gets_the_redirect(nginx, tmp_path, kind):
    dest = tmp_path / "r.html"
    r = download(kind, nginx.url + "/redirect", dest, follow_redirects=False)
    assert r.status == 302 and r.history == [] and b"302" in dest.read_bytes()


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_http2_download_into_file_and_memory(nginx_tls, tmp_path, kind):
    # HTTP/2 streams hand the body over per DATA frame: the file target is written from them; memory takes pieces.
    options = {"root_certificates": [nginx_tls.ca_pem], "tls_built_in_root_certs": False, "http2": True}
    big = (nginx_tls.prefix / "www" / "big.bin").read_bytes()
    dest = tmp_path / "h2.bin"
    # (Response.http_version of a stream says HTTP/1.1 even on HTTP/2: a known gap of the stream path)
    download(kind, nginx_tls.h2_url + "/big", dest, **options)
    assert dest.read_bytes() == big
    assert download(kind, nginx_tls.h2_url + "/big", **options).data == big


async def _wait_until_ended(native) -> None:
    # An armed async stream wakes its consumer at the head and at the end: wait for the end without taking anything.
    async def loop():
        while not native.ended:
            await native.wait()

    await asyncio.wait_for(loop(), 30)


def test_an_armed_file_download_is_written_without_waiting_for_python(large, tmp_path):
    # Armed with the file at open (open_stream's arm, what download() does), the engine makes the file the target at
    # the 2xx head: the whole body lands in it although receive_into is called only after the end. Unarmed, the
    # engine would stop at its 256 KiB stream buffer and never end.
    url, body = large

    async def main():
        async with HTTPClient() as client:
            with open(tmp_path / "armed.bin", "wb", buffering=0) as f:
                stream = client.stream("GET", url)
                stream._arm = f.fileno()
                async with stream:
                    native = stream._native
                    await _wait_until_ended(native)
                    assert os.fstat(f.fileno()).st_size == SIZE  # written before receive_into
                    assert native.receive_into(f.fileno()) is True  # hands out the armed target
                    with pytest.raises(RuntimeError):
                        native.receive_into(f.fileno())  # once
                    assert [chunk async for chunk in stream._chunks()] == []

    asyncio.run(main())
    assert (tmp_path / "armed.bin").read_bytes() == body


def test_an_armed_memory_download_gets_its_block_at_the_head(large):
    # Armed for memory, the async stream's bytes object is made by the drain that delivers the head, so the engine
    # goes on before any Python code runs; receive_into(None) hands that object out.
    url, body = large

    async def main():
        async with HTTPClient() as client:
            stream = client.stream("GET", url)
            stream._arm = -1
            async with stream:
                native = stream._native
                await _wait_until_ended(native)
                block = native.receive_into(None)
                assert type(block) is bytes and block == body
                assert [chunk async for chunk in stream._chunks()] == []

    asyncio.run(main())


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_an_armed_download_with_an_error_status_keeps_the_file_untouched(nginx, tmp_path, kind):
    # Only a 2xx head takes the armed file: an error status (404) reads its body as usual and leaves no file.
    from boltwire.http import HTTPResponseError

    dest = tmp_path / "missing.bin"
    with pytest.raises(HTTPResponseError):
        download(kind, nginx.url + "/no-such-file", dest)
    assert leftovers(tmp_path) == []


def test_open_stream_refuses_a_bad_arm(nginx):
    with SyncHTTPClient() as client:
        for bad in (True, -2, "x"):
            stream = client.stream("GET", nginx.url + "/")
            stream._arm = bad
            with pytest.raises((ValueError, TypeError)):
                stream.__enter__()


# ---- the file writer (csrc/http/engine/file_writer.hpp): a thread writes a large file download's pipes ----------


def test_a_large_file_download_lands_in_order_whatever_the_piece_sizes(nginx, tmp_path):
    # 32 MiB of distinct 4-byte counters: any piece written twice, dropped or out of order (the writer takes the
    # pipes in one rotation; the driver splices whatever the socket holds into each) shows as a wrong counter.
    body = b"".join(i.to_bytes(4, "big") for i in range(8 << 20))
    url = serve(nginx, "direct-counters.bin", body)
    for kind in ("sync", "async"):
        dest = tmp_path / f"{kind}.bin"
        download(kind, url, dest)
        got = dest.read_bytes()
        assert len(got) == len(body)
        bad = next((i for i in range(0, len(got), 4 << 10) if got[i:i + 4096] != body[i:i + 4096]), None)
        assert bad is None, f"first wrong byte near offset {bad}"


def test_closing_a_file_download_stops_its_writer_before_the_descriptor_may_close(nginx, tmp_path):
    # Closed while the writer thread may be writing a piece: once close() returns, nothing more may be written to the
    # descriptor, which the caller then closes; the next file opened gets the same number. A writer that went on
    # would write body bytes into that unrelated file.
    body = os.urandom(32 << 20)
    url = serve(nginx, "direct-close.bin", body)

    async def main():
        async with HTTPClient() as client:
            for attempt in range(12):
                fd = os.open(tmp_path / f"part-{attempt}.bin", os.O_WRONLY | os.O_CREAT, 0o600)
                stream = client.stream("GET", url)
                await stream.__aenter__()
                try:
                    assert stream._native.receive_into(fd) is True
                    await asyncio.sleep(0.001 * (attempt % 4))  # the engine splices, the writer writes
                finally:
                    await stream.__aexit__(None, None, None)
                written = os.fstat(fd).st_size
                os.close(fd)
                victim = tmp_path / f"victim-{attempt}.bin"
                victim_fd = os.open(victim, os.O_WRONLY | os.O_CREAT, 0o600)
                assert victim_fd == fd  # the same number: what a late write would hit
                await asyncio.sleep(0.02)
                os.close(victim_fd)
                assert victim.stat().st_size == 0
                assert (tmp_path / f"part-{attempt}.bin").read_bytes() == body[:written]  # a prefix, in order
            r = await client.download(url, tmp_path / "whole.bin")  # the client still works
            assert r.data.read_bytes() == body

    asyncio.run(main())


def test_a_forked_child_closes_a_file_download_whose_writer_thread_it_lacks(nginx, tmp_path):
    # Forked while the engine splices a 32 MiB body and the writer thread writes it (holding its file lock for each
    # piece): the child has neither thread. Closing its copy of the stream must not wait for the writer (it would
    # hang forever) nor stop the parent's, whose download ends complete. In a subprocess: forking pytest would
    # duplicate the session.
    body = os.urandom(32 << 20)
    url = serve(nginx, "direct-fork-file.bin", body)
    script = CLOSE_IN_A_CHILD + textwrap.dedent(f"""
        import asyncio, hashlib
        from boltwire import HTTPClient
        async def main():
            async with HTTPClient() as client:
                for attempt in range(5):
                    dest = os.path.join(sys.argv[1], f"fork-{{attempt}}.bin")
                    fd = os.open(dest, os.O_WRONLY | os.O_CREAT, 0o600)
                    stream = client.stream("GET", {url!r})
                    await stream.__aenter__()
                    assert stream._native.receive_into(fd) is True
                    await asyncio.sleep(0.002 * attempt)
                    close_in_a_child(stream)
                    assert [chunk async for chunk in stream._chunks()] == []
                    await stream.__aexit__(None, None, None)
                    os.close(fd)
                    print(hashlib.sha256(open(dest, "rb").read()).hexdigest())
        asyncio.run(main())
    """)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [hashlib.sha256(body).hexdigest()] * 5


def stalled_download(tmp_path, kind: str, options: str, framing: str = "length",
                     h2_url: str | None = None) -> list[str]:
    """In a child process (RLIMIT_FSIZE binds nothing else): downloads from a server that sends a little more than
    the file may hold (2 MiB) of a 16 MiB body, then nothing while the connection stays open (20 s at most); the
    printed lines: the error, and whether the client went away before the server gave up. The last 68 KiB come
    0.3 s after the rest, so the write that fails is one the driver handed over before it waits for the socket.
    framing "length": Content-Length (pipe pieces); "chunked": one chunk of the whole size (byte pieces). With
    `h2_url` (an H2Server's), its /stall over cleartext HTTP/2 instead (byte pieces; no outcome line)."""
    script = textwrap.dedent(f"""
        import asyncio, resource, signal, socket, sys, threading
        from pathlib import Path
        from boltwire import HTTPClient, SyncHTTPClient
        from boltwire.http import HTTPTransportError
        LIMIT = 2 << 20
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        url = "http://127.0.0.1:%d/stall" % listener.getsockname()[1]
        if {h2_url!r} is not None:
            url = {h2_url!r} + "/stall?first=%d&then=%d" % (LIMIT - 65536, 65536 + 4096)
        outcome = []
        def one(conn):
            with conn:
                got = b""
                while b"\\r\\n\\r\\n" not in got:
                    piece = conn.recv(65536)
                    if not piece:
                        return
                    got += piece
                if {framing!r} == "chunked":
                    head = b"HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n%x\\r\\n" % (16 << 20)
                else:
                    head = b"HTTP/1.1 200 OK\\r\\nContent-Length: %d\\r\\n\\r\\n" % (16 << 20)
                conn.sendall(head + b"x" * (LIMIT - 65536))
                threading.Event().wait(0.3)
                conn.sendall(b"x" * (65536 + 4096))  # past the limit, then silence
                conn.settimeout(20)
                try:
                    conn.recv(1)
                    outcome.append("the client went away")
                except OSError:
                    outcome.append("the server gave up")
        def serve():
            while True:
                conn, _ = listener.accept()
                threading.Thread(target=one, args=(conn,), daemon=True).start()
        threading.Thread(target=serve, daemon=True).start()
        resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))
        dest = Path(sys.argv[1]) / "x.bin"
        async def run_async():
            async with HTTPClient({options}) as client:
                await client.download(url, dest)
        try:
            if {kind!r} == "sync":
                with SyncHTTPClient({options}) as client:
                    client.download(url, dest)
            else:
                asyncio.run(run_async())
        except HTTPTransportError as error:
            print("error:", type(error).__name__, error)
        else:
            print("no error")
        for _ in range(100 if {h2_url!r} is None else 0):
            if outcome:
                break
            threading.Event().wait(0.05)
        print(outcome)
    """)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert leftovers(tmp_path) == []
    return done.stdout.splitlines()


@pytest.mark.parametrize("framing", ["length", "chunked"])
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_write_that_fails_while_the_server_stalls_ends_the_download(tmp_path, kind, framing):
    # The writer thread's write fails (EFBIG past RLIMIT_FSIZE) on one of the last pieces, after the driver handed
    # over everything the server sent (spliced pipes, or byte pieces of a chunked body); the server then sends nothing
    # more. The driver must learn of it while it waits for the socket (the async one is woken by the writer:
    # FileWriter::set_waker; the sync one at the end of each wait slice), not wait for a server that may never send
    # again (no timeout here), and report the write's error.
    error, outcome = stalled_download(tmp_path, kind, "timeout=None", framing)
    assert "cannot write the download" in error and "File too large" in error, error
    assert outcome == "['the client went away']"


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_write_that_fails_while_an_http2_server_stalls_ends_the_download(tmp_path, kind):
    # The same over HTTP/2 (DATA frames: byte pieces): the stream ends with the write's error, not never (the stalled
    # stream stays open: a driver that waits on would end the child at its 60 s timeout).
    from h2_server import H2Server

    with H2Server() as server:
        error, _ = stalled_download(tmp_path, kind, "timeout=None, http2_prior_knowledge=True", h2_url=server.url)
    assert "cannot write the download" in error and "File too large" in error, error


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_an_http2_stream_refused_after_part_of_its_body_is_not_resent_into_the_file(tmp_path, kind):
    # A server that resets a stream with REFUSED_STREAM after the head and half the body (RFC 9113 forbids it): that
    # half is in the file already. A resend would write the whole body after it (a file that is neither, and the
    # download "succeeds"): the download fails instead, and leaves no file.
    from h2_server import H2Server

    dest = tmp_path / "x.bin"

    def sync_run(url):
        with SyncHTTPClient(http2_prior_knowledge=True) as client:
            client.get(url + "/echo")  # a reused connection: only there is a refused stream resent
            client.download(url + "/refuse-late", dest)

    async def async_run(url):
        async with HTTPClient(http2_prior_knowledge=True) as client:
            await client.get(url + "/echo")
            await client.download(url + "/refuse-late", dest)

    with H2Server() as server:
        try:
            sync_run(server.url) if kind == "sync" else asyncio.run(async_run(server.url))
        except HTTPTransportError as error:
            assert "refused" in str(error), error
        else:
            assert dest.read_bytes() == (bytes(range(256)) * 391)[:100000]
    assert leftovers(tmp_path) in ([], ["x.bin"])


@pytest.mark.parametrize("framing", ["length", "chunked"])
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_write_that_fails_before_a_read_timeout_is_the_error_reported(tmp_path, kind, framing):
    # The same with a read timeout: whichever the driver meets first, the error is the write's (end_stream prefers it
    # to a timeout that followed it: the download could never have succeeded).
    error, outcome = stalled_download(tmp_path, kind, "read_timeout=1.0", framing)
    assert "cannot write the download" in error and "File too large" in error, error


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_an_interruption_after_the_last_hop_closes_the_stream_before_the_file(nginx, tmp_path, monkeypatch, kind):
    # An exception raised after the final response's stream started (a Ctrl-C between two lines of the hop loop,
    # say) reaches download() before the stream is handed on: the temporary file must not be closed while that
    # stream (whose file writer may still be writing queued pieces) is open. _AtomicFile.discard closes every stream
    # armed with its descriptor first.
    from boltwire.http import _streaming

    body = os.urandom(32 << 20)
    url = serve(nginx, "direct-interrupt.bin", body)
    landed = []
    real_hops = _streaming._download_hops

    def interrupted_hops(*args):
        steps = real_hops(*args)
        value = None
        while True:
            if isinstance(value, _streaming._Landed):
                landed.append(value.stream)
                raise KeyboardInterrupt
            value = yield steps.send(value)

    monkeypatch.setattr(_streaming, "_download_hops", interrupted_hops)
    with pytest.raises(KeyboardInterrupt):
        download(kind, url, tmp_path / "x.bin")
    assert len(landed) == 1
    with pytest.raises(RuntimeError, match="once, while open"):
        landed[0]._native.receive_into(None)  # closed
    assert leftovers(tmp_path) == []
