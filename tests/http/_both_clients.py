"""tests/http/_both_clients.py: run the same requests through HTTPClient (asyncio) or SyncHTTPClient, one client for a
sequence, so a test parametrized with `both` checks the two clients with one body."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Iterable

import pytest

from boltwire.http import HTTPClient, SyncHTTPClient

both = pytest.mark.parametrize("is_async", [True, False], ids=["async", "sync"])

Steps = Iterable[tuple[str, str, dict]]


def session(is_async: bool, steps: Steps | Callable[[Any], Steps], **options: Any) -> tuple[Any, list]:
    """Sends each (method, url, kwargs) of `steps` (or of steps(client), a generator that may touch the client between
    requests) with one client built from `options`; returns (client, responses)."""
    if is_async:
        async def go() -> tuple[Any, list]:
            async with HTTPClient(**options) as client:
                return client, [await client.request(m, u, **kw) for m, u, kw in _steps(steps, client)]

        return asyncio.run(go())
    with SyncHTTPClient(**options) as client:
        return client, [client.request(m, u, **kw) for m, u, kw in _steps(steps, client)]


def _steps(steps: Steps | Callable[[Any], Steps], client: Any) -> Steps:
    return steps(client) if callable(steps) else steps


def request(is_async: bool, method: str, url: str, client: dict | None = None, **kwargs: Any) -> Any:
    """One request with a fresh client (options in `client`); returns the Response."""
    return session(is_async, [(method, url, kwargs)], **(client or {}))[1][0]


def get_all(is_async: bool, urls: list[str], **options: Any) -> list:
    """GET each URL in order with one client; returns the responses."""
    return session(is_async, [("GET", u, {}) for u in urls], **options)[1]
