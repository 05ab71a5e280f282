"""The HTTP layer: authentication, retries with exponential backoff and jitter, problem errors.

Standard library only (``urllib``). Request bodies may be bytes, a JSON value or a zero-argument
callable returning a fresh file-like object (streamed, re-opened for each retry).
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any

from .errors import LayerlineError

__version__ = "0.1.0"
USER_AGENT = f"layerline-python/{__version__}"

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})

Body = bytes | Callable[[], IO[bytes]] | None


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None


@dataclass
class RetryPolicy:
    """``max_retries`` further attempts after the first; delays ``base * 2**n`` (capped), with full jitter."""

    max_retries: int = 4
    base_delay: float = 0.5
    max_delay: float = 30.0

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay * 4)
        ceiling = min(self.max_delay, self.base_delay * (2**attempt))
        return random.uniform(ceiling / 2, ceiling)


def parse_retry_after(value: str | None) -> float | None:
    """``Retry-After`` as seconds (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _lower(headers: Mapping[str, str] | http.client.HTTPMessage) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


class Transport:
    def __init__(
        self,
        base_url: str,
        token: str | None,
        *,
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url
        self.token = token
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self.sleep = sleep

    def url(self, path: str, params: Mapping[str, Any] | None = None) -> str:
        url = path if path.startswith(("http://", "https://")) else self.base_url + path
        if params:
            clean = {
                k: ("true" if v is True else "false" if v is False else v)
                for k, v in params.items()
                if v is not None
            }
            if clean:
                url += ("&" if "?" in url else "?") + urllib.parse.urlencode(clean, doseq=True)
        return url

    def open(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        body: Body = None,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
        timeout: float | None = None,
    ) -> http.client.HTTPResponse:
        """One attempt; returns the open response (2xx) or raises urllib/socket errors."""
        all_headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        bearer = token if token is not None else self.token
        if bearer:
            all_headers["Authorization"] = f"Bearer {bearer}"
        all_headers.update(headers or {})
        data: Any = body() if callable(body) else body
        request = urllib.request.Request(
            self.url(path, params), data=data, method=method, headers=all_headers
        )
        try:
            return urllib.request.urlopen(request, timeout=timeout or self.timeout)
        finally:
            # urlopen has sent the whole body by the time it returns (or fails): close a streamed one.
            if callable(body) and hasattr(data, "close"):
                data.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json_body: Any = None,
        body: Body = None,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
        idempotency_key: str | None = None,
        retry: bool | None = None,
        timeout: float | None = None,
    ) -> Response:
        """Sends a request, retrying 429, 5xx and connection failures.

        A POST/PATCH is retried after a 5xx or a connection failure only when it carries an
        ``idempotency_key`` or ``retry=True`` (the caller knows a repeat is harmless); a 429 is always
        retried (the server did nothing). The same Idempotency-Key is sent on every attempt.
        """
        method = method.upper()
        hdrs = dict(headers or {})
        if json_body is not None:
            body = json.dumps(json_body).encode("utf-8")
            hdrs.setdefault("Content-Type", "application/json")
        if idempotency_key:
            hdrs["Idempotency-Key"] = idempotency_key
        safe = retry if retry is not None else (method in IDEMPOTENT_METHODS or bool(idempotency_key))
        attempt = 0
        while True:
            try:
                with self.open(
                    method, path, params=params, body=body, headers=hdrs, token=token, timeout=timeout
                ) as res:
                    return Response(res.status, _lower(res.headers), res.read())
            except urllib.error.HTTPError as err:
                raw = err.read() if err.fp is not None else b""
                err_headers = _lower(err.headers or {})
                status = err.code
                if status in RETRY_STATUSES and attempt < self.retry.max_retries and (status == 429 or safe):
                    wait = self.retry.delay(attempt, parse_retry_after(err_headers.get("retry-after")))
                    attempt += 1
                    self.sleep(wait)
                    continue
                raise LayerlineError.from_response(status, raw, err_headers) from None
            except (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout) as err:
                if safe and attempt < self.retry.max_retries:
                    wait = self.retry.delay(attempt)
                    attempt += 1
                    self.sleep(wait)
                    continue
                reason = getattr(err, "reason", err)
                raise LayerlineError(0, "Connection failed", f"{method} {path}: {reason}") from err

    def json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.request(method, path, **kwargs).json()


class StreamedBody:
    """A file-like object reading several parts in turn (bytes, then a file, then bytes): a streamed
    multipart body whose length is known in advance."""

    def __init__(self, parts: list[bytes | IO[bytes]]) -> None:
        self._parts = parts
        self._index = 0

    def read(self, size: int = -1) -> bytes:
        out = b""
        while self._index < len(self._parts) and (size < 0 or len(out) < size):
            part = self._parts[self._index]
            want = -1 if size < 0 else size - len(out)
            if isinstance(part, bytes):
                chunk = part if want < 0 else part[:want]
                rest = b"" if want < 0 else part[want:]
                out += chunk
                if rest:
                    self._parts[self._index] = rest
                else:
                    self._index += 1
            else:
                chunk = part.read(want if want >= 0 else 1 << 20)
                if not chunk:
                    part.close()
                    self._index += 1
                else:
                    out += chunk
        return out

    def close(self) -> None:
        for part in self._parts[self._index :]:
            if not isinstance(part, bytes):
                part.close()
        self._index = len(self._parts)
