"""The cookie store of a client with cookie_store=True: RFC 6265 parsing (§5.2), storage (§5.3) and retrieval (§5.4).

Written in Python on purpose: cookies run on the policy path only (a client without cookie_store never calls in
here), the work per response is a few string splits, and one parser in the language of the jar avoids a second copy
of the grammar across the C API. It is fuzzed with hypothesis (tests/http/test_cookie_parser.py).

What a client does differently from a browser: SameSite is ignored (there are no cross-site requests), HttpOnly is
kept but changes nothing, and there is no public suffix list; instead a Domain attribute without a dot (a bare TLD
such as "com") is refused unless it names the request host itself, and a Domain attribute on a request to an IP
address must be that address."""

from __future__ import annotations

import ipaddress
import threading
import time
from typing import Any, Callable, Iterator

from boltwire import _core

__all__ = ["Cookie", "CookieJar", "parse_cookie_date", "parse_set_cookie"]

_http_url = _core._http_url

MAX_COOKIE_BYTES = 4096      # name + value + attributes of one Set-Cookie (RFC 6265 §6.1: at least 4096)
MAX_PER_DOMAIN = 50          # §6.1: at least 50 per domain; the oldest go first
MAX_COOKIES = 3000           # §6.1: at least 3000 in all
_MAX_EXPIRY = 253402300799.0  # 9999-12-31T23:59:59Z: later dates are clamped (§5.2.1)


class Cookie:
    """One stored cookie. ``expires`` is a POSIX time or None for a session cookie; ``host_only`` means it goes back
    only to ``domain`` itself (no Domain attribute was given)."""

    __slots__ = ("name", "value", "domain", "path", "expires", "secure", "http_only", "host_only", "created")

    def __init__(self, name: str, value: str, domain: str, path: str = "/", expires: float | None = None,
                 secure: bool = False, http_only: bool = False, host_only: bool = False,
                 created: float = 0.0) -> None:
        self.name, self.value, self.domain, self.path = name, value, domain, path
        self.expires, self.secure, self.http_only, self.host_only = expires, secure, http_only, host_only
        self.created = created

    def __repr__(self) -> str:
        return f"<Cookie {self.name}={self.value!r} for {self.domain}{self.path}>"


# ---- parsing (RFC 6265 §5.2) ------------------------------------------------------------------------------------

_MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                           "nov", "dec"))}
# §5.1.1 delimiter: %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E
_DELIMITERS = frozenset([0x09, *range(0x20, 0x30), *range(0x3B, 0x41), *range(0x5B, 0x61), *range(0x7B, 0x7F)])


def _leading_digits(token: str, lo: int, hi: int) -> int | None:
    """The value of `token`'s leading lo..hi digits when a non-digit (or the end) follows them."""
    n = 0
    while n < len(token) and n < hi and "0" <= token[n] <= "9":
        n += 1
    if n < lo or (n < len(token) and "0" <= token[n] <= "9"):
        return None
    return int(token[:n])


def _parse_time(token: str) -> tuple[int, int, int] | None:
    parts = token.split(":")
    if len(parts) != 3:
        return None
    out = []
    for i, p in enumerate(parts):
        if i < 2:
            if not (1 <= len(p) <= 2 and p.isascii() and p.isdigit()):
                return None
            out.append(int(p))
        else:
            v = _leading_digits(p, 1, 2)
            if v is None:
                return None
            out.append(v)
    return out[0], out[1], out[2]


def parse_cookie_date(text: str) -> float | None:
    """A cookie-date (RFC 6265 §5.1.1, the forgiving algorithm) as a POSIX time, or None when it is not one."""
    tokens, cur = [], []
    for ch in text:
        if ord(ch) in _DELIMITERS:
            if cur:
                tokens.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        tokens.append("".join(cur))
    clock = day = month = year = None
    for token in tokens:
        if clock is None:
            clock = _parse_time(token)
            if clock is not None:
                continue
        if day is None:
            day = _leading_digits(token, 1, 2)
            if day is not None:
                continue
        if month is None and token[:3].lower() in _MONTHS:
            month = _MONTHS[token[:3].lower()]
            continue
        if year is None:
            year = _leading_digits(token, 2, 4)
            if year is not None:
                continue
    if clock is None or day is None or month is None or year is None:
        return None
    if 70 <= year <= 99:
        year += 1900
    elif 0 <= year <= 69:
        year += 2000
    hour, minute, second = clock
    if not 1 <= day <= 31 or year < 1601 or hour > 23 or minute > 59 or second > 59:
        return None
    import calendar

    if day > calendar.monthrange(year, month)[1]:
        return None
    return float(calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)))


