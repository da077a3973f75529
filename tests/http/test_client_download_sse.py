"""download() (nginx and uvicorn), multipart form= uploads (parsed back with the stdlib email parser) and sse()
(WHATWG parsing through the native parser, reconnects with Last-Event-ID, 204, errors)."""

from __future__ import annotations

import asyncio
import email
import email.policy
import io
import os
import stat
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boltwire import HTTPClient, SyncHTTPClient, _core
from boltwire.http import HTTPConnectionError, HTTPResponseError, HTTPTransportError, SSEEvent
from boltwire.http._multipart import encode_form
from nginx_server import big_body


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# ---- download -------------------------------------------------------------------------------------------------


def test_sync_download_to_a_file_with_progress(nginx, tmp_path):
    dest = tmp_path / "big.bin"
    seen = []
    with SyncHTTPClient() as client:
        r = client.download(nginx.url + "/big", dest, progress=lambda done, total: seen.append((done, total)))
    assert r.status == 200 and r.data == dest
    assert dest.read_bytes() == big_body()
    assert seen[-1] == (len(big_body()), len(big_body()))
    assert all(a[0] < b[0] for a, b in zip(seen, seen[1:]))
    assert leftovers(tmp_path) == ["big.bin"]  # no temporary file left


def test_async_download_without_dest_returns_bytes(nginx, tmp_path):
    async def main():
        async with HTTPClient() as client:
            r = await client.download(nginx.url + "/big")
            assert r.data == big_body()
            r = await client.download(nginx.url + "/big", str(tmp_path / "x"))
            assert Path(r.data).read_bytes() == big_body()

    asyncio.run(main())


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_interrupted_download_leaves_no_partial_file(stream_server, tmp_path, kind):
    dest = tmp_path / "cut.bin"
    dest_old = tmp_path / "kept.bin"
    dest_old.write_bytes(b"old")
    url = stream_server.url + "/cut?size=2000000"
    if kind == "sync":
        with SyncHTTPClient() as client:
            with pytest.raises(HTTPConnectionError):
                client.download(url, dest)
            with pytest.raises(HTTPConnectionError):
                client.download(url, dest_old)
    else:
        async def main():
            async with HTTPClient() as client:
                with pytest.raises(HTTPConnectionError):
                    await client.download(url, dest)
                with pytest.raises(HTTPConnectionError):
                    await client.download(url, dest_old)

        asyncio.run(main())
    assert leftovers(tmp_path) == ["kept.bin"]
    assert dest_old.read_bytes() == b"old"  # an existing file is replaced only by a complete download


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_downloaded_file_has_the_mode_a_plain_write_gives(stream_server, tmp_path, kind):
    # The temporary file is created as open(dest, "wb") would create dest (0o666 less the umask), not 0o600 (mkstemp's
    # mode), which the rename then gave dest: a file other users or a web server could not read.
    url, dest = stream_server.url + "/status/200", tmp_path / "f.bin"
    old = os.umask(0o022)
    try:
        if kind == "sync":
            with SyncHTTPClient() as client:
                client.download(url, dest)
        else:
            async def main():
                async with HTTPClient() as client:
                    await client.download(url, dest)

            asyncio.run(main())
    finally:
        os.umask(old)
    assert dest.read_bytes() == b"no" and stat.S_IMODE(dest.stat().st_mode) == 0o644
    assert leftovers(tmp_path) == ["f.bin"]


def test_download_of_an_error_status_writes_nothing(stream_server, tmp_path):
    with SyncHTTPClient() as client:
        with pytest.raises(HTTPResponseError):
            client.download(stream_server.url + "/status/404", tmp_path / "x")
    assert leftovers(tmp_path) == []


def test_a_failing_progress_callback_removes_the_temporary_file(nginx, tmp_path):
    def boom(done, total):
        raise KeyError("stop")

    with SyncHTTPClient() as client:
        with pytest.raises(KeyError):
            client.download(nginx.url + "/big", tmp_path / "x", progress=boom)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_download_is_fsynced_then_renamed_from_beside_dest(nginx, tmp_path, kind, monkeypatch):
    # The order that makes the download atomic and durable: the temporary file (in dest's directory, so the rename
    # cannot cross file systems) is fsync'ed, renamed over dest, and then the directory is fsync'ed.
    dest = tmp_path / "big.bin"
    dest.write_bytes(b"old")
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(src, dst):
        events.append(("replace", str(src), str(dst), Path(src).read_bytes() == big_body()))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    if kind == "sync":
        with SyncHTTPClient() as client:
            client.download(nginx.url + "/big", dest)
    else:
        async def main():
            async with HTTPClient() as client:
                await client.download(nginx.url + "/big", dest)

        asyncio.run(main())
    assert len(events) == 3, events
    (_, synced), (_, src, dst, complete), (_, directory) = events
    assert [e[0] for e in events] == ["fsync", "replace", "fsync"]
    assert Path(synced) == Path(src).resolve() and Path(dst) == dest and complete
    assert Path(src).parent == tmp_path and Path(src).name.startswith(".big.bin.") and src.endswith(".part")
    assert Path(directory) == tmp_path.resolve()
    assert dest.read_bytes() == big_body() and leftovers(tmp_path) == ["big.bin"]


