"""Per-client policy off the hot path: typed status errors, typed headers, and the retry rule (backoff, Retry-After).

Nothing here runs for a client without retries, auth providers or middleware and a call without per-call options:
the verbs take today's native path then (see _client.py)."""

from __future__ import annotations

import email.utils
import random
import time
from typing import Any, Callable, Iterable

from boltwire import _core
from boltwire.http._errors import HTTPResponseError, pinned_error_type
from boltwire.http._response import CaseInsensitiveDict, RequestInfo

__all__ = ["ErrorSpec", "RetryPolicy", "error_spec", "parse_retry_after", "status_error", "typed_headers"]


def _json_object_or_none(body: bytes) -> Any:
    try:
        value = _core._json_decode_any(body)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


class ErrorSpec:
    """How a status >= 400 becomes the raised error: the class and the decoder of its body (None: a JSON object or
    None). Handed to the transport in place of True; the native status-error hook passes it back."""

    __slots__ = ("cls", "decoder")

    def __init__(self, cls: type, decoder: Callable[[Any], Any] | None) -> None:
        self.cls = cls
        self.decoder = decoder

    def build(self, status: int, body: bytes, request: RequestInfo, headers: CaseInsensitiveDict) -> Any:
        if self.decoder is None:
            return self.cls(status, body, request, _json_object_or_none(body), headers=headers)
        try:
            error = self.decoder(body)
        except (ValueError, RecursionError, TypeError) as exc:  # the body's fault: kept, never raised instead
            parse_error = exc if isinstance(exc, ValueError) else None
            if parse_error is None:  # a RecursionError or TypeError: kept as the cause of a ValueError
                parse_error = ValueError(f"error body could not be decoded: {exc!r}")
                parse_error.__cause__ = exc
            return self.cls(status, body, request, _json_object_or_none(body), headers=headers,
                            parse_error=parse_error)
        return self.cls(status, body, request, error, headers=headers)


DEFAULT_ERRORS = ErrorSpec(HTTPResponseError, None)
_SPECS: dict[Any, ErrorSpec] = {}


def error_spec(raises: Any, error_type: Any, resolve_decoder: Callable[[Any], Any]) -> ErrorSpec | None:
    """The ErrorSpec for `raises=` (an HTTPResponseError subclass, maybe pinning E) or `error_type=` (a body type);
    None when neither is given. Cached; a bad argument is a TypeError before anything is sent."""
    if raises is None and error_type is None:
        return None
    if raises is not None and error_type is not None:
        raise TypeError("pass error_type= or raises=, not both (raises= is lothc's spelling)")
    key = (raises, error_type)
    try:
        return _SPECS[key]
    except KeyError:
        pass
    except TypeError:  # unhashable error_type
        key = None
    if raises is not None:
        if not (isinstance(raises, type) and issubclass(raises, HTTPResponseError)):
            raise TypeError(f"raises= must be HTTPResponseError or a subclass of it, got {raises!r}")
        pinned = pinned_error_type(raises)
        spec = ErrorSpec(raises, _body_decoder(pinned[0], resolve_decoder) if pinned else None)
    else:
        spec = ErrorSpec(HTTPResponseError, _body_decoder(error_type, resolve_decoder))
    if key is not None:
        _SPECS[key] = spec
    return spec


