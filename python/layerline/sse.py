"""Server-sent events: a parser, and a stream that reconnects with ``Last-Event-ID`` until it ends."""

from __future__ import annotations

import http.client
import json
import socket
import urllib.error
from collections.abc import Callable, Iterator
from typing import IO

from ._http import RetryPolicy, parse_retry_after
from .errors import LayerlineError
from .models import Event


def parse_sse(lines: IO[bytes]) -> Iterator[Event]:
    """Events from a ``text/event-stream`` body (comments and events without an id are skipped)."""
    event_id: str | None = None
    kind = "message"
    data: list[str] = []
    while True:
        raw = lines.readline()
        if not raw:
            return
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if line == "":
            if data and event_id is not None and event_id.isdigit():
                text = "\n".join(data)
                try:
                    payload = json.loads(text)
                except json.JSONDecodeError:
                    payload = {"text": text}
                yield Event(int(event_id), kind, payload if isinstance(payload, dict) else {"value": payload})
            event_id, kind, data = None, "message", []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            event_id = value
        elif name == "event":
            kind = value
        elif name == "data":
            data.append(value)


class EventStream:
    """Iterates a job's events, reconnecting after a dropped connection.

    ``connect(last_event_id)`` opens a fresh response (minting a fresh stream token each time). Every id
    is yielded once, in order; the iteration ends after ``is_final(event)`` or when the server answers
    204 (nothing follows). ``close()`` stops it from another thread.
    """

    def __init__(
        self,
        connect: Callable[[int | None], http.client.HTTPResponse],
        is_final: Callable[[Event], bool],
        *,
        last_event_id: int | None = None,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None],
        max_reconnects: int | None = None,
    ) -> None:
        self._connect = connect
        self._is_final = is_final
        self.last_event_id = last_event_id
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        self._max_reconnects = max_reconnects
        self._response: http.client.HTTPResponse | None = None
        self._closed = False
        #: How many times the stream was (re)opened.
        self.connections = 0

    def close(self) -> None:
        self._closed = True
        res = self._response
        if res is not None:
            try:
                res.close()
            except OSError:
                pass

    def __enter__(self) -> "EventStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[Event]:
        failures = 0
        while not self._closed:
            retry_after: float | None = None
            try:
                self._response = self._connect(self.last_event_id)
                self.connections += 1
                if self._response.status == 204:
                    return
                for event in parse_sse(self._response):
                    failures = 0
                    if self.last_event_id is not None and event.id <= self.last_event_id:
                        continue
                    self.last_event_id = event.id
                    yield event
                    if self._is_final(event):
                        self.close()
                        return
            except urllib.error.HTTPError as err:
                raw = err.read() if err.fp is not None else b""
                headers = {k.lower(): v for k, v in (err.headers or {}).items()}
                if err.code not in (429, 500, 502, 503, 504):
                    raise LayerlineError.from_response(err.code, raw, headers) from None
                retry_after = parse_retry_after(headers.get("retry-after"))
            except LayerlineError as err:
                if err.status not in (0, 429, 500, 502, 503, 504):
                    raise
            except (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout, OSError):
                if self._closed:
                    return
            finally:
                if self._response is not None:
                    try:
                        self._response.close()
                    except OSError:
                        pass
                    self._response = None
            # The connection ended without a final event: reconnect after Last-Event-ID.
            if self._closed:
                return
            if self._max_reconnects is not None and failures >= self._max_reconnects:
                raise LayerlineError(0, "Stream failed", "the event stream kept dropping")
            self._sleep(self._retry.delay(min(failures, 6), retry_after) if failures else 0.05)
            failures += 1
