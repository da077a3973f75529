"""boltwire.testing: a pytest plugin (fixture ``boltwire_mocker``) that answers HTTPClient / SyncHTTPClient requests
from registered mocks, with lothc_mocker's API.

It replaces the clients' native transport (for clients opened while it is active), so everything above the
transport runs as in production: the verbs, retries, auth, middleware, the request head writer, and the native
response finishing (decoding, typed status errors) through ``_core._http_finish``. No socket is opened. A request
no mock matches fails with an AssertionError naming the closest mock (strict, the default), or goes to the network
(``strict(enabled=False)`` or ``@pytest.mark.boltwire_mocker(strict=False)``)."""

from __future__ import annotations

import asyncio
import inspect
import json as _json
import re
from functools import partialmethod
from typing import Any, Awaitable, Callable, Mapping, Pattern, Union
from urllib.parse import parse_qs, parse_qsl, urlsplit

import pytest

from boltwire import _core
from boltwire.http import _client
from boltwire.http._codecs import encode_json
from boltwire.http._redirects import RedirectSignal
from boltwire.http._response import CaseInsensitiveDict, RequestInfo

__all__ = ["BoltwireMock", "BoltwireMocker", "MockRequest", "MockResponse"]

Matcher = Union[str, Pattern[str]]
_NO_BODY_STATUSES = (204, 304)
_REDIRECT_STATUSES = (301, 302, 303, 307, 308)


class MockRequest:
    """A request as a mock sees it: method, url, path, query_string, query (first value per key), headers
    (CaseInsensitiveDict, as written on the wire) and body (bytes or None)."""

    __slots__ = ("method", "url", "path", "query_string", "query", "headers", "body")

    def __init__(self, method: str, url: str, headers: CaseInsensitiveDict, body: bytes | None) -> None:
        parts = urlsplit(url)
        self.method = method
        self.url = url
        self.path = parts.path or "/"
        self.query_string = parts.query
        self.query = {k: v for k, v in reversed(parse_qsl(parts.query, keep_blank_values=True))}
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return _json.loads(self.body or b"null")

    def __repr__(self) -> str:
        return f"<MockRequest {self.method} {self.url}>"


class MockResponse:
    """What a match_request_with_response handler answers: data (bytes, str, or anything JSON-encodable), headers,
    status."""

    __slots__ = ("data", "headers", "status")

    def __init__(self, data: Any = b"", headers: Mapping[str, str] | None = None, status: int = 200) -> None:
        self.data = data
        self.headers = headers
        self.status = status


def _matches(matcher: Any, value: str | None) -> bool:
    if value is None:
        return False
    if isinstance(matcher, re.Pattern):
        return matcher.search(value) is not None
    return matcher == value