def _body_decoder(tp: Any, resolve_decoder: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return bytes if tp is bytes else resolve_decoder(tp)


def status_error(status: int, raw: Any, body: bytes, method: str, url: str, raises: Any, head: bytes | None) -> Any:
    """The native status-error hook: the exception for a status >= 400 (registered with _http_set_hooks)."""
    spec = raises if type(raises) is ErrorSpec else DEFAULT_ERRORS
    return spec.build(status, body, RequestInfo._from_head(method, url, head), CaseInsensitiveDict._from_raw(raw))


# ---- typed headers ----------------------------------------------------------------------------------------------


def _normal(name: str) -> str:
    return name.lower().replace("-", "_")


def _field_names(tp: Any) -> Iterable[str]:
    fields = getattr(tp, "__struct_encode_fields__", None)  # boltwire and msgspec Structs: names as encoded
    if fields is None:
        fields = getattr(tp, "__annotations__", {})  # TypedDict
    return fields


def typed_headers(tp: Any, headers: CaseInsensitiveDict) -> Any:
    """`headers` decoded as `tp` (a Struct or TypedDict): names matched ignoring case and '-' / '_', values
    converted as convert(strict=False) does ("7" -> 7)."""
    by_name = {}
    for name, value in headers.items():
        by_name.setdefault(_normal(name), value)
    doc = {field: by_name[_normal(field)] for field in _field_names(tp) if _normal(field) in by_name}
    import sys

    msgspec = sys.modules.get("msgspec")
    if msgspec is not None and isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return msgspec.convert(doc, type=tp, strict=False)
    from boltwire import convert

    return convert(doc, type=tp, strict=False)


# ---- retries ----------------------------------------------------------------------------------------------------

DEFAULT_RETRY_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
DEFAULT_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Retry-After (RFC 9110 §10.2.3) in seconds: delay-seconds or an HTTP-date (relative to `now`, epoch seconds);
    None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():  # (str.isdigit takes "²" too, which float() refuses)
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class RetryPolicy:
    """max_retries extra attempts for methods in retry_methods, on statuses in retry_statuses or transport errors
    (a transport error only when the method is idempotent, RFC 9110 §9.2.2). Waits: full jitter,
    uniform(0, min(backoff_max, backoff_base * 2**n)), or the server's Retry-After when it is at most
    max_retry_after (a longer one ends retrying and the response is returned / raised as is)."""

    __slots__ = ("max_retries", "methods", "statuses", "backoff_base", "backoff_max", "max_retry_after", "random",
                 "sleep", "async_sleep", "clock")

    def __init__(self, max_retries: int, retry_methods: Iterable[str] | None, retry_statuses: Iterable[int] | None,
                 backoff_base: float, backoff_max: float, max_retry_after: float | None) -> None:
        if not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError("max_retries must be a non-negative int")
        if isinstance(retry_methods, str):
            raise TypeError("retry_methods must be a collection of method names, not a str")
        for name, value in (("backoff_base", backoff_base), ("backoff_max", backoff_max)):
            if not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{name} must be a non-negative number")
        if max_retry_after is not None and (not isinstance(max_retry_after, (int, float)) or max_retry_after < 0):
            raise ValueError("max_retry_after must be a non-negative number or None")
        self.max_retries = max_retries
        self.methods = DEFAULT_RETRY_METHODS if retry_methods is None else frozenset(m.upper() for m in retry_methods)
        self.statuses = DEFAULT_RETRY_STATUSES if retry_statuses is None else frozenset(int(s) for s in retry_statuses)
        self.backoff_base = float(backoff_base)
        self.backoff_max = float(backoff_max)
        self.max_retry_after = max_retry_after
        self.random = random.random  # replaceable in tests (with sleep, async_sleep and clock)
        self.sleep = time.sleep
        self.async_sleep: Any = None  # asyncio.sleep, looked up when first needed
        self.clock = time.time

    def backoff(self, attempt: int) -> float:
        """The wait before retry number `attempt` (1-based): full jitter over the capped exponential."""
        cap = min(self.backoff_max, self.backoff_base * (2 ** (attempt - 1)))
        return self.random() * cap

    def delay_for_status(self, attempt: int, status: int, headers: Any) -> float | None:
        """The wait before retrying a response with `status`, or None when it is not retried."""
        if status not in self.statuses:
            return None
        retry_after = parse_retry_after(headers.get("retry-after"), self.clock()) if headers is not None else None
        if retry_after is not None:
            if self.max_retry_after is not None and retry_after > self.max_retry_after:
                return None
            return retry_after
        return self.backoff(attempt)
