"""The API client: ``Client(api_key=None, base_url=None)`` with one helper per area."""

from __future__ import annotations

import hashlib
import mimetypes
import os
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from . import config
from ._http import RetryPolicy, StreamedBody, Transport
from .errors import LayerlineError, TimeoutError
from .models import (
    TERMINAL_JOB_STATES,
    Dataset,
    DatasetUpload,
    Deployment,
    Event,
    ModelVersion,
    Project,
    RegisteredModel,
    TrainingJob,
)
from .sse import EventStream

API = "/api/v1"


def _q(value: str) -> str:
    return urllib.parse.quote(value, safe="")


class Client:
    """A client of one Layerline server.

    The key and URL come from the arguments, else ``LAYERLINE_API_KEY`` / ``LAYERLINE_URL``, else the
    command-line client's config file (``~/.config/layerline/config.json``: ``{"url", "key"}``).
    Requests are retried on 429 (honouring ``Retry-After``), 5xx and connection failures with
    exponential backoff and jitter (``max_retries`` further attempts).
    """

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        key, url = config.resolve(api_key, base_url)
        self.api_key = key
        self.base_url = url
        self.retry = RetryPolicy(max_retries=max_retries, base_delay=backoff, max_delay=max_backoff)
        self.http = Transport(url, key, timeout=timeout, retry=self.retry, sleep=sleep)
        self.projects = Projects(self)
        self.datasets = Datasets(self)
        self.training_jobs = TrainingJobs(self)
        self.deployments = Deployments(self)
        self.registry = Registry(self)

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r})"

    def _need_key(self) -> None:
        if not self.api_key:
            raise LayerlineError(
                401,
                "No API key",
                "Pass api_key=, set LAYERLINE_API_KEY, or run `layerline login`.",
            )

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """Any API route (``path`` from ``/api/v1/…``), JSON in and out."""
        self._need_key()
        return self.http.json(method, path, **kwargs)

    def paginate(
        self, path: str, params: Mapping[str, Any] | None = None, *, page_size: int = 100
    ) -> Iterator[dict[str, Any]]:
        """Every item of a paged list route (``{items, total, page, limit, pages}``), page after page."""
        page = 1
        while True:
            body = self.request("GET", path, params={**(params or {}), "page": page, "limit": page_size})
            items = body.get("items", [])
            yield from items
            pages = body.get("pages")
            if not items or (isinstance(pages, int) and page >= pages):
                return
            page += 1

    def paginate_skip(
        self, path: str, params: Mapping[str, Any] | None = None, *, page_size: int = 100
    ) -> Iterator[dict[str, Any]]:
        """Every item of a ``skip``/``limit`` route that answers a plain array."""
        skip = 0
        while True:
            items = self.request("GET", path, params={**(params or {}), "skip": skip, "limit": page_size})
            yield from items
            if len(items) < page_size:
                return
            skip += len(items)


class _Area:
    def __init__(self, client: Client) -> None:
        self._c = client


class Projects(_Area):
    def create(
        self,
        name: str,
        *,
        template: str | None = None,
        graph: dict[str, Any] | None = None,
        description: str | None = None,
        training_config: dict[str, Any] | None = None,
    ) -> Project:
        """A project from a ``template`` (e.g. ``mlp-classifier``), a ``graph``, or empty."""
        body: dict[str, Any] = {"name": name}
        for k, v in (
            ("template", template),
            ("graph", graph),
            ("description", description),
            ("training_config", training_config),
        ):
            if v is not None:
                body[k] = v
        return Project.from_dict(self._c.request("POST", f"{API}/projects", json_body=body))

    def get(self, project_id: str) -> Project:
        return Project.from_dict(self._c.request("GET", f"{API}/projects/{_q(project_id)}"))

    def list_all(self, *, q: str | None = None, page_size: int = 100) -> Iterator[Project]:
        for item in self._c.paginate(f"{API}/projects", {"q": q}, page_size=page_size):
            yield Project.from_dict(item)

    def delete(self, project_id: str) -> None:
        self._c.request("DELETE", f"{API}/projects/{_q(project_id)}")


