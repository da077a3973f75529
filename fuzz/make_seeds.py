"""fuzz/make_seeds.py: writes the hand-made seed corpora in fuzz/corpus/<target>/ (committed; rerun after edits).

Each seed is a small valid or edge-case input in the target's input layout (see each fuzz_*.cpp header).
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"

OK5 = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
CHUNKED_HEAD = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
RESPONSES = [
    OK5,
    OK5 + OK5,
    b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    CHUNKED_HEAD + b"5\r\nhello\r\n0\r\n\r\n",
    CHUNKED_HEAD + b"5;ext=1\r\nhello\r\n1A \t\r\n" + b"x" * 26 + b"\r\n0\r\nTrailer-A: 1\r\nB:  two \r\n\r\n",
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
    b"HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n",
    b"HTTP/1.1 304 Not Modified\r\n\r\nHTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil close",
    b"HTTP/1.0 200 OK\r\n\r\nbody till eof",
    b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx",
    b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x05hello",
    b"HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x01",  # a CONNECT tunnel when the method is CONNECT
    b"HTTP/1.1 404 Not \tFound\r\nServer:  nginx \t\r\nX-Empty:\r\nX-Utf8: caf\xc3\xa9\r\nContent-Length: 3\r\n\r\nabc",
    b"HTTP/1.1 200\r\nContent-Length: 1\r\n\r\nz",
    b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
    b"HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551616\r\n\r\n",
    b"HTTP/1.1 200 OK\r\n Folded: x\r\n\r\n",
    b"HTTP/1.1 200 OK\nContent-Length: 0\n\n",
    b"HTTP/2 200\r\n\r\n",
    b"\x16\x03\x03\x00\x02\x02\x28",
    CHUNKED_HEAD + b"fffffffffffffffff\r\n",
    CHUNKED_HEAD + b"5\r\nhelloXX0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
]

CHUNKED_BODIES = [
    b"5\r\nhello\r\n0\r\n\r\n",
    b"1\r\na\r\n2;x=y\r\nbc\r\n0\r\nT: v\r\n\r\n",
    b"A \t;name=\"quoted\"\r\n0123456789\r\n000\r\n\r\n",
    b"0\r\n\r\n",
    b"ffffffffffffffff\r\n",
    b"10000000000000000\r\n",
    b"5\r\nhello\n0\r\n\r\n",
    b"5\nhello\r\n",
    b"z\r\n",
    b";\r\n",
    b"5\r\nhelloX",
    b"5;\x01\r\nhello\r\n",
]


def write(target: str, name: str, data: bytes) -> None:
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}-{hashlib.sha1(data).hexdigest()[:10]}").write_bytes(data)


def main() -> None:
    write_h2_seeds()
    write_content_decoder_seeds()
    for i, resp in enumerate(RESPONSES):
        for flags, methods in ((0, 0), (1, 0), (0, 0b01010101), (0, 0b10101010)):
            split = struct.pack("<HH", len(resp) // 3, 2 * len(resp) // 3)
            write("fuzz_http_response", f"resp{i:02d}-f{flags}m{methods:02x}", bytes([flags, methods]) + split + resp)
    for i, body in enumerate(CHUNKED_BODIES):
        for flags in (0, 1):
            write("fuzz_chunked", f"body{i:02d}-f{flags}", bytes([flags]) + struct.pack("<H", len(body) // 2) + body)
    untyped = [
        b"{}", b"[]", b"null", b"true", b"false", b"0", b"-0", b"-0.0", b"1.5e300", b"1e400", b"5e-324",
        b"123456789012345678901234567890", b"-9223372036854775808", b"18446744073709551616",
        b'"plain"', b'"esc \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00"', b'"\\ud800"',
        b'"caf\xc3\xa9 \xf0\x9f\x98\x80"', b'{"a": [1, 2.5, {"b": null}], "c": "d", "a": true}',
        b" \t\r\n[ 1 , [ ] , { } ] \n", b"[" * 1024 + b"]" * 1024, b"[" * 1025 + b"]" * 1025,
        b"[1,]", b"{\"a\":1,}", b"01", b"1.", b".5", b"1e", b"NaN", b"Infinity", b"\"\x01\"", b"\"\xff\"",
        b"\"\xed\xa0\x80\"", b"\xef\xbb\xbf{}", b"[1] x", b"", b'{"k" 1}', b'"\\x41"', b'"\\u12"',
    ]
    for i, doc in enumerate(untyped):
        write("fuzz_json_untyped", f"doc{i:02d}", doc)
    recipes = [b"", b"\x00", b"\x02\x05\x01\x02\x03\x04\x05", b"\x03\x07", b"\x04" + struct.pack("<d", 0.1),
               b"\x05\x08\x00abcdefgh", b"\x05\x05\x01\xc3\xa9\x00\x22\x5c", b"\x05\x04\x02\x10\x20\x30\x40",
               b"\x06\x03\x00\x01\x01\x03\x05", b"\x08\x02\x03\x00k\x00\x06\x01\x00"]
    for i, recipe in enumerate(recipes):
        write("fuzz_json_encode_roundtrip", f"recipe{i:02d}", recipe)
    # fuzz_request_writer: strings end at "\\ " (FuzzedDataProvider); integers come from the end: framing (last
    # byte), content length (8 bytes before it), header count (the byte before those).
    heads = [(b"GET\\ /a?b=1\\ example.com:8080\\ Accept\\ */*\\ X-Id\\  42 \\ ", 2, 0, 0),
             (b"POST\\ /upload\\ 127.0.0.1\\ Content-Type\\ application/json\\ ", 1, 1, 17),
             (b"PUT\\ *\\ [::1]:80\\ ", 0, 2, 0),
             (b"GET\\ /\\ h\\ X\\ a\r\nInjected: 1\\ ", 1, 0, 0),
             (b"GET\\ /\\ h\\ Host\\ evil\\ ", 1, 0, 0)]
    for i, (payload, count, framing, length) in enumerate(heads):
        write("fuzz_request_writer", f"head{i:02d}", payload + bytes([count]) + struct.pack(">Q", length) + bytes([framing]))
    # fuzz_url: base URL, params (strings end at "\\ "), then the reference (the rest of the input).
    urls = [(b"http://a/b/c/d;p?q", b"", b"../g?y#s"), (b"http://h/api/v1", b"y=2", b"../users#frag"),
            (b"http://h", b"a=1&b=%C3%A9", b"/echo?"), (b"", b"", b"http://u:p%40w@Example.COM:8080/a/./b/../c?x#f"),
            (b"https://[::1]:443/base/", b"", b"./x/../../y"), (b"", b"q=1", b"http://[fe80::1]/p?#"),
            (b"http://h/", b"", b"//other:81/x/.."), (b"", b"", b"g:h"), (b"http://h/", b"", b"http://b\xc3\xbccher.de/"),
            (b"http://h/", b"", b"/sp ace/%7e/100%/caf\xc3\xa9"), (b"", b"", b"http://h:0/"), (b"", b"", b"http://[::1/"),
            (b"http://h/?q", b"", b"x"), (b"", b"", b"http://h/\r\nX: y")]
    for i, (base, params, ref) in enumerate(urls):
        write("fuzz_url", f"url{i:02d}", base + b"\\ " + params + b"\\ " + ref)
    # fuzz_json_typed: byte 0 picks the type plan (json_checks.TYPED_PLANS; bit 7: strict=False), the rest is JSON.
    typed = [
        (0, b'{"inner": {"a": 1, "b": ["x"]}, "opt": null, "scores": {"m": 1.5, "n": 2}, "when": "2024-01-02T03:04:05Z"}'),
        (0, b'{"inner": {"a": 1}, "opt": {"a": 2, "b": []}, "extra": [1, {"x": null}]}'),
        (1, b'[{"type": "cat", "name": "tom", "lives": 3}, {"type": "dog", "name": "rex", "good": false}]'),
        (1, b'[{"name": "tom", "type": "cat"}, {"type": "bird"}]'),
        (2, b'{"a": "abc", "b": "z"}'), (2, b'{"a": "ABC"}'), (3, b'[1, 2.5, "s"]'), (3, b"[1, 2]"),
        (4, b"0.5"), (4, b"-1"), (4, b"1e400"), (5, b"null"), (5, b'"s"'), (5, b"12345678901234567890"),
        (6, b"[1, 2, 3]"), (6, b"[1, 2, 3, 4]"), (7, b'[[1, "a"], [2]]'),
        (8, b'{"someField": 1, "otherField": null, "blob": "aGk="}'), (8, b'{"someField": 1, "unknown": 2}'),
        (9, b'["c232ab00-9414-11ec-b3c8-9e6bdeced846", null]'), (10, b"[3, 6, 9]"), (10, b"[4]"),
        (11, b'{"k": [1, {"inner": {"a": 2}}]}'), (12, b'"1.25"'), (12, b"1.25"), (13, b'{"type": "dog", "name": ""}'),
        (0x80 | 3, b'["1", "2.5", "s"]'), (0x80 | 0, b'{"inner": {"a": "7"}}'),
    ]
    for i, (plan, doc) in enumerate(typed):
        write("fuzz_json_typed", f"plan{plan:02x}-{i:02d}", bytes([plan]) + doc)
    # fuzz_msgpack: byte 0 picks the type plan (msgpack_checks PLANS; bit 7: strict=False), the rest is MessagePack.
    mp = [
        (0, b"\x83\xa1a\x92\x01\xcb?\xf8\x00\x00\x00\x00\x00\x00\xa1b\xc4\x02hi\xa1c\xd6\xff^\x0b\xe1\x00"),
        (0, b"\x81\x92\x01\x02\xd5\x05ab"), (0, b"\xdd\xff\xff\xff\xff"), (0, b"\x91" * 40),
        (1, b"\x82\xa5inner\x82\xa1a\x01\xa1b\x91\xa1x\xa4when\xd6\xff\x00\x00\x00\x01"),
        (1, b"\x81\xa5inner\x81\xa1a\xa1x"),
        (2, b"\x92\x82\xa4type\xa3cat\xa4name\xa3tom\x82\xa4name\xa3rex\xa4type\xa3dog"),
        (3, b"\x92\x93\xa3Row\x01\xc4\x01z\x92\xa3Row\x02"), (4, b"\x83\xa1a\x01\xa1b\xa1s\xa1c\xc0"),
        (5, b"\x93\x01\xcb@\x00\x00\x00\x00\x00\x00\x00\xa1s"), (6, b"\x93\x01\x01\x02"),
        (7, b"\xc4\x10" + bytes(range(16))), (7, b"\xd9\x24c232ab00-9414-11ec-b3c8-9e6bdeced846"),
        (8, b"\xc7\x0c\xff" + bytes(4) + b"\x00\x00\x00\x01\x00\x00\x00\x00"), (8, b"\xb42024-01-02T03:04:05Z"),
        (9, b"\xa1x"), (9, b"\x03"), (10, b"\x92\xc4\x00\xc5\x00\x01z"), (11, b"\x81\x01\x91\xca?\x80\x00\x00"),
        (0x80 | 4, b"\x81\xa1a\xa11"), (0x80 | 8, b"\x01"),
    ]
    for i, (plan, doc) in enumerate(mp):
        write("fuzz_msgpack", f"plan{plan:02x}-{i:02d}", bytes([plan]) + doc)
    # atheris_api: the first byte picks the check (0 struct, 1 encode, 2 decode), the rest its arguments.
    for i, seed in enumerate([b"\x00\x01\x02", b"\x01\x0b\x03ABC\x08\x02", b'\x02\x10{"a":[1,2.5,null]}\x01',
                              b"\x02\x08[1,\xff]\x05", b"\x00\x02\x02\x07x\x04\x03abc"]):
        write("atheris_api", f"seed{i:02d}", seed)
    write_tls_seeds()
    write_http_check_seeds()


def write_http_check_seeds() -> None:
    """Seeds of the cookie jar and multipart writer targets (fuzz/python/http_checks.py)."""
    # fuzz_cookie: byte 0 picks the request URL (http_checks.URLS), byte 1 the clock's step, then Set-Cookie lines.
    cookies = [
        (0, 0, b"sid=abc; Path=/; Max-Age=60\nx=1; Domain=example.com; Secure\nb=2; Domain=com\n"
               b"c=3; Expires=Wed, 21 Oct 2015 07:28:00 GMT\nd=4; Expires=Sun, 06-Nov-94 08:49:37 GMT"),
        (1, 5, b"s=1; Secure; HttpOnly; SameSite=Lax\np=2; Path=/a\nq=3; Domain=.EXAMPLE.com; Max-Age=1\n"
               b"q=; Max-Age=0"),
        (4, 0, b"a=1; Domain=127.0.0.1\nb=2; Domain=0.0.1\nc=3; Path=relative"),
        (5, 0, b"v6=1; Domain=::1\nw=2"), (6, 200, b"deep=1; Domain=example.co.uk; Max-Age=100000\nx=2; Domain=..uk"),
        (7, 0, b"tld=1; Domain=com\nnovalue\n=v\n a b = c d ; path=/x"),
    ]
    for i, (url, step, lines) in enumerate(cookies):
        write("fuzz_cookie", f"jar{i:02d}", bytes([url, step]) + lines)
    # fuzz_multipart: a field count, then per field its kind (0 text, 1 bytes, 2 file, 3 typed file), a name (a
    # length byte n, then n + 1 characters), the content's length (a byte plus 256 times the next) and content;
    # files add a filename (as a name) and typed files a content type byte.
    forms = [b"\x02\x00\x05hello\x05\x00caf\xc3\xa9!\x01\x04name\x04\x00\xff\x00\x01\x02",
             b"\x01\x02\x03fil\x02\x00zz\x04ab\"\r", b"\x01\x03\x02a\r\x03\x00xyz\x06x.json\x00",
             b"\x03\x00\x01q\x00\x00\x01\x01q\x00\x00\x02\x01r\x10\x01" + bytes(272) + b"\x03f.b"]
    for i, form in enumerate(forms):
        write("fuzz_multipart", f"form{i:02d}", form)


def tls_server_flights() -> list[bytes]:
    """Real first server flights (TLS 1.2: ServerHello, Certificate, ServerKeyExchange in the clear; TLS 1.3) made
    by the stdlib ssl module over memory BIOs with a throwaway trustme certificate (never a committed key)."""
    import ssl

    import trustme

    ca = trustme.CA()
    leaf = ca.issue_cert("localhost")
    flights = []
    for version in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
        server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        leaf.configure_cert(server_ctx)
        server_ctx.maximum_version = version
        client_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ca.configure_trust(client_ctx)
        client_out, client_in, server_in, server_out = (ssl.MemoryBIO() for _ in range(4))
        client = client_ctx.wrap_bio(client_in, client_out, server_hostname="localhost")
        server = server_ctx.wrap_bio(server_in, server_out, server_side=True)
        for side, source, sink in ((client, None, None), (server, client_out, server_in)):
            if source is not None:
                sink.write(source.read())
            try:
                side.do_handshake()
            except ssl.SSLWantReadError:
                pass
        flights.append(server_out.read())
    return flights


def write_tls_seeds() -> None:
    """fuzz_tls_client: byte 0 the slice size, byte 1 bit 0 EOF at the end, then server bytes. The flights are
    random each run, so this target's seeds are replaced, not added to."""
    folder = CORPUS / "fuzz_tls_client"
    for old in folder.glob("*"):
        old.unlink()
    seeds = [(0, 0, flight) for flight in tls_server_flights()]
    seeds += [(7, 1, seeds[0][2][: len(seeds[0][2]) // 2]), (1, 0, seeds[1][2][:64])]
    seeds += [(0, 0, b"\x15\x03\x03\x00\x02\x02\x28"),  # handshake_failure alert
              (0, 0, b"\x15\x03\x03\x00\x02\x02\x46"),  # protocol_version alert
              (3, 1, b"\x16\x03\x03\x00"),  # a record header, then EOF
              (0, 1, OK5)]  # plain HTTP on a TLS port
    for i, (slice_size, flags, data) in enumerate(seeds):
        write("fuzz_tls_client", f"server{i:02d}-s{slice_size}f{flags}", bytes([slice_size, flags]) + data)


def h2_frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    """One HTTP/2 frame (RFC 9113 §4.1)."""
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def write_h2_seeds() -> None:
    """fuzz_h2_client: byte 0 the slice size, byte 1 the listener flags, then server frames for the client's streams
    1, 3 and 5. HPACK: 0x88 is ":status: 200" from the static table; 0x08 <len> <value> is ":status" with a literal
    value, 0x00 <len> <name> <len> <value> a literal field."""
    settings, ack = h2_frame(4, 0, 0), h2_frame(4, 1, 0)
    ok = 0x05  # END_STREAM | END_HEADERS
    literal = lambda name, value: b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value  # noqa: E731
    flows = [
        settings + ack + h2_frame(1, ok, 1, b"\x88"),
        settings + h2_frame(1, 4, 1, b"\x88" + literal(b"content-length", b"5")) + h2_frame(0, 1, 1, b"hello"),
        settings + h2_frame(1, 4, 3, b"\x08\x03100") + h2_frame(1, 4, 3, b"\x88") + h2_frame(0, 0, 3, b"x" * 200)
        + h2_frame(1, ok, 3, literal(b"grpc-status", b"0")),
        settings + h2_frame(7, 0, 0, struct.pack(">II", 1, 0)) + h2_frame(1, ok, 1, b"\x88"),
        settings + h2_frame(3, 0, 3, struct.pack(">I", 2)) + h2_frame(1, ok, 5, b"\x88"),
        settings + h2_frame(8, 0, 0, struct.pack(">I", 1000)) + h2_frame(6, 0, 0, b"12345678"),
        h2_frame(4, 0, 0, struct.pack(">HI", 3, 1) + struct.pack(">HI", 4, 10)) + h2_frame(8, 0, 3, struct.pack(">I", 5)),
        settings + h2_frame(1, 4, 5, b"\x88" + literal(b"content-encoding", b"gzip")) + h2_frame(0, 1, 5, b"\x1f\x8b"),
        settings + h2_frame(1, ok, 2, b"\x88") + h2_frame(5, 4, 1, struct.pack(">I", 2) + b"\x88"),  # push refused
        b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    ]
    for i, flow in enumerate(flows):
        for slice_size, flags in ((0, 0), (5, 1), (1, 2)):
            write("fuzz_h2_client", f"flow{i:02d}-s{slice_size}f{flags}", bytes([slice_size, flags]) + flow)


def write_content_decoder_seeds() -> None:
    """Real streams for fuzz_content_decoder: byte 0 the coding index (+0x80 for the small limit), bytes 1-2 the
    split position, then the body (see the target's header). Needs brotli and zstandard (test extras)."""
    import gzip
    import zlib

    import brotli
    import zstandard

    text = b'{"status":"success","items":[' + b",".join(b'{"id":%d,"tag":"x"}' % i for i in range(40)) + b"]}"
    coders = {  # index into kCodings -> how the body is made (codings applied in the order listed)
        0: lambda b: gzip.compress(b),
        1: lambda b: zlib.compress(b),
        2: lambda b: brotli.compress(b),
        3: lambda b: zstandard.ZstdCompressor().compress(b),
        4: lambda b: brotli.compress(gzip.compress(b)),
        5: lambda b: gzip.compress(zstandard.ZstdCompressor().compress(b)),
        6: lambda b: zstandard.ZstdCompressor().compress(zlib.compress(b)),
    }
    for index, make in coders.items():
        for body in (text, b"", b"a" * 100_000):
            stream = make(body)
            for flags, split in ((index, len(stream) // 2), (index | 0x80, 1)):
                write("fuzz_content_decoder", f"c{index}-{len(body)}-{flags:02x}",
                      bytes([flags]) + struct.pack(">H", split) + stream)
    write("fuzz_content_decoder", "gzip-then-junk", bytes([0, 0, 10]) + gzip.compress(text) + b"junk")
    write("fuzz_content_decoder", "deflate-raw", bytes([1, 0, 3]) + zlib.compress(text)[2:-4])


if __name__ == "__main__":
    main()
