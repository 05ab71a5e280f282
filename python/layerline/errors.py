"""Errors raised by the SDK. The API answers errors as RFC 9457 problem details."""

from __future__ import annotations

import json
from typing import Any


class LayerlineError(Exception):
    """An error answered by the API (or a transport failure after every retry).

    ``status`` is the HTTP status (0 for a connection failure), ``title``/``detail``/``type`` come from the
    problem body, ``errors`` lists ``{"path", "message"}`` for validation failures and ``request_id`` is the
    ``X-Request-ID`` to quote when reporting a problem.
    """

    def __init__(
        self,
        status: int,
        title: str,
        detail: str = "",
        *,
        type: str | None = None,  # noqa: A002 - the problem field's name
        errors: list[dict[str, Any]] | None = None,
        request_id: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.status = status
        self.title = title
        self.detail = detail
        self.type = type
        self.errors = errors or []
        self.request_id = request_id
        self.body = body
        self.headers = headers or {}
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.status} {self.title}" if self.status else self.title
        if self.detail and self.detail != self.title:
            text += f": {self.detail}"
        for e in self.errors[:5]:
            text += f"\n  - {e.get('path') or '(body)'}: {e.get('message')}"
        if self.request_id:
            text += f" (request {self.request_id})"
        return text

    @classmethod
    def from_response(cls, status: int, body: bytes, headers: dict[str, str]) -> "LayerlineError":
        request_id = headers.get("x-request-id")
        parsed: Any = None
        try:
            parsed = json.loads(body.decode("utf-8")) if body else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            parsed = body.decode("utf-8", "replace")[:2000]
        if isinstance(parsed, dict) and ("title" in parsed or "detail" in parsed):
            return cls(
                status,
                str(parsed.get("title") or f"HTTP {status}"),
                str(parsed.get("detail") or ""),
                type=parsed.get("type"),
                errors=parsed.get("errors") if isinstance(parsed.get("errors"), list) else None,
                request_id=parsed.get("request_id") or request_id,
                body=parsed,
                headers=headers,
            )
        # OpenAI-shaped errors ({"error": {"message"}}) and anything else.
        detail = ""
        if isinstance(parsed, dict) and isinstance(parsed.get("error"), dict):
            detail = str(parsed["error"].get("message", ""))
        elif isinstance(parsed, str):
            detail = parsed
        return cls(status, f"HTTP {status}", detail, request_id=request_id, body=parsed, headers=headers)


class TimeoutError(LayerlineError):  # noqa: A001 - deliberately namespaced as layerline.TimeoutError
    """Waiting for something (a job to finish) took longer than allowed."""

    def __init__(self, message: str) -> None:
        super().__init__(0, "Timed out", message)
