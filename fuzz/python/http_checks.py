"""fuzz/python/http_checks.py: the properties of the fuzz_cookie and fuzz_multipart targets (boltwire.http's cookie
jar and multipart writer, both written in Python).

check_cookie(data): byte 0 picks the request URL, byte 1 how far the clock moves on, the rest is Set-Cookie field
values, one per line. Parsing, storing and choosing cookies never raise; what is stored obeys RFC 6265's storage
rules as boltwire applies them (domain and host-only, no bare TLD or foreign IP, Secure only from https, per-domain
limit) and the Cookie value for a request lists exactly the stored cookies that match it, as name=value pairs.

check_multipart(data): the input describes up to 8 form fields (text, bytes, a file as (filename, bytes) or
(filename, bytes, content type)); encode_form writes them, the body has the announced length, and the stdlib
email parser reads every part back unchanged (names and filenames with ", CR and LF percent-encoded, as browsers
send them).

Replay a crash from a normal interpreter:  python fuzz/python/http_checks.py [cookie|multipart] FILE...
"""

from __future__ import annotations

import email
import email.message
import email.policy
import string
import sys

from boltwire.http._cookies import (
    MAX_PER_DOMAIN,
    CookieJar,
    _is_ip,
    _url_parts,
    domain_match,
    parse_cookie_date,
    parse_set_cookie,
    path_match,
)
from boltwire.http._multipart import encode_form

URLS = ["http://www.example.com/a/b", "https://www.example.com/", "http://example.com/", "http://localhost/x/y",
        "http://127.0.0.1:8080/", "http://[::1]/p/q", "https://a.b.example.co.uk/deep/path/", "http://com/"]


class _Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def _text(raw: bytes) -> str:
    """A header value as the client reads it: UTF-8, else Latin-1."""
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def check_cookie(data: bytes) -> None:
    if len(data) < 2:
        return
    url = URLS[data[0] % len(URLS)]
    https, host, path = _url_parts(url)
    fields = [_text(line) for line in data[2:].split(b"\n")]
    for field in fields:
        parsed = parse_set_cookie(field)
        if parsed is not None:
            assert parsed.name and "=" not in parsed.name and ";" not in parsed.name + parsed.value
            assert parsed.path is None or parsed.path.startswith("/")
            assert parsed.domain is None or (parsed.domain and parsed.domain == parsed.domain.lower())
        for attribute in field.split(";"):
            when = parse_cookie_date(attribute.partition("=")[2])
            assert when is None or when >= -11644473600, when  # not before 1601-01-01
    clock = _Clock()
    jar = CookieJar(clock)
    jar.extract(url, fields)
    stored = list(jar)
    per_domain: dict[str, int] = {}
    for c in stored:
        per_domain[c.domain] = per_domain.get(c.domain, 0) + 1
        assert c.domain == host if c.host_only else domain_match(host, c.domain), (c, host)
        assert "." in c.domain or c.domain == host, c  # a bare TLD only as the host itself
        assert not _is_ip(host) or c.domain == host, c  # a request to an IP address sets cookies for it alone
        assert https or not c.secure, c
        assert c.path.startswith("/"), c
    assert all(n <= MAX_PER_DOMAIN for n in per_domain.values()), per_domain
    clock.now += data[1] * 1000.0
    live = [c for c in stored if c.expires is None or c.expires > clock.now]
    for target in (url, url.replace("https://", "http://"), url.rstrip("/") + "/sub/x"):
        t_https, t_host, t_path = _url_parts(target)
        header = jar.header_for(target)
        pairs = [] if header is None else [p.partition("=")[::2] for p in header.split("; ")]
        wanted = [(c.name, c.value) for c in live
                  if (t_host == c.domain if c.host_only else domain_match(t_host, c.domain))
                  and path_match(t_path, c.path) and (t_https or not c.secure)]
        assert sorted(pairs) == sorted(wanted), (target, header, wanted)
        assert header is None or not any(ch in header for ch in "\r\n\x00")


# ---- multipart ------------------------------------------------------------------------------------------------

# Names and filenames: printable ASCII with CR, LF and quotes, no whitespace at either end (the stdlib parser strips
# it) and no backslash (sent as it is, as browsers do; the parser reads it as an escape). Text values: any str.
_NAME_ALPHABET = string.ascii_letters + string.digits + string.punctuation.replace("\\", "") + " \r\n"
_CONTENT_TYPES = ["application/x-custom", "image/png", "text/csv; charset=utf-8"]


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def byte(self) -> int:
        self.pos += 1
        return self.data[self.pos - 1] if self.pos <= len(self.data) else 0

    def take(self, n: int) -> bytes:
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def name(self) -> str:
        return "".join(_NAME_ALPHABET[b % len(_NAME_ALPHABET)] for b in self.take(self.byte() % 20 + 1)).strip()


def _quoted_like_browsers(value: str) -> str:
    return value.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22")


def _disposition(part: email.message.Message, key: str) -> str | None:
    raw = part.get_param(key, header="content-disposition", unquote=False)
    if raw is None:
        return None
    assert raw.startswith('"') and raw.endswith('"'), raw
    return raw[1:-1]


def check_multipart(data: bytes) -> None:
    src = _Reader(data)
    fields: dict[str, object] = {}
    expected: dict[str, tuple[str | None, str, bytes]] = {}
    for _ in range(src.byte() % 8 + 1):
        kind, name = src.byte() % 4, src.name()
        content = src.take(src.byte() + 256 * (src.byte() % 4))
        if not name:
            continue
        if kind == 0:
            text = content.decode(errors="replace")
            fields[name], expected[name] = text, (None, "text/plain", text.encode())
        elif kind == 1:
            fields[name], expected[name] = content, (None, "application/octet-stream", content)
        else:
            filename = src.name() or "f"
            if kind == 2:
                fields[name] = (filename, content)
                expected[name] = (filename, "application/octet-stream", content)
            else:
                content_type = _CONTENT_TYPES[src.byte() % len(_CONTENT_TYPES)]
                fields[name] = (filename, content, content_type)
                expected[name] = (filename, content_type.partition(";")[0], content)
    if not fields:
        return
    upload = encode_form(fields, infer_mime=False)
    body = b"".join(upload.source)
    assert len(body) == upload.length, (len(body), upload.length)
    message = email.message_from_bytes(b"Content-Type: " + upload.content_type.encode() + b"\r\n\r\n" + body,
                                       policy=email.policy.HTTP)
    assert message.is_multipart() and not message.defects, message.defects
    parts = list(message.iter_parts())
    assert len(parts) == len(fields), (len(parts), len(fields))
    for (name, (filename, content_type, content)), part in zip(expected.items(), parts):
        assert _disposition(part, "name") == _quoted_like_browsers(name), (name, part["content-disposition"])
        want_file = None if filename is None else _quoted_like_browsers(filename)
        assert _disposition(part, "filename") == want_file, (filename, part["content-disposition"])
        assert part.get_content_type() == content_type, (content_type, part.get_content_type())
        assert part.get_payload(decode=True) == content, name


if __name__ == "__main__":  # replay: http_checks.py [cookie|multipart] FILE...
    check = {"cookie": check_cookie, "multipart": check_multipart}[sys.argv[1]]
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            check(f.read())
        print(f"{path}: ok")
