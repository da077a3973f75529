"""OAuth 2.0 client-credentials token providers (RFC 6749 §4.4) for bearer_auth=: cached, renewed before expiry,
one renewal at a time however many requests wait for it."""

from __future__ import annotations

import asyncio
import base64
import threading
import time
from typing import Any, Callable, Literal
from urllib.parse import quote

from boltwire.http._errors import HTTPError

__all__ = ["OAuthProvider", "OAuthTokenError", "SyncOAuthProvider"]


class OAuthTokenError(HTTPError):
    """The token endpoint did not give a usable token; ``token_url`` says which, ``__cause__`` why."""

    def __init__(self, token_url: str, error: BaseException | str) -> None:
        self.token_url = token_url
        super().__init__(f"Failed to obtain an access token from {token_url}: {error}")

    def __reduce__(self) -> Any:
        return (OAuthTokenError, (self.token_url, str(self).split(": ", 1)[-1]))


class _Token:
    __slots__ = ("access_token", "expires_at", "expires_in")

    def __init__(self, access_token: str, expires_at: float, expires_in: float) -> None:
        self.access_token = access_token
        self.expires_at = expires_at
        self.expires_in = expires_in


class _ProviderBase:  # OAuthProvider / SyncOAuthProvider share __init__ (keyword-only settings)
    """Settings and the parts shared by the async and the sync provider: the token request and reading its answer."""

    def __init__(self, *, token_url: str, client_id: str, client_secret: str, scope: str | None = None,
                 client_auth: Literal["basic", "body"] = "basic", refresh_leeway: float = 300.0,
                 default_expires_in: float | None = None, client_factory: Callable[[], Any] | None = None) -> None:
        if client_auth not in ("basic", "body"):
            raise ValueError('client_auth must be "basic" or "body"')
        if not isinstance(refresh_leeway, (int, float)) or refresh_leeway < 0:
            raise ValueError("refresh_leeway must be a non-negative number")
        self.token_url = token_url
        self._client_id = client_id
        self._client_secret = client_secret
        self._scope = scope
        self._client_auth = client_auth
        self._refresh_leeway = float(refresh_leeway)
        self._default_expires_in = default_expires_in
        self._client_factory = client_factory
        self._clock: Callable[[], float] = time.time  # epoch seconds; replaceable in tests
        self._token: _Token | None = None
        self.fetches = 0  # tokens requested so far (for monitoring and tests)
        self._init_lock()

    def _init_lock(self) -> None:
        raise NotImplementedError

    def _fresh(self) -> str | None:
        """The cached token when it is not within the refresh leeway of its expiry (the leeway at most half the
        token's lifetime, so that a short-lived token is not renewed on every call)."""
        token = self._token
        if token is None:
            return None
        leeway = min(self._refresh_leeway, token.expires_in / 2)
        return token.access_token if self._clock() < token.expires_at - leeway else None

    def invalidate(self, stale_access_token: str | None = None) -> None:
        """Forget the cached token (only if it is still `stale_access_token`, when given: a token renewed since the
        rejected request was sent is kept)."""
        token = self._token
        if token is not None and (stale_access_token is None or token.access_token == stale_access_token):
            self._token = None

    def _request(self) -> tuple[dict[str, str], dict[str, str]]:
        """(form fields, headers) of the token request."""
        form = {"grant_type": "client_credentials"}
        if self._scope:
            form["scope"] = self._scope
        headers = {"Accept": "application/json"}
        if self._client_auth == "basic":  # RFC 6749 §2.3.1: form-urlencoded id and secret, then Basic
            pair = f"{quote(self._client_id, safe='')}:{quote(self._client_secret, safe='')}"
            headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode("ascii")
        else:
            form["client_id"] = self._client_id
            form["client_secret"] = self._client_secret
        return form, headers

    def _accept(self, payload: Any) -> str:
        """Caches the token from the endpoint's JSON answer (RFC 6749 §5.1) and returns it."""
        if not isinstance(payload, dict) or not isinstance(payload.get("access_token"), str):
            raise OAuthTokenError(self.token_url, "the answer has no access_token")
        expires_in = payload.get("expires_in", self._default_expires_in)
        if expires_in is None:
            expires_in = 3600.0
        try:
            expires_in = float(expires_in)
        except (TypeError, ValueError):
            raise OAuthTokenError(self.token_url, f"expires_in is not a number: {expires_in!r}") from None
        self._token = _Token(payload["access_token"], self._clock() + expires_in, expires_in)
        self.fetches += 1
        return payload["access_token"]


class OAuthProvider(_ProviderBase):
    """bearer_auth= for HTTPClient: ``await provider()`` gives a valid access token, fetching one with the
    client-credentials grant when there is none or it is about to expire. Concurrent callers wait for the one
    renewal in flight (a lock per event loop)."""

    def _init_lock(self) -> None:
        self._locks: dict[Any, asyncio.Lock] = {}

    async def __call__(self) -> str:
        token = self._fresh()
        if token is not None:
            return token
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            lock = self._locks[loop] = asyncio.Lock()
        async with lock:
            token = self._fresh()  # renewed while this caller waited
            if token is not None:
                return token
            return await self._fetch()

    async def _fetch(self) -> str:
        from boltwire.http._client import HTTPClient

        form, headers = self._request()
        factory = self._client_factory or HTTPClient
        try:
            async with factory() as client:
                r = await client.post(self.token_url, data=form, headers=headers, response_data_type=dict)
        except Exception as exc:
            raise OAuthTokenError(self.token_url, exc) from exc
        return self._accept(r.data)


class SyncOAuthProvider(_ProviderBase):
    """bearer_auth= for SyncHTTPClient: ``provider()`` gives a valid access token (see OAuthProvider); one renewal
    at a time across threads."""

    def _init_lock(self) -> None:
        self._lock = threading.Lock()

    def __call__(self) -> str:
        token = self._fresh()
        if token is not None:
            return token
        with self._lock:
            token = self._fresh()
            if token is not None:
                return token
            from boltwire.http._client import SyncHTTPClient

            form, headers = self._request()
            factory = self._client_factory or SyncHTTPClient
            try:
                with factory() as client:
                    r = client.post(self.token_url, data=form, headers=headers, response_data_type=dict)
            except Exception as exc:
                raise OAuthTokenError(self.token_url, exc) from exc
            return self._accept(r.data)