class Datasets(_Area):
    def upload(
        self,
        path: str | os.PathLike[str],
        *,
        name: str | None = None,
        description: str | None = None,
        dataset_id: str | None = None,
    ) -> DatasetUpload:
        """Uploads a file, streamed from disk (never read whole into memory), as a new dataset or, with
        ``dataset_id``, a new version of one. Safe to retry: identical content creates nothing."""
        file = Path(path)
        size = file.stat().st_size
        boundary = f"layerline-{uuid.uuid4().hex}"
        fields = {"name": name, "description": description, "dataset_id": dataset_id}
        head = b""
        for key, value in fields.items():
            if value is not None:
                head += (
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
                ).encode()
        ctype = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        safe_name = file.name.replace('"', "_").replace("\r", "_").replace("\n", "_")
        head += (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{safe_name}"\r\n'
            f"Content-Type: {ctype}\r\n\r\n"
        ).encode()
        tail = f"\r\n--{boundary}--\r\n".encode()
        length = len(head) + size + len(tail)

        def body() -> StreamedBody:
            return StreamedBody([head, open(file, "rb"), tail])

        data = self._c.request(
            "POST",
            f"{API}/datasets/",
            body=body,
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Content-Length": str(length),
            },
            retry=True,
            timeout=600,
        )
        return DatasetUpload.from_dict(data)

    def get(self, dataset_id: str) -> Dataset:
        return Dataset.from_dict(self._c.request("GET", f"{API}/datasets/{_q(dataset_id)}"))

    def list_all(
        self, *, q: str | None = None, include_builtin: bool = False, page_size: int = 100
    ) -> Iterator[Dataset]:
        params = {"q": q, "include_builtin": include_builtin, "mine": None}
        for item in self._c.paginate_skip(f"{API}/datasets/browse", params, page_size=page_size):
            yield Dataset.from_dict(item)

    def delete(self, dataset_id: str) -> None:
        self._c.request("DELETE", f"{API}/datasets/{_q(dataset_id)}")


