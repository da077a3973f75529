"""Content codings decoded natively (csrc/http/encoding): gzip, deflate (zlib and raw), br, zstd, stacked codings,
every body framing, corrupt and truncated streams, a compression bomb past max_response_size, and decompress=False.
Both clients; bodies come from the local server (tests/http/_local_server.py /encoded), from nginx's gzip and brotli
filters and from a starlette app under uvicorn (zstd, tests/http/stream_app.py)."""

from __future__ import annotations

import asyncio
import tracemalloc

import pytest

from _local_server import PAYLOAD, LocalServer
from boltwire import HTTPClient, SyncHTTPClient
from boltwire.http import HTTPTransportError


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def fetch(server, path, mode, call=None, **options):
    """GET `path` with the sync or the async client built from `options` (`call`: the get's own keyword arguments);
    returns the Response or the exception raised."""
    call = call or {}
    if mode == "sync":
        with SyncHTTPClient(base_url=server.url, **options) as client:
            try:
                return client.get(path, **call)
            except HTTPTransportError as e:
                return e

    async def main():
        async with HTTPClient(base_url=server.url, **options) as client:
            try:
                return await client.get(path, **call)
            except HTTPTransportError as e:
                return e

    return asyncio.run(asyncio.wait_for(main(), 30))


MODES = ["sync", "async"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("codings", ["gzip", "x-gzip", "deflate", "raw-deflate", "br", "zstd", "gzip,br",
                                     "zstd,gzip,deflate", "identity"])
@pytest.mark.parametrize("framing", ["", "&chunked=1", "&close=1"])
def test_codings_are_undone(server, mode, codings, framing):
    r = fetch(server, f"/encoded?c={codings}{framing}", mode)
    assert not isinstance(r, Exception), r
    assert r.data == PAYLOAD
    assert r.headers["Content-Encoding"]  # the header stays as the server sent it


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("codings", ["gzip", "br", "zstd", "zstd,gzip"])
def test_decoded_straight_into_a_type(server, mode, codings):
    r = fetch(server, f"/encoded?c={codings}&chunked=1", mode, call={"response_data_type": dict})
    assert not isinstance(r, Exception), r
    assert r.data["user"]["name"] == "Alice Johnson"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("codings", ["gzip", "zstd"])
def test_decoded_body_reaches_the_json_decoder_without_a_python_copy(server, mode, codings):
    # 16 MiB of decoded JSON, {"s": "aaa..."}: the one large Python allocation must be the decoded str itself. A
    # bytes object holding the decoded body on its way to the JSON decoder would double the traced peak.
    size = 16 << 20
    path = f"/encoded?c={codings}&text={size}"
    fetch(server, path, mode)  # the server encodes and caches the body outside the traced call
    tracemalloc.start()
    try:
        r = fetch(server, path, mode, call={"response_data_type": dict})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not isinstance(r, Exception), r
    assert len(r.data["s"]) == size
    assert peak < size * 1.5, f"traced peak {peak / size:.2f}x the decoded size"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("codings", ["gzip", "deflate", "br", "zstd"])
def test_corrupt_stream_is_a_clear_error(server, mode, codings):
    r = fetch(server, f"/encoded?c={codings}&corrupt=1", mode)
    assert isinstance(r, HTTPTransportError)
    assert "cannot decode the response body" in str(r) and codings.split(",")[-1] in str(r)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("codings", ["gzip", "deflate", "br", "zstd"])
def test_truncated_stream_is_a_clear_error(server, mode, codings):
    r = fetch(server, f"/encoded?c={codings}&truncate=6", mode)
    assert isinstance(r, HTTPTransportError)
    assert "cannot decode the response body" in str(r)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("codings", ["gzip", "br", "zstd"])
def test_compression_bomb_stops_at_max_response_size(server, mode, codings):
    # 256 MiB of zeros compresses to a few hundred KiB; the decoded size is what max_response_size bounds.
    r = fetch(server, f"/encoded?c={codings}&zeros={256 << 20}", mode, max_response_size=10 << 20)
    assert isinstance(r, HTTPTransportError)
    assert "decoded response body exceeds max_response_size" in str(r)


def test_a_body_exactly_at_the_limit_is_accepted(server):
    r = fetch(server, f"/encoded?c=gzip&zeros={1 << 20}", "sync", max_response_size=1 << 20)
    assert not isinstance(r, Exception) and r.data == bytes(1 << 20)


@pytest.mark.parametrize("codings", ["gzip", "br", "zstd"])
@pytest.mark.parametrize("size", [4095, 4096, 4097, 8193, 65536, 65537, 200_000])
def test_limit_holds_at_every_output_step(server, codings, size):
    # The decoders offer output space in growing steps (4 KiB up to 64 KiB): a body exactly at the limit passes,
    # one byte over fails, whichever step the limit falls in.
    r = fetch(server, f"/encoded?c={codings}&zeros={size}", "sync", max_response_size=size)
    assert not isinstance(r, Exception) and r.data == bytes(size)
    r = fetch(server, f"/encoded?c={codings}&zeros={size}", "sync", max_response_size=size - 1)
    assert isinstance(r, HTTPTransportError) and "exceeds max_response_size" in str(r)


@pytest.mark.parametrize("mode", MODES)
def test_zstd_from_a_starlette_app(stream_server, mode):
    # A producer nobody here wrote the framing of: starlette streams a zstd frame in 100-byte chunks under uvicorn.
    from stream_app import DOCUMENT

    r = fetch(stream_server, "/zstd", mode, call={"response_data_type": dict})
    assert not isinstance(r, Exception), r
    assert r.headers["Content-Encoding"] == "zstd" and r.headers["Transfer-Encoding"] == "chunked"
    assert r.data == DOCUMENT


@pytest.mark.parametrize("mode", MODES)
def test_decompress_off_hands_over_the_bytes_and_asks_for_nothing(server, mode):
    from _local_server import encode_content

    r = fetch(server, "/encoded?c=gzip", mode, decompress=False)
    assert r.data != PAYLOAD and r.data[:2] == b"\x1f\x8b"
    import gzip

    assert gzip.decompress(r.data) == PAYLOAD
    with SyncHTTPClient(base_url=server.url, decompress=False) as client:
        sent = dict((k.lower(), v) for k, v in client.get("/echo", response_data_type=dict).data["headers"])
    assert "accept-encoding" not in sent
    assert encode_content(b"x", "gzip")[:2] == b"\x1f\x8b"


def test_accept_encoding_is_sent_by_default(server):
    with SyncHTTPClient(base_url=server.url) as client:
        sent = dict((k.lower(), v) for k, v in client.get("/echo", response_data_type=dict).data["headers"])
    assert sent["accept-encoding"] == "gzip, deflate, br, zstd"


def test_unknown_coding_passes_through(server):
    # A coding we cannot undo (a made-up one listed after gzip) leaves the body exactly as it came.
    from _local_server import encode_content

    with SyncHTTPClient(base_url=server.url) as client:
        r = client.get("/encoded?c=gzip&extra=x-made-up")
    assert r.headers["Content-Encoding"] == "gzip, x-made-up"
    assert r.data[:2] == b"\x1f\x8b" and len(r.data) == len(encode_content(PAYLOAD, "gzip"))


def test_nginx_gzip_both_clients(nginx):
    with SyncHTTPClient(base_url=nginx.url) as client:
        r = client.get("/gzipped", response_data_type=dict)
        assert r.headers["Content-Encoding"] == "gzip"
        assert r.data["user"]["name"] == "Alice Johnson"

    async def main():
        async with HTTPClient(base_url=nginx.url) as client:
            rs = await asyncio.gather(*[client.get("/gzipped", response_data_type=dict) for _ in range(50)])
            return {r.data["status"] for r in rs}, {r.headers["Content-Encoding"] for r in rs}

    assert asyncio.run(main()) == ({"success"}, {"gzip"})


def test_nginx_brotli_both_clients(nginx):
    # nginx's own brotli encoder (Debian libnginx-mod-http-brotli-filter, installed by `make test` where the
    # Debian has it): a second, independent br producer besides the local server's.
    if not nginx.brotli:
        pytest.skip("nginx has no brotli filter: Debian package libnginx-mod-http-brotli-filter is not installed "
                    "(the Makefile prints why)")
    from nginx_server import payload

    with SyncHTTPClient(base_url=nginx.url) as client:
        r = client.get("/brotli")
        assert r.headers["Content-Encoding"] == "br" and r.data == payload()
        plain = client.get("/brotli", headers={"Accept-Encoding": "gzip"}, error_for_status=False)
        assert plain.status == 406  # the location never serves the body unencoded: the 200s above really were br
        raw = SyncHTTPClient(base_url=nginx.url, decompress=False, default_headers={"Accept-Encoding": "br"})
        with raw:
            encoded = raw.get("/brotli").data
        assert encoded != payload() and len(encoded) < len(payload())

    async def main():
        async with HTTPClient(base_url=nginx.url) as client:
            rs = await asyncio.gather(*[client.get("/brotli", response_data_type=dict) for _ in range(20)])
            return {r.data["status"] for r in rs}, {r.headers["Content-Encoding"] for r in rs}

    assert asyncio.run(main()) == ({"success"}, {"br"})
