"""The policy path of a request: middleware, auth providers and retries, in the caller's one frame.

A verb takes this path only when its client has a policy (max_retries, bearer_auth / digest_auth, middleware) or
the call passes per-call options (response_headers_type=, error_type= / raises=, skip_auth=); otherwise it goes
straight to the native transport. Attempts loop here, inside the calling coroutine (or thread): no task per
attempt. Each attempt is one native exchange whose status and body are checked natively, as on the plain path."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any, Callable, Sequence

from boltwire.http._auth import BearerAuth, DigestAuth
from boltwire.http._codecs import resolve_decoder
from boltwire.http._errors import HTTPResponseError, HTTPTransportError
from boltwire.http._policy import RetryPolicy, error_spec, typed_headers
from boltwire.http._redirects import Hops, RedirectSignal, next_hop
from boltwire.http._response import CaseInsensitiveDict

__all__ = ["ClientPolicy", "OutgoingRequest", "follow_async", "follow_sync", "run_async", "run_sync"]

# Methods a transport error may resend (RFC 9110 §9.2.2: idempotent); POST and PATCH never.
IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"})


class OutgoingRequest:
    """What middleware sees and may change before it is sent: method, url (absolute, with the query), headers
    (a CaseInsensitiveDict of the call's own headers; the client's defaults are added when the head is written),
    body (bytes or None) and extensions (a dict for middleware's own use)."""

    __slots__ = ("method", "url", "headers", "body", "extensions")

    def __init__(self, method: str, url: str, headers: Any = None, body: bytes | None = None) -> None:
        self.method = method
        self.url = url
        self.headers = headers if isinstance(headers, CaseInsensitiveDict) else CaseInsensitiveDict(headers)
        self.body = body
        self.extensions: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"<OutgoingRequest {self.method} {self.url}>"


class ClientPolicy:
    """A client's retries, per-request auth, middleware and cookie jar; `make` gives None when there is none of
    them."""

    __slots__ = ("retry", "auth", "middleware", "cookies")

    def __init__(self, retry: RetryPolicy | None, auth: Any, middleware: tuple, cookies: Any = None) -> None:
        self.retry = retry
        self.auth = auth
        self.middleware = middleware
        self.cookies = cookies

    @classmethod
    def make(cls, is_async: bool, max_retries: int, retry_methods: Any, retry_statuses: Any, backoff_base: float,
             backoff_max: float, max_retry_after: float | None, bearer_auth: Any, digest_auth: Any,
             middleware: Sequence[Callable[..., Any]] | None, cookies: Any = None) -> "ClientPolicy | None":
        retry = RetryPolicy(max_retries, retry_methods, retry_statuses, backoff_base, backoff_max, max_retry_after)
        auth: Any = None
        if bearer_auth is not None:
            auth = BearerAuth(bearer_auth)
        elif digest_auth is not None:
            if not isinstance(digest_auth, (tuple, list)) or len(digest_auth) != 2:
                raise TypeError("digest_auth must be a (username, password) pair")
            auth = DigestAuth(*digest_auth)
        mws = tuple(middleware or ())
        for mw in mws:
            if not callable(mw):
                raise TypeError(f"middleware must be callables (request, call_next), got {type(mw).__name__}")
        if max_retries == 0 and auth is None and not mws and cookies is None:
            return None
        return cls(retry if max_retries > 0 else None, auth, mws, cookies)


def _outgoing(client: Any, method: str, url: str, params: Any, headers: Any, json: Any, content: Any,
              data: Any) -> OutgoingRequest:
    full = client._full_url(url, params)
    body, content_type = client._encode_body(json, content, data)
    h = CaseInsensitiveDict(client._header_items(headers) if headers else None)
    if content_type is not None and "content-type" not in h:
        h["Content-Type"] = content_type
    return OutgoingRequest(method, full, h, body)


def _spec(client: Any, tp: Any, error_for_status: Any, error_type: Any, raises: Any) -> tuple[Any, Any]:
    dec, errors = client._response_spec(tp, error_for_status)
    if errors is not False:
        errors = error_spec(raises, error_type, resolve_decoder) or errors
    elif raises is not None or error_type is not None:
        error_spec(raises, error_type, resolve_decoder)  # still checked: a bad class is always a TypeError
    return dec, errors



def _next_step(policy: ClientPolicy, auth: Any, req: OutgoingRequest, outcome: Any, attempt: int, sent: Any,
               reauthed: bool) -> tuple[str, float]:
    """After an attempt that got a response (or a status error): ("auth", 0) to resend with fresh credentials,
    ("retry", delay), or ("done", 0)."""
    status = outcome.status
    if status == 401 and auth is not None and not reauthed and auth.rejected(sent, outcome.headers):
        if auth.resend_any_method or req.method in IDEMPOTENT:
            return "auth", 0.0
    retry = policy.retry
    if retry is not None and attempt <= retry.max_retries and req.method in retry.methods:
        delay = retry.delay_for_status(attempt, status, outcome.headers)
        if delay is not None:
            return "retry", delay
    return "done", 0.0


def _transport_retry(policy: ClientPolicy, req: OutgoingRequest, attempt: int) -> float | None:
    """The wait before resending after a transport error, or None: only idempotent methods (RFC 9110 §9.2.2)."""
    retry = policy.retry
    if retry is not None and attempt <= retry.max_retries and req.method in retry.methods and req.method in IDEMPOTENT:
        return retry.backoff(attempt)
    return None


def _attempts(policy: ClientPolicy | None, req: OutgoingRequest, skip_auth: bool) -> Any:
    """The attempt loop, written once for both clients: a generator that yields what to do to its driver
    (_attempts_async / _attempts_sync) and gets the result back:

    ("auth", auth) -> the Authorization value or None; ("send", headers) -> the Response, or the HTTPResponseError /
    HTTPTransportError / RedirectSignal instance the exchange ended with; ("sleep", seconds) -> None.
    It returns the final Response (or the RedirectSignal of a redirect to follow) or raises the final error (with
    .attempts). With a cookie jar, each attempt sends the jar's cookies for its URL and stores what the response
    sets."""
    auth = None if policy is None or skip_auth else policy.auth
    jar = None if policy is None else policy.cookies
    attempt = 0
    reauthed = False
    while True:
        attempt += 1
        sent = None
        headers = req.headers
        if auth is not None:
            sent = yield ("auth", auth)
            if sent is not None:
                headers = headers.copy()
                headers["Authorization"] = sent
        if jar is not None and "cookie" not in headers:
            cookie = jar.header_for(req.url)
            if cookie:
                headers = headers.copy()
                headers["Cookie"] = cookie
        outcome = yield ("send", headers)
        if jar is not None and not isinstance(outcome, HTTPTransportError):
            jar.extract(req.url, outcome.headers.get_all("set-cookie"))
        if isinstance(outcome, RedirectSignal):
            return outcome
        if isinstance(outcome, HTTPTransportError):
            delay = None if policy is None else _transport_retry(policy, req, attempt)
            if delay is None:
                outcome.attempts = attempt
                raise outcome
            yield ("sleep", delay)
            continue
        step, delay = ("done", 0.0) if policy is None else _next_step(policy, auth, req, outcome, attempt, sent,
                                                                       reauthed)
        if step == "done":
            if isinstance(outcome, BaseException):
                outcome.attempts = attempt
                raise outcome
            return outcome
        if step == "auth":
            reauthed = True
        else:
            yield ("sleep", delay)


# ---- redirects: the hop loop over the attempt loop ---------------------------------------------------------------


def _hops(client: Any) -> Hops:
    # Without a cookie store the same request gets the same answer: asking again is a loop. With one, a server
    # may redirect to the same URL after setting a cookie (a login flow), so only max_redirects stops it.
    policy = client._policy
    return Hops(client._max_redirects, policy is None or policy.cookies is None)


def _chain(client: Any, req: OutgoingRequest, skip_auth: bool, signal: RedirectSignal | None) -> Any:
    """The hop loop, written once for both clients: yields (request, skip_auth) for its driver to run through the
    attempt loop and gets the outcome back (a Response or a RedirectSignal); returns the final Response with its
    history. `signal`: the first hop already came back as this redirect."""
    hops = None
    while True:
        if signal is None:
            try:
                outcome = yield req, skip_auth
            except HTTPResponseError as error:  # the chain ended on an error status: it keeps the chain too
                if hops is not None:
                    error.history = hops.history
                raise
            if not isinstance(outcome, RedirectSignal):
                if hops is not None:
                    outcome.history = hops.history
                return outcome
            signal = outcome
        if hops is None:
            hops = _hops(client)
        req, skip_auth = next_hop(req, signal, hops, client._https_only, skip_auth)
        signal = None


async def _follow_async(client: Any, policy: ClientPolicy | None, req: OutgoingRequest, timeout: Any, dec: Any,
                        errors: Any, skip_auth: bool, signal: RedirectSignal | None = None) -> Any:
    steps = _chain(client, req, skip_auth, signal)
    value: Any = None
    try:
        while True:
            hop, hop_skip_auth = steps.send(value)
            try:
                value = await _attempts_async(client, policy, hop, timeout, dec, errors, hop_skip_auth)
            except HTTPResponseError as error:
                steps.throw(error)  # re-raised by _chain with the history on it
    except StopIteration as done:
        return done.value


def _follow_sync(client: Any, policy: ClientPolicy | None, req: OutgoingRequest, timeout: Any, dec: Any,
                 errors: Any, skip_auth: bool, signal: RedirectSignal | None = None) -> Any:
    steps = _chain(client, req, skip_auth, signal)
    value: Any = None
    try:
        while True:
            hop, hop_skip_auth = steps.send(value)
            try:
                value = _attempts_sync(client, policy, hop, timeout, dec, errors, hop_skip_auth)
            except HTTPResponseError as error:
                steps.throw(error)  # re-raised by _chain with the history on it
    except StopIteration as done:
        return done.value


async def follow_async(client: Any, signal: RedirectSignal, method: str, url: str, params: Any, headers: Any,
                       json: Any, content: Any, data: Any, timeout: Any, tp: Any, error_for_status: Any,
                       skip_auth: bool = False, raises: Any = None, error_type: Any = None) -> Any:
    """The verbs' plain path after the transport raised `signal` for their request: the rest of the chain. A verb
    with a streamed body (_streaming.send_async) passes its own skip_auth / raises / error_type on, and its client's
    policy (its cookie jar, retries; never auth or middleware, refused on streams) runs the later hops; on the plain
    path the client has none."""
    dec, errors = _spec(client, tp, error_for_status, error_type, raises)
    req = _outgoing(client, method, url, params, headers, json, content, data)
    return await _follow_async(client, client._policy, req, timeout, dec, errors, skip_auth, signal)


def follow_sync(client: Any, signal: RedirectSignal, method: str, url: str, params: Any, headers: Any, json: Any,
                content: Any, data: Any, timeout: Any, tp: Any, error_for_status: Any, skip_auth: bool = False,
                raises: Any = None, error_type: Any = None) -> Any:
    """follow_async for SyncHTTPClient."""
    dec, errors = _spec(client, tp, error_for_status, error_type, raises)
    req = _outgoing(client, method, url, params, headers, json, content, data)
    return _follow_sync(client, client._policy, req, timeout, dec, errors, skip_auth, signal)


# ---- async ------------------------------------------------------------------------------------------------------


async def run_async(client: Any, method: str, url: str, params: Any, headers: Any, json: Any, content: Any,
                    data: Any, timeout: Any, tp: Any, error_for_status: Any, headers_type: Any, error_type: Any,
                    raises: Any, skip_auth: bool) -> Any:
    dec, errors = _spec(client, tp, error_for_status, error_type, raises)
    req = _outgoing(client, method, url, params, headers, json, content, data)
    policy = client._policy

    async def attempts(r: OutgoingRequest) -> Any:
        return await _follow_async(client, policy, r, timeout, dec, errors, skip_auth)

    if policy is not None and policy.middleware:
        response = await _chain_async(policy.middleware, 0, req, attempts)
    else:
        response = await attempts(req)
    if headers_type is not None:
        response.typed_headers = typed_headers(headers_type, response.headers)
    return response


async def _chain_async(mws: tuple, i: int, req: OutgoingRequest, last: Callable[..., Any]) -> Any:
    if i == len(mws):
        return await last(req)

    def call_next(r: OutgoingRequest) -> Any:
        return _chain_async(mws, i + 1, r, last)

    result = mws[i](req, call_next)
    if inspect.isawaitable(result):
        result = await result
    return result


async def _attempts_async(client: Any, policy: ClientPolicy | None, req: OutgoingRequest, timeout: Any, dec: Any,
                          errors: Any, skip_auth: bool) -> Any:
    steps = _attempts(policy, req, skip_auth)
    value: Any = None
    try:
        while True:
            what, arg = steps.send(value)
            if what == "send":
                call = client._submit(req.method, req.url, arg.items(), req.body, timeout, dec, errors, skip_auth)
                try:
                    value = await call  # a cancelled task cancels the call it waits on (the call is its future)
                except (HTTPResponseError, HTTPTransportError, RedirectSignal) as e:
                    value = e
            elif what == "auth":
                value = await arg.aheader(req.method, req.url)
            else:
                value = await _async_sleep(policy, arg)  # type: ignore[arg-type]
    except StopIteration as done:
        return done.value


async def _async_sleep(policy: ClientPolicy, delay: float) -> None:
    sleep = policy.retry.async_sleep if policy.retry is not None else None
    await (sleep or asyncio.sleep)(delay)


# ---- sync -------------------------------------------------------------------------------------------------------


def run_sync(client: Any, method: str, url: str, params: Any, headers: Any, json: Any, content: Any, data: Any,
             timeout: Any, tp: Any, error_for_status: Any, headers_type: Any, error_type: Any, raises: Any,
             skip_auth: bool) -> Any:
    dec, errors = _spec(client, tp, error_for_status, error_type, raises)
    req = _outgoing(client, method, url, params, headers, json, content, data)
    policy = client._policy

    def attempts(r: OutgoingRequest) -> Any:
        return _follow_sync(client, policy, r, timeout, dec, errors, skip_auth)

    if policy is not None and policy.middleware:
        response = _chain_sync(policy.middleware, 0, req, attempts)
    else:
        response = attempts(req)
    if headers_type is not None:
        response.typed_headers = typed_headers(headers_type, response.headers)
    return response


def _chain_sync(mws: tuple, i: int, req: OutgoingRequest, last: Callable[..., Any]) -> Any:
    if i == len(mws):
        return last(req)

    def call_next(r: OutgoingRequest) -> Any:
        return _chain_sync(mws, i + 1, r, last)

    result = mws[i](req, call_next)
    if inspect.isawaitable(result):
        if hasattr(result, "close"):
            result.close()
        raise TypeError("SyncHTTPClient's middleware must be plain (not async) callables")
    return result


def _attempts_sync(client: Any, policy: ClientPolicy | None, req: OutgoingRequest, timeout: Any, dec: Any,
                   errors: Any, skip_auth: bool) -> Any:
    steps = _attempts(policy, req, skip_auth)
    value: Any = None
    try:
        while True:
            what, arg = steps.send(value)
            if what == "send":
                try:
                    value = client._send_one(req.method, req.url, arg.items(), req.body, timeout, dec, errors,
                                             skip_auth)
                except (HTTPResponseError, HTTPTransportError, RedirectSignal) as e:
                    value = e
            elif what == "auth":
                value = arg.header(req.method, req.url)
            else:
                value = policy.retry.sleep(arg)  # type: ignore[union-attr]
    except StopIteration as done:
        return done.value
