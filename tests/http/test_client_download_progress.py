"""download(progress=...): the transport still puts the body into its target (a file, or one bytes object made for
the Content-Length) and wakes Python only once per progress step (_streaming._PROGRESS_STEP bytes, Stream.delivered)
and at the end; a body without a length comes into memory in pieces, each reported. Against nginx and uvicorn."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import pytest

from boltwire import HTTPClient, SyncHTTPClient
from boltwire.http import HTTPConnectionError, _streaming
from nginx_server import chunked_body

from test_client_download_direct import SIZE, large  # noqa: F401 (the 9 MiB file fixture, shared)

STEP = _streaming._PROGRESS_STEP


@pytest.fixture
def pieces(monkeypatch):
    """The sizes of the pieces that went through Python (_Download.add), recorded."""
    seen: list[int] = []
    add = _streaming._Download.add

    def counting(self, chunk):
        seen.append(memoryview(chunk).nbytes)
        add(self, chunk)

    monkeypatch.setattr(_streaming._Download, "add", counting)
    return seen


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def download(kind: str, url: str, dest, progress):
    if kind == "sync":
        with SyncHTTPClient() as client:
            return client.download(url, dest, progress=progress)

    async def main():
        async with HTTPClient() as client:
            return await client.download(url, dest, progress=progress)

    return asyncio.run(main())


@pytest.mark.parametrize("target", ["file", "memory"])
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_download_with_progress_keeps_the_body_out_of_python(large, tmp_path, pieces, kind, target):
    url, body = large
    dest = tmp_path / "p.bin" if target == "file" else None
    seen = []
    r = download(kind, url, dest, lambda done, total: seen.append((done, total)))
    data = dest.read_bytes() if dest is not None else r.data
    assert hashlib.sha256(data).digest() == hashlib.sha256(body).digest()
    assert pieces == []  # the transport wrote the body itself
    assert seen[-1] == (SIZE, SIZE)
    done = [d for d, _ in seen]
    assert done == sorted(set(done))  # strictly increasing
    assert all(total == SIZE for _, total in seen)
    assert len(seen) <= SIZE // STEP + 1  # at most one report per step, and the end
    if dest is not None:
        assert leftovers(tmp_path) == ["p.bin"]


@pytest.mark.parametrize("target", ["file", "memory"])
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_progress_is_reported_while_the_body_arrives(stream_server, tmp_path, kind, target):
    # /cut sends half of its Content-Length, pauses 50 ms and drops the connection: the half was reported before
    # the failure, and the failure leaves no file.
    size = 2 << 20
    seen = []
    dest = tmp_path / "cut.bin" if target == "file" else None
    with pytest.raises(HTTPConnectionError):
        download(kind, f"{stream_server.url}/cut?size={size}", dest, lambda done, total: seen.append((done, total)))
    assert seen, "no progress before the connection dropped"
    assert STEP <= seen[-1][0] <= size // 2 and seen[-1][1] == size
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("target", ["file", "memory"])
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_failing_progress_callback_ends_the_download_and_removes_its_file(large, tmp_path, kind, target):
    url, _ = large

    def boom(done, total):
        raise KeyError("stop")

    with pytest.raises(KeyError):
        download(kind, url, tmp_path / "x.bin" if target == "file" else None, boom)
    assert leftovers(tmp_path) == []
    r = download(kind, url, None, None)  # a fresh client works (and the connection was never pooled half-read)
    assert len(r.data) == SIZE


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_body_without_a_length_is_reported_without_a_total(nginx, tmp_path, pieces, kind):
    # Into a file, a chunked body goes to the file as it is decoded (no pieces through Python either); into memory
    # there is no length to make one bytes object for, so it comes in pieces, each reported.
    seen = []
    dest = tmp_path / "c.bin"
    download(kind, nginx.url + "/chunked", dest, lambda done, total: seen.append((done, total)))
    assert dest.read_bytes() == chunked_body()
    assert pieces == [] and seen[-1] == (len(chunked_body()), None)
    seen.clear()
    r = download(kind, nginx.url + "/chunked", None, lambda done, total: seen.append((done, total)))
    assert r.data == chunked_body()
    assert pieces and [d for d, _ in seen] == [sum(pieces[: i + 1]) for i in range(len(pieces))]
    assert seen[-1] == (len(chunked_body()), None)


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_progress_over_http2(nginx_tls, tmp_path, kind):
    # HTTP/2 hands the body over per DATA frame (h2_steps): the file target counts them as well.
    options = {"root_certificates": [nginx_tls.ca_pem], "tls_built_in_root_certs": False, "http2": True}
    big = (nginx_tls.prefix / "www" / "big.bin").read_bytes()
    dest = tmp_path / "h2.bin"
    seen = []

    def progress(done, total):
        seen.append((done, total))

    if kind == "sync":
        with SyncHTTPClient(**options) as client:
            client.download(nginx_tls.h2_url + "/big", dest, progress=progress)
    else:
        async def main():
            async with HTTPClient(**options) as client:
                await client.download(nginx_tls.h2_url + "/big", dest, progress=progress)

        asyncio.run(main())
    assert dest.read_bytes() == big
    assert seen[-1] == (len(big), len(big))
    assert len(seen) <= len(big) // STEP + 1