def _encode_data(data: Any) -> tuple[bytes, str | None]:
    """(body, Content-Type) of a mock's data: bytes as is, str as text, anything else as JSON."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data), None
    if isinstance(data, str):
        return data.encode("utf-8"), "text/plain; charset=utf-8"
    return encode_json(data), "application/json"


class BoltwireMock:
    """One mock rule: what it matches (method, path or url, query, headers, JSON body, a predicate) and what it
    answers (status, headers, data, or a handler). Every method returns the mock, for chaining."""

    def __init__(self, method: Matcher | None, path: Matcher | None, url: Matcher | None) -> None:
        self.method = method
        self.path = path
        self.url = url
        self._checks: list[tuple[str, Callable[[MockRequest], Any]]] = []
        self._status = 200
        self._headers: list[tuple[str, str]] = []
        self._body = b""
        self._content_type: str | None = None
        self._handler: Callable[[MockRequest], Any] | None = None
        self._requests: list[MockRequest] = []

    def __repr__(self) -> str:
        where = f"path={self.path!r}" if self.path is not None else f"url={self.url!r}"
        return f"<BoltwireMock {self.method or '*'} {where}>"

    # ---- the answer ----
    def with_status(self, status: int) -> "BoltwireMock":
        self._status = status
        return self

    def with_headers(self, headers: Mapping[str, str]) -> "BoltwireMock":
        self._headers = [(str(k), str(v)) for k, v in CaseInsensitiveDict(headers).items()]
        return self

    def with_data(self, data: Any) -> "BoltwireMock":
        self._body, self._content_type = _encode_data(data)
        return self

    def with_body_bytes(self, body: bytes) -> "BoltwireMock":
        return self.with_data(bytes(body))

    def with_body_json(self, value: Any) -> "BoltwireMock":
        self._body, self._content_type = encode_json(value), "application/json"
        return self

    def match_request_with_response(self, handler: Callable[[MockRequest], Any]) -> "BoltwireMock":
        """`handler(request)` (sync or async) answers with a MockResponse, or None for "not this mock"."""
        self._handler = handler
        return self

    # ---- what it matches ----
    def match_query(self, query: Mapping[str, Any] | Matcher) -> "BoltwireMock":
        if isinstance(query, Mapping):
            def check(r: MockRequest) -> Any:
                got = parse_qs(r.query_string, keep_blank_values=True)
                if set(got) != set(query):
                    return f"query {dict((k, v if len(v) > 1 else v[0]) for k, v in got.items())} != {dict(query)}"
                for k, want in query.items():
                    values = got[k]
                    if isinstance(want, list):
                        if values != [str(w) for w in want]:
                            return f"query {k}={values} != {want}"
                    elif len(values) != 1 or not _matches(want, values[0]):
                        return f"query {k}={values} != {want!r}"
                return None
        else:
            def check(r: MockRequest) -> Any:
                return None if _matches(query, r.query_string) else f"query {r.query_string!r} != {query!r}"
        self._checks.append(("query", check))
        return self

    def match_query_param(self, name: str, value: Matcher) -> "BoltwireMock":
        def check(r: MockRequest) -> Any:
            got = r.query.get(name)
            return None if _matches(value, got) else f"query {name}={got!r} != {value!r}"
        self._checks.append(("query", check))
        return self

    def match_header(self, name: str, value: Matcher) -> "BoltwireMock":
        def check(r: MockRequest) -> Any:
            got = r.headers.get(name)
            return None if _matches(value, got) else f"header {name}: {got!r} != {value!r}"
        self._checks.append(("header", check))
        return self

    def match_body_json(self, expected: Any) -> "BoltwireMock":
        def check(r: MockRequest) -> Any:
            try:
                got = r.json()
            except ValueError:
                return f"body {r.body!r} is not JSON"
            return None if got == expected else f"JSON body {got!r} != {expected!r}"
        self._checks.append(("body", check))
        return self

    def match_request(self, predicate: Callable[[MockRequest], Any]) -> "BoltwireMock":
        """`predicate(request)` (sync or async) says whether this mock answers."""
        self._checks.append(("predicate", predicate))
        return self

    # ---- what happened ----
    def assert_called(self, *, count: int | None = None, min_count: int | None = None,
                      max_count: int | None = None) -> None:
        n = len(self._requests)
        if count is None and min_count is None and max_count is None:
            min_count = 1
        if count is not None and n != count:
            raise AssertionError(f"{self!r} was called {n} times, expected {count}")
        if min_count is not None and n < min_count:
            raise AssertionError(f"{self!r} was called {n} times, expected at least {min_count}")
        if max_count is not None and n > max_count:
            raise AssertionError(f"{self!r} was called {n} times, expected at most {max_count}")

    def get_requests(self) -> list[MockRequest]:
        return list(self._requests)

    def get_call_count(self) -> int:
        return len(self._requests)

    def reset_requests(self) -> None:
        self._requests.clear()

    # ---- matching ----
    def _mismatches(self, r: MockRequest) -> tuple[list[str], list[Callable[[MockRequest], Any]]]:
        """(what does not match, the predicates still to run)."""
        why = []
        if self.method is not None and not _matches(self.method, r.method) and not (
                isinstance(self.method, str) and self.method.upper() == r.method):
            why.append(f"method {r.method} != {self.method!r}")
        if self.path is not None and not _matches(self.path, r.path):
            why.append(f"path {r.path!r} != {self.path!r}")
        if self.url is not None and not (_matches(self.url, r.url) or _matches(self.url, r.url.split("?")[0])):
            why.append(f"url {r.url!r} != {self.url!r}")
        predicates = []
        for kind, check in self._checks:
            if kind == "predicate":
                predicates.append(check)
                continue
            problem = check(r)
            if problem:
                why.append(problem)
        return why, predicates

    def _answer(self) -> tuple[int, list[tuple[str, str]], bytes]:
        headers = list(self._headers)
        if self._content_type and not any(n.lower() == "content-type" for n, _ in headers):
            headers.append(("Content-Type", self._content_type))
        return self._status, headers, self._body


def _response_of(answer: MockResponse) -> tuple[int, list[tuple[str, str]], bytes]:
    body, content_type = _encode_data(answer.data)
    headers = [(str(k), str(v)) for k, v in CaseInsensitiveDict(answer.headers).items()]
    if content_type and not any(n.lower() == "content-type" for n, _ in headers):
        headers.append(("Content-Type", content_type))
    return answer.status, headers, body


class BoltwireMocker:
    """The registry of mocks for one test (the ``boltwire_mocker`` fixture)."""

    def __init__(self) -> None:
        self._mocks: list[BoltwireMock] = []
        self._requests: list[MockRequest] = []
        self._strict = True
        self._saved: Any = None

    # ---- registering ----
    def mock(self, method: Matcher | None = None, *, path: Matcher | None = None,
             url: Matcher | None = None) -> BoltwireMock:
        m = BoltwireMock(method, path, url)
        self._mocks.append(m)
        return m

    def _add(self, method: str, path: Matcher | None, url: Matcher | None, params: Any, data: Any,
             headers: Mapping[str, str] | None, status: int) -> BoltwireMock:
        m = self.mock(method, path=path, url=url).with_status(status).with_data(data)
        if headers is not None:
            m.with_headers(headers)
        if params is not None:
            m.match_query({k: [str(x) for x in v] if isinstance(v, (list, tuple)) else _param_text(v)
                           for k, v in dict(params).items()})
        return m

    def add_response(self, method: str, *, path: Matcher | None = None, url: Matcher | None = None,
                     params: Any = None, data: Any = b"", headers: Mapping[str, str] | None = None,
                     status: int = 200) -> BoltwireMock:
        """A mock for `method` answering `status`, `headers` and `data`, matching `params` as the whole query."""
        return self._add(method.upper(), path, url, params, data, headers, status)

    # lothc_mocker's per-method spellings: add_get_response(path=..., data=...) and so on.
    add_get_response = partialmethod(add_response, "GET")
    add_post_response = partialmethod(add_response, "POST")
    add_put_response = partialmethod(add_response, "PUT")
    add_patch_response = partialmethod(add_response, "PATCH")
    add_delete_response = partialmethod(add_response, "DELETE")
    add_head_response = partialmethod(add_response, "HEAD")

    # ---- state ----
    def strict(self, *, enabled: bool = True) -> "BoltwireMocker":
        """Strict (the default): a request no mock matches fails. Not strict: it goes to the network."""
        self._strict = enabled
        return self

    def get_requests(self) -> list[MockRequest]:
        return list(self._requests)

    def get_call_count(self) -> int:
        return len(self._requests)

    def clear(self) -> None:
        """Forget every mock and every recorded request."""
        self._mocks.clear()
        self._requests.clear()

    def reset_requests(self) -> None:
        self._requests.clear()
        for m in self._mocks:
            m.reset_requests()

    # ---- installing ----
    def install(self) -> None:
        """Route clients opened from now on through this mocker (until uninstall())."""
        if self._saved is None:
            self._saved = _client._Transport
            real = self._saved
            mocker = self
            _client._Transport = lambda **settings: _MockTransport(mocker, real, settings)

    def uninstall(self) -> None:
        if self._saved is not None:
            _client._Transport = self._saved
            self._saved = None

    # ---- answering ----
    def _unmatched(self, r: MockRequest, report: list[tuple[BoltwireMock, list[str]]]) -> AssertionError:
        if not report:
            return AssertionError(f"boltwire_mocker: no mock registered for {r.method} {r.url}")
        # Closest: a different method, path or url weighs more than a different header, query or body.
        mock, why = min(report, key=lambda item: sum(10 if w.startswith(("method ", "path ", "url ")) else 1
                                                      for w in item[1]))
        return AssertionError(f"boltwire_mocker: no mock matched {r.method} {r.url}; closest: {mock!r} "
                              f"({'; '.join(why) or 'its predicate or handler declined'})")

    def _match(self, r: MockRequest) -> Any:
        """The matching, written once for both clients: a generator that yields each predicate's or handler's result
        (maybe awaitable) to its driver (_find_sync / _find_async), gets the value back, and returns the answer
        (status, headers, body), or None to pass through; raises the strict-mode AssertionError."""
        report = []
        for m in self._mocks:
            why, predicates = m._mismatches(r)
            for p in predicates if not why else ():
                if not (yield p(r)):
                    why.append("its predicate said no")
                    break
            if not why and m._handler is not None:
                answer = yield m._handler(r)
                if answer is None:
                    why.append("its handler declined")
                else:
                    m._requests.append(r)
                    return _response_of(answer)
            if not why:
                m._requests.append(r)
                return m._answer()
            report.append((m, why))
        if self._strict:
            raise self._unmatched(r, report)
        return None

    def _find_sync(self, r: MockRequest) -> tuple[int, list[tuple[str, str]], bytes] | None:
        steps = self._match(r)
        value = None
        try:
            while True:
                value = steps.send(value)
                if inspect.isawaitable(value):
                    _close(value)
                    raise TypeError("SyncHTTPClient's mocks take plain (not async) predicates and handlers")
        except StopIteration as done:
            return done.value

    async def _find_async(self, r: MockRequest) -> tuple[int, list[tuple[str, str]], bytes] | None:
        steps = self._match(r)
        value = None
        try:
            while True:
                value = steps.send(value)
                if inspect.isawaitable(value):
                    value = await value
        except StopIteration as done:
            return done.value


def _param_text(v: Any) -> str:
    return "true" if v is True else "false" if v is False else "" if v is None else str(v)


def _close(awaitable: Any) -> None:
    if hasattr(awaitable, "close"):
        awaitable.close()


def _request_of(method: str, head: bytes, body: bytes | None, url: str) -> MockRequest:
    return MockRequest(method, url, RequestInfo._from_head(method, url, head).headers, body)


def _finish(answer: tuple[int, list[tuple[str, str]], bytes], method: str, url: str, head: bytes, dec: Any,
            raises: Any, follow: bool) -> Any:
    status, headers, body = answer
    if method == "HEAD" or status in _NO_BODY_STATUSES:
        body = b""
    block = "".join(f"{n}: {v}\r\n" for n, v in headers)
    if follow and status in _REDIRECT_STATUSES and any(n.lower() == "location" for n, _ in headers):
        # What the native transport does with follow_redirects on: the raw 3xx goes to the client's redirect
        # chain (which asks the mocks for the next hop), never decoded as the final type.
        raise RedirectSignal(_core._http_finish(status, block, body, method, url, head, None, False, 0.0))
    return _core._http_finish(status, block, body, method, url, head, dec, raises, 0.0)


class _MockCall:
    """What submit() returns: awaiting it answers the request (matchers may be async)."""

    __slots__ = ("_coro",)

    def __init__(self, coro: Awaitable[Any]) -> None:
        self._coro = coro

    def __await__(self) -> Any:
        return self._coro.__await__()  # type: ignore[attr-defined]

    def cancel(self) -> None:
        pass


class _MockTransport:
    """Stands in for _core._HttpTransport: same methods, answers from the mocker (or, not strict, the real one)."""

    def __init__(self, mocker: BoltwireMocker, real_class: Any, settings: dict) -> None:
        self._mocker = mocker
        self._real_class = real_class
        self._settings = settings
        self._follow = bool(settings.get("follow_redirects", False))
        self._real: Any = None
        self._origins: list[tuple[str, int, str]] = []

    def _passthrough(self) -> Any:
        if self._real is None:
            self._real = self._real_class(**self._settings)
        return self._real

    def origin(self, host: str, port: int, connect_host: str, tls: bool = False) -> int:
        self._origins.append((host, port, connect_host, tls))
        return len(self._origins) - 1

    def send(self, origin: int, method: str, head: bytes, body: bytes | None, timeout: Any, dec: Any, raises: Any,
             url: str) -> Any:
        r = _request_of(method, head, body, url)
        self._mocker._requests.append(r)
        answer = self._mocker._find_sync(r)
        if answer is None:
            real = self._passthrough()
            return real.send(real.origin(*self._origins[origin]), method, head, body, timeout, dec, raises, url)
        return _finish(answer, method, url, head, dec, raises, self._follow)

    def submit(self, sink: Any, origin: int, method: str, head: bytes, body: bytes | None, timeout: Any, dec: Any,
               raises: Any, url: str) -> Any:
        return _MockCall(self._answer_async(sink, origin, method, head, body, timeout, dec, raises, url))

    async def _answer_async(self, sink: Any, origin: int, method: str, head: bytes, body: bytes | None, timeout: Any,
                            dec: Any, raises: Any, url: str) -> Any:
        r = _request_of(method, head, body, url)
        self._mocker._requests.append(r)
        answer = await self._mocker._find_async(r)
        if answer is None:
            real = self._passthrough()
            call = real.submit(sink, real.origin(*self._origins[origin]), method, head, body, timeout, dec, raises,
                               url)
            try:
                return await call
            except asyncio.CancelledError:
                call.cancel()
                raise
        await asyncio.sleep(0)  # answered on a later loop iteration, as a real response would be
        return _finish(answer, method, url, head, dec, raises, self._follow)

    def close(self) -> None:
        if self._real is not None:
            self._real.close()

    def stats(self) -> tuple[int, int]:
        return (0, 0)


# ---- the pytest plugin ------------------------------------------------------------------------------------------


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "boltwire_mocker(strict=True): configure the boltwire_mocker fixture "
                                       "(strict=False lets unmatched requests reach the network)")


@pytest.fixture(name="boltwire_mocker")
def _boltwire_mocker(request: Any) -> Any:
    """Mocks for HTTPClient / SyncHTTPClient opened during the test; strict unless marked otherwise."""
    mocker = BoltwireMocker()
    marker = request.node.get_closest_marker("boltwire_mocker")
    if marker is not None:
        strict = marker.args[0] if marker.args else marker.kwargs.get("strict", True)
        if not isinstance(strict, bool):
            raise TypeError(f"@pytest.mark.boltwire_mocker's strict must be a bool, got {strict!r}")
        mocker.strict(enabled=strict)
    mocker.install()
    try:
        yield mocker
    finally:
        mocker.uninstall()