# ---- multipart ------------------------------------------------------------------------------------------------


def parse_multipart(content_type: str, body: bytes) -> list:
    msg = email.message_from_bytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body,
                                   policy=email.policy.HTTP)
    assert msg.is_multipart() and not msg.defects
    return [(_disposition_param(p, "name"), _disposition_param(p, "filename"), p.get_content_type(),
             p.get_payload(decode=True)) for p in msg.iter_parts()]


def _disposition_param(part, key: str):
    """A Content-Disposition parameter as written: only its double quotes taken off. (get_param's unquoting also
    strips <...>, and get_filename strips spaces: a filename "<>" would read back as "".)"""
    raw = part.get_param(key, header="content-disposition", unquote=False)
    if raw is None:
        return None
    assert raw.startswith('"') and raw.endswith('"'), raw
    return raw[1:-1]


class CountingFile(io.BufferedReader):
    """A real file that records the sizes asked of read(): a file part must be read in pieces, never whole."""

    def __init__(self, path: Path) -> None:
        super().__init__(io.FileIO(str(path), "rb"))
        self.reads: list[int] = []

    def read(self, size: int | None = -1) -> bytes:
        self.reads.append(-1 if size is None else size)
        return super().read(size)


def test_multipart_round_trip_through_a_real_server(stream_server, tmp_path):
    text_file = tmp_path / "notes.txt"
    text_file.write_text("hello file")
    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(1_500_000))
    opened = CountingFile(big)
    form = {"a": "text é", "n": 3, "flag": True, "raw": b"\x00\x01", "doc": text_file, "j": {"k": [1]},
            "t": ("x.json", b"{}"), "typed": ("data.bin", b"zz", "application/x-custom"),
            "over": (text_file, "text/markdown"), "rep": ("1", "2"), "big": opened,
            'quo"te': ("we\"ird\r\nname.txt", b"q")}
    with SyncHTTPClient() as client:
        r = client.post(stream_server.url + "/echo-body", form=form)
    parts = parse_multipart(r.headers["content-type"], r.data)
    assert parts == [
        ("a", None, "text/plain", "text é".encode()),
        ("n", None, "text/plain", b"3"),
        ("flag", None, "text/plain", b"true"),
        ("raw", None, "application/octet-stream", b"\x00\x01"),
        ("doc", "notes.txt", "text/plain", b"hello file"),
        ("j", None, "application/json", b'{"k":[1]}'),
        ("t", "x.json", "application/json", b"{}"),
        ("typed", "data.bin", "application/x-custom", b"zz"),
        ("over", "notes.txt", "text/markdown", b"hello file"),
        ("rep", None, "text/plain", b"1"),
        ("rep", None, "text/plain", b"2"),
        ("big", "big.bin", "application/octet-stream", big.read_bytes()),
        ("quo%22te", "we%22ird%0D%0Aname.txt", "text/plain", b"q"),
    ]
    assert opened.reads and max(opened.reads) <= 256 * 1024 and -1 not in opened.reads


def test_multipart_mime_inference_can_be_switched_off(stream_server, tmp_path):
    f = tmp_path / "page.html"
    f.write_text("<p>")

    async def main():
        async with HTTPClient() as client:
            r = await client.post(stream_server.url + "/echo-body", form={"f": f},
                                  infer_mime_type_from_file_extension=False)
            assert parse_multipart(r.headers["content-type"], r.data)[0][2] == "application/octet-stream"
            r = await client.post(stream_server.url + "/upload", form={"f": f}, response_data_type=dict)
            assert r.data["transfer_encoding"] is None and int(r.data["content_length"]) == r.data["size"]

    asyncio.run(main())


