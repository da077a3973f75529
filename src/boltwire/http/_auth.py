"""Per-request authentication: bearer providers (sync or async, invalidated on 401) and HTTP Digest (RFC 7616).

Static credentials (bearer_token=, basic_auth=) are default headers written once into the cached request heads;
only what must be computed per request lives here."""

from __future__ import annotations

import hashlib
import inspect
import os
import re
import threading
from typing import Any, Awaitable, Protocol, runtime_checkable
from urllib.parse import urlsplit

__all__ = ["AuthProvider", "BearerAuth", "DigestAuth", "SyncAuthProvider"]


@runtime_checkable
class AuthProvider(Protocol):
    """bearer_auth= for HTTPClient: called per request for the token; ``invalidate(token)`` (optional) is called
    after a 401 so that the next call fetches a new one."""

    def __call__(self) -> Awaitable[str]: ...


@runtime_checkable
class SyncAuthProvider(Protocol):
    """bearer_auth= for SyncHTTPClient: called per request for the token; ``invalidate(token)`` optional."""

    def __call__(self) -> str: ...


class BearerAuth:
    """Authorization: Bearer <provider()> per request. After a 401 the rejected token is invalidated (when the
    provider can), and an idempotent request is sent once more with a fresh token."""

    __slots__ = ("provider", "invalidate")
    resend_any_method = False

    def __init__(self, provider: Any) -> None:
        if not callable(provider):
            raise TypeError(f"bearer_auth must be a callable returning the token, got {type(provider).__name__}")
        self.provider = provider
        self.invalidate = getattr(provider, "invalidate", None)

    def header(self, method: str, url: str) -> str:
        token = self.provider()
        if inspect.isawaitable(token):
            if hasattr(token, "close"):
                token.close()
            raise TypeError("SyncHTTPClient's bearer_auth must return the token, not an awaitable")
        return _bearer(token)

    async def aheader(self, method: str, url: str) -> str:
        token = self.provider()
        if inspect.isawaitable(token):
            token = await token
        return _bearer(token)

    def rejected(self, sent: str | None, headers: Any) -> bool:
        """After a 401: drop the token that was sent; True when a fresh one may be fetched and the request resent."""
        if self.invalidate is None:
            return False
        self.invalidate(sent[7:] if sent is not None and sent.startswith("Bearer ") else None)
        return True


def _bearer(token: Any) -> str:
    if not isinstance(token, str):
        raise TypeError(f"bearer_auth must give the token as str, got {type(token).__name__}")
    return f"Bearer {token}"


# ---- Digest (RFC 7616) ------------------------------------------------------------------------------------------

_HASHES = {"MD5": hashlib.md5, "SHA-256": hashlib.sha256}
_PARAM = re.compile(r'([!#$%&\'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,]*)')


def parse_digest_challenges(values: list[str]) -> list[dict[str, str]]:
    """Every Digest challenge in WWW-Authenticate values (RFC 7235 §4.1 auth-params; names lower-cased)."""
    out = []
    for value in values:
        for m in re.finditer(r"(?i)\bdigest\s+", value):
            rest = value[m.end():]
            nxt = re.search(r"(?i)(?:^|,)\s*(?:basic|bearer|digest|negotiate)\s+(?![^,]*=)", rest)
            if nxt:
                rest = rest[: nxt.start()]
            params = {}
            for pm in _PARAM.finditer(rest):
                v = pm.group(2)
                if v.startswith('"'):
                    v = re.sub(r"\\(.)", r"\1", v[1:-1])
                params[pm.group(1).lower()] = v
            if "nonce" in params and "realm" in params:
                out.append(params)
    return out


class DigestAuth:
    """HTTP Digest access authentication (RFC 7616): MD5 and SHA-256 (and their -sess forms), qop=auth. The first
    request goes without credentials; a 401 carrying a Digest challenge is answered once, and later requests reuse
    the challenge with an increasing nonce count."""

    resend_any_method = True  # a digest 401 rejects the request before it is processed

    def __init__(self, username: str, password: str) -> None:
        if not isinstance(username, str) or not isinstance(password, str):
            raise TypeError("digest_auth must be a (username, password) pair of str")
        self.username = username
        self.password = password
        self._lock = threading.Lock()
        self._challenge: dict[str, str] | None = None
        self._nc = 0

    def header(self, method: str, url: str) -> str | None:
        with self._lock:
            challenge = self._challenge
            if challenge is None:
                return None
            self._nc += 1
            nc = self._nc
        return self.authorization(challenge, method, url, nc, os.urandom(8).hex())

    async def aheader(self, method: str, url: str) -> str | None:
        return self.header(method, url)

    def rejected(self, sent: str | None, headers: Any) -> bool:
        challenges = parse_digest_challenges(headers.get_all("www-authenticate"))
        usable = [c for c in challenges if c.get("algorithm", "MD5").upper().removesuffix("-SESS") in _HASHES]
        if not usable:
            return False
        # The strongest algorithm offered (RFC 7616 §3.7: in the server's order of preference, SHA-256 first).
        usable.sort(key=lambda c: 0 if c.get("algorithm", "MD5").upper().startswith("SHA-256") else 1)
        with self._lock:
            self._challenge = usable[0]
            self._nc = 0
        return True

    def authorization(self, c: dict[str, str], method: str, url: str, nc: int, cnonce: str) -> str:
        """The Authorization value answering challenge `c` for (method, url) (RFC 7616 §3.4)."""
        algorithm = c.get("algorithm", "MD5")
        base = algorithm.upper().removesuffix("-SESS")
        h = _HASHES[base]

        def hx(text: str) -> str:
            return h(text.encode("utf-8")).hexdigest()

        parts = urlsplit(url)
        uri = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        realm, nonce = c["realm"], c["nonce"]
        ha1 = hx(f"{self.username}:{realm}:{self.password}")
        if algorithm.upper().endswith("-SESS"):
            ha1 = hx(f"{ha1}:{nonce}:{cnonce}")
        ha2 = hx(f"{method}:{uri}")
        qops = [q.strip() for q in c.get("qop", "").split(",") if q.strip()]
        fields = [f'username="{_quote(self.username)}"', f'realm="{_quote(realm)}"', f'nonce="{_quote(nonce)}"',
                  f'uri="{_quote(uri)}"', f"algorithm={algorithm}"]
        if "auth" in qops:
            ncv = f"{nc:08x}"
            response = hx(f"{ha1}:{nonce}:{ncv}:{cnonce}:auth:{ha2}")
            fields += ["qop=auth", f"nc={ncv}", f'cnonce="{cnonce}"']
        else:  # RFC 2069 compatibility (no qop offered)
            response = hx(f"{ha1}:{nonce}:{ha2}")
        fields.append(f'response="{response}"')
        if "opaque" in c:
            fields.append(f'opaque="{_quote(c["opaque"])}"')
        return "Digest " + ", ".join(fields)


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
