"""The API client against a real server: auth, errors, retries, idempotency, pagination, streams."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from conftest import SERVER, Account, FaultProxy, external_job, new_project

import layerline


def test_key_auth_typed_resources_and_problem_errors(account: Account) -> None:
    client = account.client()
    project = client.projects.create("Iris", template="mlp-classifier", description="from Python")
    assert isinstance(project, layerline.Project)
    assert project.id and project.name == "Iris" and project.description == "from Python"
    assert project.graph and project.graph["nodes"], "the template's graph"
    assert client.projects.get(project.id).id == project.id
    assert project["id"] == project.id  # every JSON field stays reachable

    with pytest.raises(layerline.LayerlineError) as missing:
        client.projects.get("prj_doesnotexist")
    assert missing.value.status == 404
    assert missing.value.title and missing.value.request_id

    with pytest.raises(layerline.LayerlineError) as invalid:
        client.training_jobs.create(project.id, "builtin-iris", runtime="external", config={"epochs": 0})
    assert invalid.value.status in (400, 422)
    assert any("epochs" in e["path"] for e in invalid.value.errors), invalid.value.errors

    with pytest.raises(layerline.LayerlineError) as unauthorized:
        layerline.Client(api_key="lk_wrong", base_url=SERVER).projects.get(project.id)
    assert unauthorized.value.status == 401


def test_key_and_url_from_the_environment_then_the_cli_config(
    account: Account, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LAYERLINE_API_KEY", raising=False)
    monkeypatch.delenv("LAYERLINE_URL", raising=False)
    monkeypatch.delenv("LAYERLINE_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "layerline").mkdir()
    (tmp_path / "layerline" / "config.json").write_text(json.dumps({"url": SERVER + "/api/v1", "key": account.key}))
    from_file = layerline.Client()
    assert from_file.base_url == SERVER and from_file.api_key == account.key
    assert from_file.projects.create("From the config file").id

    monkeypatch.setenv("LAYERLINE_API_KEY", "lk_from_env")
    monkeypatch.setenv("LAYERLINE_URL", "http://example.invalid:1")
    env = layerline.Client()
    assert env.api_key == "lk_from_env" and env.base_url == "http://example.invalid:1"
    explicit = layerline.Client(api_key=account.key, base_url=SERVER)
    assert explicit.api_key == account.key and explicit.base_url == SERVER


def _jobs_on_server(account: Account, project_id: str) -> list[layerline.TrainingJob]:
    return list(account.client().training_jobs.list_all(project_id=project_id))


def test_a_lost_create_response_is_retried_with_the_same_idempotency_key_one_job(
    account: Account, proxy: FaultProxy
) -> None:
    project = new_project(account.client())
    # The first POST reaches the server (which creates the job) but the client gets a 503.
    proxy.fault = lambda seen, n: ("after", 503) if seen.method == "POST" and seen.path == "/api/v1/training/jobs" and n == 1 else None
    delays: list[float] = []
    client = account.client(proxy.url, sleep=delays.append)
    job = external_job(client, project.id)

    posts = [s for s in proxy.seen if s.method == "POST" and s.path == "/api/v1/training/jobs"]
    assert [s.answered for s in posts] == [503, 201]
    keys = {s.headers.get("idempotency-key") for s in posts}
    assert len(keys) == 1 and None not in keys, "one key, reused on the retry"
    assert len(delays) == 1 and 0 < delays[0] <= 0.5, "exponential backoff with jitter: base 0.5 s"
    jobs = _jobs_on_server(account, project.id)
    assert [j.id for j in jobs] == [job.id], "exactly one job"

    # A second logical create gets a new key and a second job.
    other = external_job(client, project.id)
    assert other.id != job.id
    assert len(_jobs_on_server(account, project.id)) == 2


def test_a_503_before_the_server_is_retried_exactly_one_job(account: Account, proxy: FaultProxy) -> None:
    project = new_project(account.client())
    proxy.fault = lambda seen, n: ("status", 503) if seen.method == "POST" and seen.path == "/api/v1/training/jobs" and n <= 2 else None
    client = account.client(proxy.url, sleep=lambda s: None)
    job = external_job(client, project.id)
    assert proxy.count("POST", "/api/v1/training/jobs") == 3
    assert [j.id for j in _jobs_on_server(account, project.id)] == [job.id]


def test_429_honours_retry_after(account: Account, proxy: FaultProxy) -> None:
    project = new_project(account.client())
    path = f"/api/v1/projects/{project.id}"
    proxy.fault = lambda seen, n: ("status", 429, {"Retry-After": "2"}) if seen.path == path and n == 1 else None
    delays: list[float] = []
    client = account.client(proxy.url, sleep=delays.append)
    assert client.projects.get(project.id).id == project.id
    assert delays == [2.0]

    # A POST without an idempotency key is retried after a 429 (nothing happened) …
    proxy.fault = lambda seen, n: ("status", 429, {"Retry-After": "0"}) if seen.method == "POST" and seen.path == "/api/v1/projects" and n == 1 else None
    assert client.projects.create("after a 429").id
    # … but not after a 5xx, which may have happened.
    proxy.fault = lambda seen, n: ("status", 502) if seen.method == "POST" and seen.path == "/api/v1/projects" else None
    with pytest.raises(layerline.LayerlineError) as err:
        client.projects.create("no retry")
    assert err.value.status == 502
    assert proxy.count("POST", "/api/v1/projects") == 3


def test_retries_give_up_and_client_errors_are_not_retried(account: Account, proxy: FaultProxy) -> None:
    project = new_project(account.client())
    proxy.fault = lambda seen, n: ("status", 503) if seen.path.startswith("/api/v1/projects/") else None
    delays: list[float] = []
    client = account.client(proxy.url, sleep=delays.append, max_retries=3, backoff=0.1)
    with pytest.raises(layerline.LayerlineError) as err:
        client.projects.get(project.id)
    assert err.value.status == 503 and err.value.detail == "Injected 503."
    assert len(delays) == 3 and proxy.count("GET", f"/projects/{project.id}") == 4
    # Exponential: each delay is within [ceiling/2, ceiling] of 0.1, 0.2, 0.4.
    for attempt, delay in enumerate(delays):
        ceiling = 0.1 * 2**attempt
        assert ceiling / 2 <= delay <= ceiling

    proxy.fault = lambda seen, n: None
    with pytest.raises(layerline.LayerlineError) as missing:
        client.projects.get("prj_missing")
    assert missing.value.status == 404
    assert proxy.count("GET", "/projects/prj_missing") == 1

    refused = layerline.Client(api_key=account.key, base_url="http://127.0.0.1:9", max_retries=2, sleep=lambda s: None)
    with pytest.raises(layerline.LayerlineError) as down:
        refused.projects.get(project.id)
    assert down.value.status == 0


def test_pagination_iterates_250_jobs(account: Account) -> None:
    client = account.client()
    project = new_project(client)
    created = {external_job(client, project.id, name=f"job {i}").id for i in range(250)}
    assert len(created) == 250

    pages: list[int] = []
    original = client.request

    def counting(method: str, path: str, **kwargs):  # type: ignore[no-untyped-def]
        if path == "/api/v1/training/jobs":
            pages.append(kwargs["params"]["page"])
        return original(method, path, **kwargs)

    client.request = counting  # type: ignore[method-assign]
    listed = list(client.training_jobs.list_all(state="queued", project_id=project.id, page_size=100))
    assert pages == [1, 2, 3]
    assert len(listed) == 250 and {j.id for j in listed} == created
    assert all(isinstance(j, layerline.TrainingJob) and j.state == "queued" for j in listed)
    stamps = [j.created_at for j in listed]
    assert stamps == sorted(stamps, reverse=True), "newest first, no page overlap"
    assert list(client.training_jobs.list_all(state="running", project_id=project.id)) == []


def _report(account: Account, job_id: str, points: int) -> None:
    token = account.client().training_jobs.upload_token(job_id)
    run = layerline.init(job_id=job_id, token=token, base_url=SERVER, flush_interval=0.2, quiet=True)
    for step in range(points):
        run.log({"loss": 1.0 / (step + 1)}, step=step)
    run.log_text("done")
    run.finish("succeeded")


def test_stream_resumes_after_a_dropped_connection(account: Account, proxy: FaultProxy) -> None:
    client = account.client()
    job = external_job(client, new_project(client).id)
    _report(account, job.id, 20)

    direct = [(e.id, e.kind) for e in client.training_jobs.stream(job.id)]
    assert direct[-1][1] == "status" and len([k for _, k in direct if k == "metric"]) == 20

    stream_path = f"/api/v1/streaming/training-jobs/{job.id}/stream"
    proxy.fault = lambda seen, n: ("cut", 6) if seen.path.startswith(stream_path) and n in (1, 2) else None
    via_proxy = account.client(proxy.url, sleep=lambda s: None)
    stream = via_proxy.training_jobs.stream(job.id)
    events = list(stream)
    assert [(e.id, e.kind) for e in events] == direct, "every event once, in order"
    assert stream.connections == 3
    opened = [s for s in proxy.seen if s.path.startswith(stream_path)]
    assert len(opened) == 3
    assert "last-event-id" not in opened[0].headers
    assert int(opened[1].headers["last-event-id"]) == direct[5][0]
    assert int(opened[2].headers["last-event-id"]) == direct[11][0]
    tokens = {s.headers["authorization"] for s in opened}
    assert len(tokens) == 3, "a fresh stream token for each connection"
    assert events[-1].data["status"] == "succeeded"

    # Resuming after the final event: the server answers 204 and the iterator ends at once.
    assert list(client.training_jobs.stream(job.id, last_event_id=direct[-1][0])) == []


def test_stream_is_live_and_can_be_closed(account: Account) -> None:
    client = account.client()
    job = external_job(client, new_project(client).id)
    token = client.training_jobs.upload_token(job.id)
    run = layerline.init(job_id=job.id, token=token, base_url=SERVER, flush_interval=0.1, quiet=True)
    stream = client.training_jobs.stream(job.id)
    got: list[layerline.Event] = []
    for step in range(3):
        run.log({"acc": 0.5 + step / 10}, step=step)
    for event in stream:
        got.append(event)
        if len([e for e in got if e.kind == "metric"]) == 3:
            stream.close()
    assert [e.data["value"] for e in got if e.kind == "metric"] == [0.5, 0.6, 0.7]
    run.finish()
    assert client.training_jobs.wait(job.id, timeout=30, poll_interval=0.2).state == "succeeded"


def test_dataset_upload_is_streamed_and_idempotent(account: Account, tmp_path: Path) -> None:
    client = account.client()
    csv = tmp_path / "points.csv"
    with csv.open("w") as f:
        f.write("x,y,label\n")
        for i in range(2000):
            f.write(f"{i},{i * 2 % 7},{'a' if i % 3 else 'b'}\n")
    first = client.datasets.upload(csv, name="points")
    assert first.created and isinstance(first.dataset, layerline.Dataset)
    assert first.dataset.name == "points" and first.dataset.format == "csv"
    assert first.version.row_count == 2000 and first.version.size_bytes == csv.stat().st_size
    again = client.datasets.upload(csv, dataset_id=first.dataset.id)
    assert not again.created and again.version.id == first.version.id
    assert client.datasets.get(first.dataset.id).id == first.dataset.id
    assert first.dataset.id in {d.id for d in client.datasets.list_all()}


def test_registry_push_of_local_files(account: Account, tmp_path: Path) -> None:
    client = account.client()
    weights = tmp_path / "weights.bin"
    weights.write_bytes(bytes(range(256)) * 4096)
    notes = tmp_path / "notes.txt"
    notes.write_text("trained on my laptop\n")
    progress: list[str] = []
    version = client.registry.push(
        "sdk-model", files=[weights, notes], description="v1", on_progress=lambda name, done, total: progress.append(name)
    )
    assert isinstance(version, layerline.ModelVersion)
    assert version.state == "ready" and version.version == 1 and version.source == "bare"
    assert progress == ["weights.bin", "notes.txt"]
    second = client.registry.push("sdk-model", files=[notes])
    assert second.version == 2 and second.model_id == version.model_id
    assert [v.version for v in client.registry.list_versions(version.model_id)] == [2, 1]


def test_wait_times_out(account: Account) -> None:
    client = account.client()
    job = external_job(client, new_project(client).id)
    started = time.monotonic()
    with pytest.raises(layerline.TimeoutError):
        client.training_jobs.wait(job.id, timeout=0.5, poll_interval=0.1)
    assert time.monotonic() - started < 5
    cancelled = client.training_jobs.cancel(job.id)
    assert cancelled.state == "cancelled"


def test_concurrent_clients_share_nothing(account: Account) -> None:
    client = account.client()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            client.projects.create("threaded")
        except BaseException as err:  # noqa: BLE001
            errors.append(err)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len([p for p in client.projects.list_all(q="threaded")]) == 8


def test_train_push_deploy_and_predict(account: Account, proxy: FaultProxy) -> None:
    client = account.client()
    project = new_project(client, "Iris end to end")
    job = client.training_jobs.create(project.id, "builtin-iris", config={"epochs": 3})
    statuses = [e.data["status"] for e in client.training_jobs.stream(job.id) if e.kind == "status"]
    assert statuses[-1] == "succeeded", statuses
    job = client.training_jobs.wait(job.id, timeout=120)
    assert job.state == "succeeded" and job.artifact and "accuracy" in job.metrics

    version = client.registry.push("iris-from-sdk", job_id=job.id, description="3 epochs")
    assert version.state == "ready" and version.source == "job" and version.job_id == job.id

    # A lost creation response: the retry replays the stored answer (one deployment), and the
    # one-time key is never repeated.
    proxy.fault = lambda seen, n: ("after", 503) if seen.method == "POST" and seen.path == "/api/v1/deployments" and n == 1 else None
    via_proxy = account.client(proxy.url, sleep=lambda s: None)
    deployment = via_proxy.deployments.create("iris", job_id=job.id)
    assert deployment.api_key is None, "a replay redacts the key"
    assert [d.id for d in client.deployments.list_all()] == [deployment.id]
    key = client.deployments.rotate_key(deployment.id)
    assert key.startswith("ldk_")

    ready = client.deployments.wait_ready(deployment.id, timeout=120)
    assert ready.state == "ready" and ready.task == "classification"
    example = client.deployments.schema(deployment.id, key=key)["example"]["inputs"]
    outputs = client.deployments.predict(deployment.id, example * 3, key=key)
    assert len(outputs) == 3 and outputs[0]["label"] in ("setosa", "versicolor", "virginica")
    with pytest.raises(layerline.LayerlineError) as wrong:
        client.deployments.predict(deployment.id, example, key=account.key)
    assert wrong.value.status in (401, 403)
