"""Fixtures for the SDK's tests against a real server (scripts/test-python.sh starts one and sets
LAYERLINE_URL): a fresh account with a personal key, and a fault-injecting HTTP proxy."""

from __future__ import annotations

import http.client
import http.server
import json
import os
import secrets
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# `python3 -m pytest python/tests` from the repository works without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import layerline  # noqa: E402

SERVER = os.environ.get("LAYERLINE_URL", "").rstrip("/")


def _post_json(url: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any], Any]:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(req, timeout=30) as res:
        return res.status, {k.lower(): v for k, v in res.headers.items()}, json.loads(res.read() or b"null")


@dataclass
class Account:
    username: str
    key: str

    def client(self, base_url: str | None = None, **kwargs: Any) -> layerline.Client:
        return layerline.Client(api_key=self.key, base_url=base_url or SERVER, **kwargs)


def sign_up() -> Account:
    """POST /api/auth/signup gives a session cookie; with it (and an Origin) POST …/api-keys gives a key."""
    username = f"py{secrets.token_hex(5)}"
    status, headers, _ = _post_json(
        f"{SERVER}/api/auth/signup",
        {"email": f"{username}@example.com", "username": username, "password": "correct horse battery"},
    )
    assert status == 201
    cookie = headers["set-cookie"].split(";")[0]
    status, _, key = _post_json(
        f"{SERVER}/api/v1/users/me/api-keys",
        {"name": "python-sdk-tests"},
        {"Cookie": cookie, "Origin": SERVER},
    )
    assert status == 201 and key["key"].startswith("lk_")
    return Account(username, key["key"])


@pytest.fixture(scope="session", autouse=True)
def _server() -> None:
    if not SERVER:
        pytest.fail("LAYERLINE_URL is not set: run the tests with scripts/test-python.sh")


@pytest.fixture
def account() -> Account:
    return sign_up()


@pytest.fixture
def client(account: Account) -> layerline.Client:
    return account.client()


# ---- a fault-injecting proxy -------------------------------------------------------------------


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    answered: int | None = None


@dataclass
class FaultProxy:
    """Forwards every request to the server, except when ``fault(seen)`` returns something:
    ``("status", code, headers)`` answers that status without forwarding, ``("after", code)`` forwards
    and then answers that status instead of the server's (a lost response), ``("cut", n)`` forwards a
    stream and closes the connection after ``n`` events."""

    url: str = ""
    seen: list[Seen] = field(default_factory=list)
    fault: Callable[[Seen, int], tuple[Any, ...] | None] = lambda seen, n: None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, method: str, path_suffix: str) -> int:
        return sum(1 for s in self.seen if s.method == method and s.path.split("?")[0].endswith(path_suffix))


def _problem(status: int, title: str) -> bytes:
    return json.dumps(
        {"type": "about:blank", "title": title, "status": status, "detail": f"Injected {status}.", "request_id": "proxy"}
    ).encode()


@pytest.fixture
def proxy() -> Iterator[FaultProxy]:
    state = FaultProxy()
    upstream = urllib.parse.urlsplit(SERVER)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, *args: Any) -> None:
            pass

        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()})
            with state.lock:
                state.seen.append(seen)
                n = sum(1 for s in state.seen if s.method == seen.method and s.path.split("?")[0] == seen.path.split("?")[0])
            action = state.fault(seen, n)
            if action and action[0] == "status":
                headers = action[2] if len(action) > 2 else {}
                self._reply(action[1], _problem(action[1], "Injected"), {"Content-Type": "application/problem+json", **headers})
                seen.answered = action[1]
                return
            conn = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
            headers["Host"] = upstream.netloc
            conn.request(self.command, self.path, body=body, headers=headers)
            res = conn.getresponse()
            if action and action[0] == "after":
                res.read()
                conn.close()
                self._reply(action[1], _problem(action[1], "Injected"), {"Content-Type": "application/problem+json"})
                seen.answered = action[1]
                return
            seen.answered = res.status
            if res.getheader("Content-Type", "").startswith("text/event-stream"):
                self.send_response(res.status)
                for k, v in res.getheaders():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.end_headers()
                limit = action[1] if action and action[0] == "cut" else None
                events = 0
                try:
                    while True:
                        line = res.readline()
                        if not line:
                            break
                        self.wfile.write(line)
                        if line in (b"\n", b"\r\n"):
                            self.wfile.flush()
                            events += 1
                            if limit is not None and events >= limit:
                                break  # drop the connection mid-stream
                except (BrokenPipeError, ConnectionResetError):
                    pass
                finally:
                    conn.close()
                return
            data = res.read()
            conn.close()
            self._reply(
                res.status,
                data,
                {k: v for k, v in res.getheaders() if k.lower() not in ("transfer-encoding", "connection", "content-length")},
            )

        def _reply(self, status: int, data: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _handle

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


def new_project(client: layerline.Client, name: str = "SDK test") -> layerline.Project:
    return client.projects.create(name, template="mlp-classifier")


def external_job(client: layerline.Client, project_id: str, **kwargs: Any) -> layerline.TrainingJob:
    return client.training_jobs.create(project_id, "builtin-iris", runtime="external", **kwargs)


# ---- a summary for scripts/summarize-tests.mjs (vitest's JSON field names) ----------------------

_counts = {"passed": 0, "failed": 0, "skipped": 0}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        _counts[report.outcome] = _counts.get(report.outcome, 0) + 1
    elif report.when == "teardown" and report.outcome == "failed":
        _counts["failed"] += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    target = os.environ.get("PYTEST_JSON_OUTPUT")
    if target:
        with open(target, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "numPassedTests": _counts["passed"],
                    "numFailedTests": _counts["failed"],
                    "numPendingTests": _counts["skipped"],
                },
                f,
            )