def test_multipart_writer_round_trip_and_bad_values(tmp_path):
    upload = encode_form({"x": "1", "b": b"\xff" * 70000}, boundary="BOUNDARY")
    body = b"".join(upload.source)
    assert len(body) == upload.length
    assert parse_multipart(upload.content_type, body) == [("x", None, "text/plain", b"1"),
                                                          ("b", None, "application/octet-stream", b"\xff" * 70000)]
    with pytest.raises(TypeError):
        encode_form({"x": object()})
    with pytest.raises(TypeError):
        encode_form({"x": io.StringIO("text mode")})
    with pytest.raises(TypeError):
        encode_form(["not", "a", "mapping"])
    with pytest.raises(ValueError):
        encode_form({"x": ()})
    with pytest.raises(TypeError):
        with SyncHTTPClient() as client:
            client.post("http://127.0.0.1:1/", form={"a": "1"}, json={"b": 2})


def test_a_path_part_is_read_in_pieces(tmp_path, monkeypatch):
    # A Path part is opened by the writer itself: every read it makes is bounded, never the whole file.
    from boltwire.http import _multipart

    opened = []

    def counting_open(path, mode="r", *args, **kwargs):
        assert mode == "rb"
        opened.append(CountingFile(Path(path)))
        return opened[-1]

    monkeypatch.setattr(_multipart, "open", counting_open, raising=False)
    f = tmp_path / "big.bin"
    f.write_bytes(os.urandom(1_100_000))
    upload = encode_form({"f": f})
    body = b"".join(upload.source)
    assert len(body) == upload.length
    assert parse_multipart(upload.content_type, body) == [("f", "big.bin", "application/octet-stream",
                                                           f.read_bytes())]
    (counted,) = opened
    assert len(counted.reads) >= 5 and max(counted.reads) <= 256 * 1024 and -1 not in counted.reads


def test_a_file_that_shrinks_while_sent_is_an_error(stream_server, tmp_path):
    f = tmp_path / "shrinks.bin"
    f.write_bytes(b"x" * 600_000)
    upload = encode_form({"f": f})
    it = iter(upload.source)
    next(it)
    f.write_bytes(b"x" * 10)
    with pytest.raises(ValueError, match="changed size"):
        list(it)


# ---- SSE ------------------------------------------------------------------------------------------------------


def test_sse_parsing_rules_end_to_end(stream_server):
    want = [SSEEvent("one\ntwo"), SSEEvent("three", "custom"), SSEEvent("", id="5"), SSEEvent("four", id="5")]
    with SyncHTTPClient() as client:
        assert list(client.sse(stream_server.url + "/sse?scenario=parse")) == want

    async def main():
        async with HTTPClient() as client:
            got = [e async for e in client.sse(stream_server.url + "/sse?scenario=json", dict)]
            assert [(e.event, e.data) for e in got] == [("message", {"x": 1}), ("tick", {"x": 2})]

    asyncio.run(main())


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_sse_reconnects_after_a_drop_with_last_event_id(stream_server, kind):
    before = len(stream_server.stats()["sse_connects"])
    url = stream_server.url + "/sse?scenario=drop"
    if kind == "sync":
        with SyncHTTPClient() as client:
            got = list(client.sse(url, reconnect_delay=30))  # the server's retry: 50 ms wins
    else:
        async def main():
            async with HTTPClient() as client:
                return [e async for e in client.sse(url, reconnect_delay=30)]

        got = asyncio.run(main())
    assert [(e.id, e.data) for e in got] == [("1", "a"), ("2", "b"), ("3", "c after 2")]
    assert got[-1].retry == 50
    assert stream_server.stats()["sse_connects"][before:] == [None, "2"]


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_sse_events_are_delivered_as_they_arrive(stream_server, kind):
    # The server holds its second event until the client asks for it (/release) after seeing the first: a client
    # that waited for more of the body before handing over an event would see the first only after the server's
    # 10 s wait gave up, and then "never released" instead of "second".
    token = f"{kind}-{os.getpid()}-{id(object())}"
    url = stream_server.url + f"/sse?scenario=gated&token={token}"
    release = stream_server.url + f"/release?token={token}"
    if kind == "sync":
        got = []
        with SyncHTTPClient() as client:
            for event in client.sse(url):
                got.append(event.data)
                if event.data == "first":
                    client.get(release)
    else:
        async def main():
            got = []
            async with HTTPClient() as client:
                async for event in client.sse(url):
                    got.append(event.data)
                    if event.data == "first":
                        await client.get(release)
            return got

        got = asyncio.run(main())
    assert got == ["first", "second"]


def test_sse_204_stops_and_bad_answers_raise(stream_server):
    with SyncHTTPClient() as client:
        got = list(client.sse(stream_server.url + "/sse?scenario=stop", reconnect_on_close=True))
        assert [e.data for e in got] == ["only"]
        with pytest.raises(HTTPResponseError):
            list(client.sse(stream_server.url + "/status/404"))
        with pytest.raises(HTTPTransportError, match="text/event-stream"):
            list(client.sse(stream_server.url + "/ndjson?n=1"))
        with pytest.raises(HTTPConnectionError):
            list(client.sse(stream_server.url + "/sse?scenario=drop", max_reconnects=0))


