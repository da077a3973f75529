"""Redirect following (RFC 9110 §15.4): the next request after a 3xx, and the hop loop for both clients.

The native transport does the detection: with follow_redirects on, a 301/302/303/307/308 carrying Location is not
decoded or status-checked but raised as RedirectSignal with the raw Response, so a client that never meets a
redirect pays nothing here. The async verbs catch the signal at their await, and _http_send
(csrc/http/client/fast_path.cpp) catches it for the sync ones; both hand it to the client's _redirected /
_redirected_sync, which continue in follow_async / follow_sync; the policy path
(retries, auth, cookies, middleware) runs every hop through the same loop."""

from __future__ import annotations

from typing import Any

from boltwire import _core
from boltwire.http._errors import HTTPRedirectError

__all__ = ["CROSS_ORIGIN", "RedirectSignal", "next_hop"]

_http_url = _core._http_url
_http_redirect_url = _core._http_redirect_url

# Fields that carry credentials: never sent to another origin (scheme, host or port changed).
_CREDENTIALS = ("authorization", "cookie", "proxy-authorization")
# Fields that describe the body: dropped with it when a redirect turns the request into a GET.
_BODY_FIELDS = ("content-type", "content-length", "transfer-encoding", "content-encoding")
# skip_auth of a hop to another origin (truthy): the client's default_headers lose their credential fields too.
CROSS_ORIGIN = "cross-origin"


class RedirectSignal(Exception):
    """Internal: a redirect the client follows (raised by the native transport, caught by the client)."""

    def __init__(self, response: Any) -> None:
        super().__init__(response)
        self.response = response

    @property
    def status(self) -> int:
        return self.response.status

    @property
    def headers(self) -> Any:
        return self.response.headers


_core._http_set_redirect(RedirectSignal)


class Hops:
    """The state of one redirect chain: responses so far and the requests already made (loop detection)."""

    __slots__ = ("history", "seen", "max_redirects", "detect_loops")

    def __init__(self, max_redirects: int, detect_loops: bool) -> None:
        self.history: list[Any] = []
        self.seen: set[tuple[str, str]] = set()
        self.max_redirects = max_redirects
        self.detect_loops = detect_loops


def _origin(url: str) -> tuple[bool, str, int]:
    https, host, port = _http_url(url)[:3]
    return https, host, port


def next_hop(req: Any, signal: RedirectSignal, hops: Hops, https_only: bool, skip_auth: bool) -> tuple[Any, bool]:
    """(the request to send after `signal`'s response, skip_auth for it); raises HTTPRedirectError when the chain
    must stop. `req` is an OutgoingRequest (method, url, headers, body); a new one is returned."""
    from boltwire.http._session import OutgoingRequest

    response = signal.response
    hops.seen.add((req.method, req.url))
    hops.history.append(response)
    if len(hops.history) > hops.max_redirects:
        raise HTTPRedirectError(f"more than {hops.max_redirects} redirects (max_redirects); last to "
                                f"{response.headers.get('location')!r}", hops.history)
    location = response.headers.get("location", "")
    try:
        parts = _http_redirect_url(req.url, location.strip())
    except ValueError as exc:
        raise HTTPRedirectError(f"cannot follow the redirect from {req.url}: {exc}", hops.history) from None
    url = parts[5]
    if https_only and not parts[0]:
        raise HTTPRedirectError(f"https_only is set and the redirect goes to {url!r}", hops.history)
    status = response.status
    method, body, headers = req.method, req.body, req.headers.copy()
    # RFC 9110 §15.4.2-4: 301/302 (historically) and 303 (by definition) become GET without a body; 307/308 keep
    # the method and the body. HEAD stays HEAD.
    if status in (301, 302, 303) and method != "HEAD":
        method, body = "GET", None
        for name in _BODY_FIELDS:
            headers.pop(name, None)
    if (method, url) in hops.seen and hops.detect_loops:
        raise HTTPRedirectError(f"redirect loop: {method} {url} was already requested", hops.history)
    # Credentials stay with the origin they were given for (an https -> http change is an origin change too).
    if _origin(url) != _origin(req.url):
        for name in _CREDENTIALS:
            headers.pop(name, None)
        skip_auth = CROSS_ORIGIN
    return OutgoingRequest(method, url, headers, body), skip_auth