class SetCookie:
    """A parsed Set-Cookie field: name, value and the attributes a client uses (§5.2.1-6)."""

    __slots__ = ("name", "value", "expires", "max_age", "domain", "path", "secure", "http_only")

    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value
        self.expires: float | None = None
        self.max_age: int | None = None
        self.domain: str | None = None
        self.path: str | None = None
        self.secure = False
        self.http_only = False


def parse_set_cookie(field: str) -> SetCookie | None:
    """One Set-Cookie field value, or None when §5.2 says to ignore it (no "=", an empty name, too long)."""
    if len(field) > MAX_COOKIE_BYTES or any(ch in field for ch in "\x00\r\n"):
        return None
    pair, _, rest = field.partition(";")
    name, eq, value = pair.partition("=")
    name, value = name.strip(" \t"), value.strip(" \t")
    if not eq or not name:
        return None
    cookie = SetCookie(name, value)
    for attribute in rest.split(";") if rest else ():
        key, _, val = attribute.partition("=")
        key, val = key.strip(" \t").lower(), val.strip(" \t")
        if key == "expires":
            cookie.expires = parse_cookie_date(val)
        elif key == "max-age":
            digits = val[1:] if val[:1] == "-" else val
            if digits and digits.isascii() and digits.isdigit():
                cookie.max_age = int(val) if len(digits) < 12 else (-1 if val[0] == "-" else 10 ** 11)
        elif key == "domain":
            domain = val[1:] if val[:1] == "." else val
            if domain:
                cookie.domain = domain.lower()
        elif key == "path":
            cookie.path = val if val[:1] == "/" else None
        elif key == "secure":
            cookie.secure = True
        elif key == "httponly":
            cookie.http_only = True
    return cookie


# ---- matching (§5.1.3, §5.1.4) ----------------------------------------------------------------------------------


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def domain_match(host: str, domain: str) -> bool:
    """§5.1.3: `host` is `domain` or a name under it (never for an IP address)."""
    return host == domain or (host.endswith("." + domain) and not _is_ip(host))


def path_match(request_path: str, cookie_path: str) -> bool:
    """§5.1.4."""
    if request_path == cookie_path:
        return True
    return request_path.startswith(cookie_path) and (cookie_path.endswith("/") or
                                                     request_path[len(cookie_path)] == "/")


def default_path(request_path: str) -> str:
    """§5.1.4: the request path up to (not including) its last "/", or "/"."""
    if request_path[:1] != "/":
        return "/"
    cut = request_path.rfind("/")
    return "/" if cut <= 0 else request_path[:cut]


def _url_parts(url: str) -> tuple[bool, str, str]:
    """(https, host, path without the query) of an absolute request URL."""
    https, host, _, _, target = _http_url(url)[:5]
    return https, host, target.partition("?")[0]


# ---- the jar ----------------------------------------------------------------------------------------------------