class TrainingJobs(_Area):
    def create(
        self,
        project_id: str,
        dataset_id: str,
        *,
        runtime: str = "auto",
        config: dict[str, Any] | None = None,
        name: str | None = None,
        version_id: str | None = None,
        dataset_version_id: str | None = None,
        strategy: str | None = None,
        recipe_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> TrainingJob:
        """Queues a job. One Idempotency-Key is generated for this call and reused on its retries, so a
        lost response never creates a second job. ``runtime="external"`` is your own hardware: report
        to it with :func:`layerline.init`."""
        body: dict[str, Any] = {"project_id": project_id, "dataset_id": dataset_id, "runtime": runtime}
        for k, v in (
            ("config", config),
            ("name", name),
            ("version_id", version_id),
            ("dataset_version_id", dataset_version_id),
            ("strategy", strategy),
            ("recipe_id", recipe_id),
        ):
            if v is not None:
                body[k] = v
        data = self._c.request(
            "POST",
            f"{API}/training/jobs",
            json_body=body,
            idempotency_key=idempotency_key or str(uuid.uuid4()),
        )
        return TrainingJob.from_dict(data)

    def get(self, job_id: str) -> TrainingJob:
        return TrainingJob.from_dict(self._c.request("GET", f"{API}/training/jobs/{_q(job_id)}"))

    def list_all(
        self,
        *,
        state: str | None = None,
        project_id: str | None = None,
        q: str | None = None,
        page_size: int = 100,
    ) -> Iterator[TrainingJob]:
        """Every job (newest first), page after page: ``for job in jobs.list_all(state="running")``."""
        params = {"state": state, "project_id": project_id, "q": q}
        for item in self._c.paginate(f"{API}/training/jobs", params, page_size=page_size):
            yield TrainingJob.from_dict(item)

    def cancel(self, job_id: str) -> TrainingJob:
        data = self._c.request("POST", f"{API}/training/jobs/{_q(job_id)}/cancel", retry=True)
        return TrainingJob.from_dict(data)

    def wait(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 2.0) -> TrainingJob:
        """Polls until the job is succeeded, failed, cancelled or timed out; returns it."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            job = self.get(job_id)
            if job.state in TERMINAL_JOB_STATES:
                return job
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(f"job {job_id} is still {job.state} after {timeout} s")
            left = poll_interval if deadline is None else deadline - time.monotonic()
            time.sleep(max(0.0, min(poll_interval, left)))

    def metrics(self, job_id: str, *, name: str | None = None, page_size: int = 1000) -> Iterator[dict[str, Any]]:
        """Every stored metric point ``{name, step, epoch, value, timestamp}``."""
        yield from self._c.paginate(
            f"{API}/training/jobs/{_q(job_id)}/metrics", {"name": name}, page_size=page_size
        )

    def logs(self, job_id: str, *, level: str | None = None, page_size: int = 1000) -> Iterator[dict[str, Any]]:
        """Every stored log line ``{id, timestamp, level, message}``."""
        yield from self._c.paginate(
            f"{API}/training/jobs/{_q(job_id)}/logs", {"level": level}, page_size=page_size
        )

    def upload_token(self, job_id: str) -> str:
        """Mints an upload token (``lut_…``) for :func:`layerline.init` on the machine that trains."""
        data = self._c.request("POST", f"{API}/training/jobs/{_q(job_id)}/stream-token", retry=True)
        return str(data["token"])

    def stream(
        self,
        job_id: str,
        *,
        last_event_id: int | None = None,
        max_reconnects: int | None = 30,
    ) -> EventStream:
        """The job's events as an iterator of :class:`Event`, live. A dropped connection is resumed with
        ``Last-Event-ID`` (and a fresh stream token): no event is lost or repeated. The iteration ends
        after the job's terminal status; ``close()`` ends it early."""
        self._c._need_key()
        http = self._c.http
        sse_timeout = max(http.timeout, 45.0)  # the server sends a keep-alive at least every 15 s

        def connect(after: int | None):
            token = self._c.request(
                "POST", f"{API}/training/jobs/{_q(job_id)}/stream-access-token", retry=True
            )["token"]
            headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
            if after is not None:
                headers["Last-Event-ID"] = str(after)
            return http.open(
                "GET",
                f"{API}/streaming/training-jobs/{_q(job_id)}/stream",
                headers=headers,
                token=token,
                timeout=sse_timeout,
            )

        def is_final(event: Event) -> bool:
            return event.kind == "status" and event.data.get("status") in TERMINAL_JOB_STATES

        return EventStream(
            connect,
            is_final,
            last_event_id=last_event_id,
            retry=self._c.retry,
            sleep=http.sleep,
            max_reconnects=max_reconnects,
        )


class Deployments(_Area):
    def create(
        self,
        name: str,
        *,
        job_id: str | None = None,
        model_version_id: str | None = None,
        settings: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Deployment:
        """Deploys a succeeded job's model (or a registry version). The answer's ``api_key`` is the
        deployment key, shown once (null on an idempotent replay: rotate the key then)."""
        body: dict[str, Any] = {"name": name}
        for k, v in (("job_id", job_id), ("model_version_id", model_version_id), ("settings", settings)):
            if v is not None:
                body[k] = v
        data = self._c.request(
            "POST",
            f"{API}/deployments",
            json_body=body, idempotency_key=idempotency_key or str(uuid.uuid4())
        )
        return Deployment.from_dict(data)

    def get(self, deployment_id: str) -> Deployment:
        return Deployment.from_dict(self._c.request("GET", f"{API}/deployments/{_q(deployment_id)}"))

    def list_all(self, *, page_size: int = 100) -> Iterator[Deployment]:
        for item in self._c.paginate(f"{API}/deployments", page_size=page_size):
            yield Deployment.from_dict(item)

    def wait_ready(self, deployment_id: str, *, timeout: float = 120.0, poll_interval: float = 1.0) -> Deployment:
        """Polls until the deployment is ``ready`` (raises on ``failed``)."""
        deadline = time.monotonic() + timeout
        while True:
            dep = self.get(deployment_id)
            if dep.state == "ready":
                return dep
            if dep.state == "failed":
                raise LayerlineError(0, "Deployment failed", f"deployment {deployment_id} failed")
            if time.monotonic() >= deadline:
                raise TimeoutError(f"deployment {deployment_id} is still {dep.state} after {timeout} s")
            time.sleep(poll_interval)

    def predict(self, deployment_id: str, inputs: list[Any], *, key: str) -> list[Any]:
        """Predictions for ``inputs``, authenticated with the deployment key (``ldk_…``), not yours."""
        if not key:
            raise ValueError("predict() needs the deployment key (ldk_…) returned by create() or rotate_key()")
        data = self._c.http.json(
            "POST",
            f"{API}/inference/{_q(deployment_id)}/predict",
            json_body={"inputs": inputs},
            token=key,
            retry=True,
        )
        return list(data["outputs"])

    def schema(self, deployment_id: str, *, key: str) -> dict[str, Any]:
        """The deployment's input and output schema (deployment key)."""
        if not key:
            raise ValueError("schema() needs the deployment key (ldk_…)")
        return self._c.http.json("GET", f"{API}/inference/{_q(deployment_id)}/schema", token=key)

    def rotate_key(self, deployment_id: str) -> str:
        """A new deployment key (the old one stops working); returns it."""
        data = self._c.request("POST", f"{API}/deployments/{_q(deployment_id)}/rotate-key")
        return str(data["api_key"])

    def delete(self, deployment_id: str) -> None:
        self._c.request("DELETE", f"{API}/deployments/{_q(deployment_id)}")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Registry(_Area):
    def create_model(
        self, name: str, *, description: str | None = None, task: str | None = None, tags: list[str] | None = None
    ) -> RegisteredModel:
        body: dict[str, Any] = {"name": name}
        for k, v in (("description", description), ("task", task), ("tags", tags)):
            if v is not None:
                body[k] = v
        return RegisteredModel.from_dict(self._c.request("POST", f"{API}/models", json_body=body))

    def list_models(self) -> list[RegisteredModel]:
        return [RegisteredModel.from_dict(m) for m in self._c.request("GET", f"{API}/models")]

    def get_model(self, model_id: str) -> RegisteredModel:
        return RegisteredModel.from_dict(self._c.request("GET", f"{API}/models/{_q(model_id)}"))

    def list_versions(self, model_id: str) -> list[ModelVersion]:
        data = self._c.request("GET", f"{API}/models/{_q(model_id)}/versions")
        items = data.get("items", []) if isinstance(data, dict) else data
        return [ModelVersion.from_dict(v) for v in items]

    def push(
        self,
        model: str,
        *,
        job_id: str | None = None,
        files: list[str | os.PathLike[str]] | None = None,
        description: str | None = None,
        task: str | None = None,
        task_contract: dict[str, Any] | None = None,
        on_progress: Callable[[str, int, int], None] | None = None,
    ) -> ModelVersion:
        """Pushes a new version of the model entry named (or with the id) ``model``, creating the entry
        when there is none: from a succeeded ``job_id``, or from local ``files`` (each streamed with its
        SHA-256 declared and checked; to the object store itself when the server stores files in S3).
        Returns the finalized version."""
        entry = next((m for m in self.list_models() if model in (m.id, m.name)), None)
        if entry is None:
            entry = self.create_model(model, task=task)
        body: dict[str, Any] = {}
        for k, v in (("job_id", job_id), ("description", description), ("task_contract", task_contract)):
            if v is not None:
                body[k] = v
        version = ModelVersion.from_dict(
            self._c.request("POST", f"{API}/models/{_q(entry.id)}/versions", json_body=body)
        )
        base = f"{API}/model-versions/{_q(version.id)}"
        for item in files or []:
            path = Path(item)
            size = path.stat().st_size
            start = self._c.request(
                "POST",
                f"{base}/artifacts:initiate",
                # Straight to the object store when the server offers it (files in S3), else to the API.
                json_body={"name": path.name, "size_bytes": size, "sha256": _sha256(path), "direct_upload": True},
                retry=True,
            )
            upload = start["upload"]
            self._c.http.request(
                upload.get("method", "PUT"),
                upload["url"],
                body=lambda path=path: open(path, "rb"),
                headers={**upload.get("headers", {}), "Content-Length": str(size)},
                token="",
                timeout=600,
            )
            self._c.request("POST", f"{base}/artifacts/{_q(start['artifact_id'])}/complete", retry=True)
            if on_progress:
                on_progress(path.name, size, size)
        if version.state != "ready":
            version = ModelVersion.from_dict(self._c.request("POST", f"{base}/finalize", retry=True))
        return version