def test_sse_connection_refused_retries_then_raises():
    with SyncHTTPClient() as client:
        with pytest.raises(HTTPConnectionError):
            list(client.sse("http://127.0.0.1:1/", max_reconnects=2, reconnect_delay=0.01))


# Byte tables for the native parser, each also fed split at every offset (WHATWG HTML §9.2.6).
SSE_TABLES = [
    (b"data: a\n\n", [("message", "a", "")]),
    (b"data:a\r\n\r\n", [("message", "a", "")]),
    (b"data: a\r\rdata: b\r\n\r\n", [("message", "a", ""), ("message", "b", "")]),
    (b"\xef\xbb\xbfdata: bom\n\n", [("message", "bom", "")]),
    (b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\n", []),  # only one BOM is dropped: the second makes a field name
    (b": comment\ndata: x\n\n", [("message", "x", "")]),
    (b"data: x\ndata\ndata:  two spaces\n\n", [("message", "x\n\n two spaces", "")]),
    (b"event: e\nid: 1\ndata: x\n\nevent\ndata: y\n\n", [("e", "x", "1"), ("message", "y", "1")]),
    (b"id: a\x00b\ndata: x\n\n", [("message", "x", "")]),
    (b"id: 1\n\nid\ndata: x\n\n", [("message", "x", "")]),
    (b"retry: 12\nretry: x1\n\n", []),
    (b"unknown: 1\n\ndata: incomplete", []),
    (b"data: caf\xc3\xa9 \xff\n\n", [("message", "café \ufffd", "")]),
]


@pytest.mark.parametrize("raw,events", SSE_TABLES)
def test_sse_parser_byte_tables_split_at_every_offset(raw, events):
    for cut in range(len(raw) + 1):
        parser = _core._SseParser()
        got = parser.feed(raw[:cut]) + parser.feed(raw[cut:])
        assert got == events, cut
    parser = _core._SseParser()
    got = [e for i in range(len(raw)) for e in parser.feed(raw[i:i + 1])]
    assert got == events


def test_sse_parser_retry_and_limit():
    parser = _core._SseParser()
    parser.feed(b"retry: 1500\n")
    assert parser.retry_ms == 1500
    parser.feed(b"retry: soon\n")
    assert parser.retry_ms == 1500
    small = _core._SseParser(max_event_size=100)
    with pytest.raises(ValueError, match="max_event_size"):
        small.feed(b"data: " + b"x" * 200)
    with pytest.raises(ValueError):
        small.feed(b"\n\n")  # a failed parser stays failed


# Names: printable ASCII with CR, LF and quotes. Left out, as the stdlib parser reads them its own way: non-ASCII
# header bytes, a backslash (sent as it is, as browsers do; the parser takes it for an escape) and whitespace at
# either end (the parser strips it).
_names = st.text(string.ascii_letters + string.digits + string.punctuation.replace("\\", "") + " \r\n",
                 min_size=1, max_size=20).filter(lambda t: t == t.strip())
_values = st.one_of(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40).map(lambda t: ("text", t)),
                    st.binary(max_size=300).map(lambda b: ("bytes", b)),
                    st.tuples(_names, st.binary(max_size=300)).map(lambda fb: ("file", fb)))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_names, _values, min_size=1, max_size=6))
def test_multipart_writer_round_trip_property(fields):
    """Whatever the names, filenames and bytes, the stdlib email parser reads back every part unchanged (names and
    filenames with ", CR and LF percent-encoded, as browsers send them)."""
    form = {name: value if kind != "file" else (value[0], value[1]) for name, (kind, value) in fields.items()}
    upload = encode_form(form, infer_mime=False)
    body = b"".join(upload.source)
    assert len(body) == upload.length
    parts = parse_multipart(upload.content_type, body)
    assert len(parts) == len(fields)
    for (name, (kind, value)), (got_name, got_file, got_type, got_body) in zip(fields.items(), parts):
        assert got_name == quote_like_browsers(name)
        if kind == "text":
            assert (got_file, got_type, got_body) == (None, "text/plain", value.encode())
        elif kind == "bytes":
            assert (got_file, got_type, got_body) == (None, "application/octet-stream", value)
        else:
            assert (got_file, got_type, got_body) == (quote_like_browsers(value[0]), "application/octet-stream",
                                                      value[1])


def quote_like_browsers(value: str) -> str:
    return value.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22")