class CookieJar:
    """The cookies of one client (``client.cookies``): filled from responses' Set-Cookie fields and sent back by RFC
    6265's rules. Read with ``get`` / iteration, change with ``set`` / ``delete`` / ``clear``. Thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._cookies: dict[tuple[str, str, str], Cookie] = {}  # (domain, path, name) -> cookie
        self._lock = threading.Lock()
        self._clock = clock

    # -- from responses

    def extract(self, url: str, fields: list[str]) -> None:
        """Stores what the Set-Cookie `fields` of the response to `url` set (§5.3); fields to ignore are ignored."""
        if not fields:
            return
        https, host, path = _url_parts(url)
        for field in fields:
            parsed = parse_set_cookie(field)
            if parsed is not None:
                self._store(parsed, https, host, path)

    def _store(self, c: SetCookie, https: bool, host: str, request_path: str) -> None:
        now = self._clock()
        if c.max_age is not None:
            expires: float | None = now + c.max_age if c.max_age > 0 else float("-inf")
        elif c.expires is not None:
            expires = min(c.expires, _MAX_EXPIRY)
        else:
            expires = None
        if c.domain is None:
            domain, host_only = host, True
        elif "." not in c.domain or _is_ip(host):
            # A bare TLD (the public-suffix step of §5.3 without a list) and any Domain on a request to an IP
            # address: allowed only when it names the request host itself, and then host-only.
            if c.domain != host:
                return
            domain, host_only = host, True
        elif domain_match(host, c.domain):
            domain, host_only = c.domain, False
        else:
            return  # a cookie for another domain
        if c.secure and not https:
            return  # a Secure cookie set over plain http could be a network attacker's (RFC 6265bis §5.6)
        path = c.path or default_path(request_path)
        key = (domain, path, c.name)
        with self._lock:
            old = self._cookies.get(key)
            if expires is not None and expires <= now:
                self._cookies.pop(key, None)  # an expiry in the past deletes the cookie (§5.3 step 11)
                return
            # Assigning to an existing key keeps its place: the dict's order is the creation order (§5.4 sorts by it).
            created = old.created if old is not None else now
            self._cookies[key] = Cookie(c.name, c.value, domain, path, expires, c.secure, c.http_only, host_only,
                                        created)
            self._evict(domain, now)

    def _evict(self, domain: str, now: float) -> None:
        """Expired cookies first, then the oldest of an over-full domain or jar (§5.3 last paragraph)."""
        cookies = self._cookies
        same = [k for k in cookies if k[0] == domain]
        if len(same) <= MAX_PER_DOMAIN and len(cookies) <= MAX_COOKIES:
            return
        for key in [k for k, c in cookies.items() if c.expires is not None and c.expires <= now]:
            del cookies[key]
        same = [k for k in cookies if k[0] == domain]  # oldest first (dict order)
        for key in same[:max(0, len(same) - MAX_PER_DOMAIN)]:
            del cookies[key]
        for key in list(cookies)[:max(0, len(cookies) - MAX_COOKIES)]:
            del cookies[key]

    # -- for requests

    def header_for(self, url: str) -> str | None:
        """The Cookie field value for a request to `url` (§5.4), or None when no cookie applies."""
        if not self._cookies:
            return None
        https, host, path = _url_parts(url)
        now = self._clock()
        chosen = []
        with self._lock:
            for key, c in list(self._cookies.items()):
                if c.expires is not None and c.expires <= now:
                    del self._cookies[key]
                    continue
                if (host == c.domain if c.host_only else domain_match(host, c.domain)) and \
                        path_match(path, c.path) and (https or not c.secure):
                    chosen.append(c)
        if not chosen:
            return None
        chosen.sort(key=lambda c: -len(c.path))  # stable: equal paths stay in creation order
        return "; ".join(f"{c.name}={c.value}" for c in chosen)

    # -- the public face (client.cookies)

    def set(self, name: str, value: str, domain: str, path: str = "/", *, expires: float | None = None,
            secure: bool = False, host_only: bool = False) -> None:
        """Sets a cookie for `domain` (and its subdomains unless host_only) under `path`."""
        if not isinstance(name, str) or not name or any(ch in name for ch in "=; \t\r\n\x00"):
            raise ValueError(f"invalid cookie name: {name!r}")
        if not isinstance(value, str) or any(ch in value for ch in ";\r\n\x00"):
            raise ValueError(f"invalid cookie value: {value!r}")
        if not isinstance(domain, str) or not domain.strip("."):
            raise ValueError("set() needs the domain the cookie is for")
        if not isinstance(path, str) or path[:1] != "/":
            raise ValueError(f"cookie path must start with '/', got {path!r}")
        domain = domain.lstrip(".").lower()
        with self._lock:
            self._cookies[(domain, path, name)] = Cookie(name, value, domain, path, expires, secure, False,
                                                         host_only, self._clock())

    def get(self, name: str, domain: str | None = None, path: str | None = None) -> str | None:
        """The value of cookie `name` (the first match when domain / path are not given), or None."""
        for c in self:
            if c.name == name and (domain is None or c.domain == domain.lstrip(".").lower()) and \
                    (path is None or c.path == path):
                return c.value
        return None

    def delete(self, name: str, domain: str | None = None, path: str | None = None) -> int:
        """Removes the matching cookies; returns how many."""
        with self._lock:
            keys = [k for k in self._cookies if k[2] == name and (domain is None or k[0] == domain.lstrip(".").lower())
                    and (path is None or k[1] == path)]
            for k in keys:
                del self._cookies[k]
        return len(keys)

    def clear(self, domain: str | None = None) -> None:
        """Removes every cookie, or those of `domain`."""
        with self._lock:
            if domain is None:
                self._cookies.clear()
            else:
                d = domain.lstrip(".").lower()
                for k in [k for k in self._cookies if k[0] == d]:
                    del self._cookies[k]

    def __iter__(self) -> Iterator[Cookie]:
        now = self._clock()
        with self._lock:
            live = [c for c in self._cookies.values() if c.expires is None or c.expires > now]
        return iter(live)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, name: Any) -> bool:
        return any(c.name == name for c in self)

    def __getitem__(self, name: str) -> str:
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return value

    def __repr__(self) -> str:
        return f"<CookieJar {list(self)!r}>"
