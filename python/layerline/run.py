"""Report training that runs on your own hardware to a Layerline job whose runtime is ``external``.

    run = layerline.init(job_id="job_…", token="lut_…")
    for step, batch in enumerate(loader):
        ...
        run.log({"loss": loss.item()}, step=step)
    run.finish()

Events are queued and uploaded by a background thread (every ``flush_interval`` seconds or
``batch_size`` events, at most 1,000 a request), each with an id so that a retried upload is never
stored twice. What is queued is flushed at exit (``atexit``), when the ``with`` block ends, and by
:meth:`Run.finish`, which then reports the final status (the first upload started the job).
"""

from __future__ import annotations

import atexit
import datetime as _dt
import math
import os
import secrets
import sys
import threading
import time
import urllib.parse
from collections import deque
from collections.abc import Mapping
from typing import Any

from . import config
from ._http import RetryPolicy, Transport
from .errors import LayerlineError

MAX_EVENTS_PER_REQUEST = 1000
LOG_LEVELS = ("debug", "info", "warning", "error")


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Run:
    """One training program reporting to one job (see :func:`init`)."""

    def __init__(
        self,
        job_id: str,
        token: str,
        base_url: str,
        *,
        flush_interval: float = 1.0,
        batch_size: int = 500,
        max_queue: int = 100_000,
        max_retries: int = 6,
        finish_on_exit: bool = True,
        quiet: bool = False,
    ) -> None:
        self.job_id = job_id
        self.base_url = base_url
        self.flush_interval = flush_interval
        self.batch_size = max(1, min(batch_size, MAX_EVENTS_PER_REQUEST))
        self.max_queue = max_queue
        self.finish_on_exit = finish_on_exit
        self.quiet = quiet
        self._http = Transport(base_url, token, timeout=30.0, retry=RetryPolicy(max_retries=max_retries))
        self._path = f"/api/v1/training/jobs/{urllib.parse.quote(job_id, safe='')}/metrics/events"
        # Event ids: unique to this run, stable across the retries of an upload.
        self._prefix = f"py-{secrets.token_hex(6)}"
        self._seq = 0
        self._step = 0
        self._queue: deque[dict[str, Any]] = deque()
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._sending = False
        self._stopped = False
        self.finished = False
        #: Set when the job refused uploads (it finished or was cancelled elsewhere): 409.
        self.closed_reason: str | None = None
        self.accepted = 0
        self.duplicates = 0
        self.dropped = 0
        self._exc: BaseException | None = None
        self._thread = threading.Thread(target=self._loop, name=f"layerline-run-{job_id}", daemon=True)
        self._thread.start()
        self._prev_excepthook = sys.excepthook
        sys.excepthook = self._excepthook
        atexit.register(self._at_exit)
        # The first upload starts an external job.
        self._enqueue({"kind": "status", "status": "running"})

    # ---- what a training program calls ----

    def log(
        self,
        metrics: Mapping[str, float],
        step: int | None = None,
        *,
        epoch: int | None = None,
        commit: bool = True,
    ) -> None:
        """Records metric values (``{"loss": 0.31, "accuracy": 0.9}``) at ``step`` (default: the last
        step plus one). Non-finite values (NaN, inf) are reported as a warning log line instead."""
        if step is None:
            step = self._step
        if commit:
            self._step = step + 1
        now = _now()
        for name, value in metrics.items():
            number = float(value)  # a 0-d tensor or numpy scalar converts too
            if not math.isfinite(number):
                self.log_text(f"{name} is {number} at step {step}", level="warning")
                continue
            event: dict[str, Any] = {
                "kind": "metric",
                "name": str(name),
                "value": number,
                "step": int(step),
                "timestamp": now,
            }
            if epoch is not None:
                event["epoch"] = int(epoch)
            self._enqueue(event)

    def log_text(self, message: str, *, level: str = "info") -> None:
        """A log line shown on the job's page (``debug``, ``info``, ``warning`` or ``error``)."""
        if level not in LOG_LEVELS:
            raise ValueError(f"level must be one of {', '.join(LOG_LEVELS)}")
        self._enqueue({"kind": "log", "level": level, "message": str(message)[:10_000], "timestamp": _now()})

    def progress(self, epoch: int, epochs: int, step: int = 0, steps: int = 0) -> None:
        """Where training is: epoch ``epoch`` of ``epochs``, step ``step`` of ``steps`` in it."""
        self._enqueue(
            {"kind": "progress", "epoch": int(epoch), "epochs": max(1, int(epochs)), "step": int(step), "steps": int(steps)}
        )

    def flush(self, timeout: float | None = 30.0) -> bool:
        """Uploads everything queued now; True when it was all accepted within ``timeout``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._wake:
            self._wake.notify_all()
            while self._queue or self._sending:
                if self.closed_reason is not None or not self._thread.is_alive():
                    return False
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._wake.wait(0.05 if remaining is None else min(0.05, remaining))
                self._wake.notify_all()
        return self.closed_reason is None

    def finish(self, status: str = "succeeded", message: str | None = None, *, timeout: float = 60.0) -> None:
        """Flushes the queue, then reports the job ``succeeded`` or ``failed``; the run accepts no more
        events. Calling it again does nothing."""
        if status not in ("succeeded", "failed"):
            raise ValueError('status must be "succeeded" or "failed"')
        if self.finished:
            return
        self.flush(timeout)
        event: dict[str, Any] = {"kind": "status", "status": status}
        if message:
            event["message"] = str(message)[:2000]
        self._enqueue(event)
        self.flush(timeout)
        self.finished = True
        self._stop()

    # ---- context manager: `with layerline.init(...) as run:` ----

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if exc is None or (isinstance(exc, SystemExit) and not exc.code):
            self.finish("succeeded")
        else:
            self.finish("failed", f"{type(exc).__name__}: {exc}")

    # ---- the background uploader ----

    def _enqueue(self, event: dict[str, Any]) -> None:
        with self._wake:
            if self.finished or self.closed_reason is not None:
                return
            self._seq += 1
            event["id"] = f"{self._prefix}-{self._seq}"
            if len(self._queue) >= self.max_queue:
                self._queue.popleft()
                self.dropped += 1
            self._queue.append(event)
            if len(self._queue) >= self.batch_size:
                self._wake.notify_all()

    def _loop(self) -> None:
        last = time.monotonic()
        while True:
            with self._wake:
                while not self._stopped:
                    due = last + self.flush_interval - time.monotonic()
                    if len(self._queue) >= self.batch_size or (self._queue and due <= 0):
                        break
                    self._wake.wait(max(0.01, due) if self._queue else self.flush_interval)
                    # flush() and finish() notify while they wait: any wake-up with events queued sends.
                    if self._queue:
                        break
                if self._stopped and not self._queue:
                    return
                batch = [self._queue[i] for i in range(min(len(self._queue), self.batch_size))]
                self._sending = True
            ok = self._send(batch)
            last = time.monotonic()
            with self._wake:
                if ok:
                    for _ in batch:
                        self._queue.popleft()
                self._sending = False
                self._wake.notify_all()
                if self.closed_reason is not None:
                    self._queue.clear()
                    return
            if not ok:
                if self._stopped:
                    self._warn(f"gave up on {len(self._queue)} events: the server is unreachable")
                    return
                # The server is unreachable even after retries: keep the events, try again later.
                time.sleep(min(30.0, self.flush_interval * 5))

    def _send(self, batch: list[dict[str, Any]]) -> bool:
        try:
            result = self._http.json("POST", self._path, json_body={"events": batch}, retry=True)
        except LayerlineError as err:
            if err.status == 409:
                # The job has finished (or was cancelled): a retried final status lands here too.
                is_final_retry = any(e["kind"] == "status" and e["status"] != "running" for e in batch)
                self.closed_reason = err.detail or err.title
                if not is_final_retry:
                    self._warn(f"the job accepts no more events ({self.closed_reason})")
                return True
            if err.status in (400, 401, 403, 404, 422):
                self.closed_reason = str(err)
                self._warn(f"cannot upload to job {self.job_id}: {err}")
                return True
            self._warn(f"upload failed, will retry: {err}")
            return False
        self.accepted += int(result.get("accepted", 0))
        self.duplicates += int(result.get("duplicates", 0))
        return True

    def _warn(self, text: str) -> None:
        if not self.quiet:
            print(f"layerline: {text}", file=sys.stderr, flush=True)

    def _stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify_all()
        self._thread.join(timeout=10)
        try:
            atexit.unregister(self._at_exit)
        except Exception:  # noqa: BLE001 - interpreter shutting down
            pass
        if sys.excepthook == self._excepthook:
            sys.excepthook = self._prev_excepthook

    def _excepthook(self, exc_type: Any, exc: BaseException, tb: Any) -> None:
        self._exc = exc
        self._prev_excepthook(exc_type, exc, tb)

    def _at_exit(self) -> None:
        if self.finished:
            return
        if self.finish_on_exit:
            if self._exc is not None and not isinstance(self._exc, KeyboardInterrupt):
                self.finish("failed", f"{type(self._exc).__name__}: {self._exc}", timeout=30)
            elif self._exc is not None:
                self.finish("failed", "Interrupted", timeout=30)
            else:
                self.finish("succeeded", timeout=30)
        else:
            self.flush(30)
            self._stop()


def init(
    job_id: str | None = None,
    token: str | None = None,
    base_url: str | None = None,
    *,
    api_key: str | None = None,
    flush_interval: float = 1.0,
    batch_size: int = 500,
    finish_on_exit: bool = True,
    quiet: bool = False,
) -> Run:
    """Starts reporting to a job whose runtime is ``external``.

    ``job_id`` and ``token`` (an upload token ``lut_…`` from ``POST …/stream-token``) default to
    ``LAYERLINE_JOB_ID`` and ``LAYERLINE_UPLOAD_TOKEN``; without a token, one is minted with your
    personal key (``api_key``, ``LAYERLINE_API_KEY`` or the CLI's config). ``base_url`` defaults to
    ``LAYERLINE_URL`` (or the CLI's config). At exit the run finishes ``succeeded`` (``failed`` after an
    uncaught exception) unless ``finish_on_exit=False``.
    """
    job_id = job_id or os.environ.get("LAYERLINE_JOB_ID")
    if not job_id:
        raise ValueError("init() needs job_id (or LAYERLINE_JOB_ID)")
    token = token or os.environ.get("LAYERLINE_UPLOAD_TOKEN")
    key, url = config.resolve(api_key, base_url)
    if not token:
        from .client import Client

        token = Client(api_key=key, base_url=url).training_jobs.upload_token(job_id)
    return Run(
        job_id,
        token,
        url,
        flush_interval=flush_interval,
        batch_size=batch_size,
        finish_on_exit=finish_on_exit,
        quiet=quiet,
    )
