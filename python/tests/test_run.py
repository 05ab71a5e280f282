"""The own-hardware path: `layerline.init(job_id, token)` reporting to an `external` job."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from conftest import SERVER, Account, FaultProxy, external_job, new_project

import layerline

PACKAGE_DIR = str(Path(__file__).resolve().parents[1])
TORCH_PYTHON = os.environ.get("LAYERLINE_TORCH_PYTHON", "/usr/bin/python3")

TRAIN_SCRIPT = textwrap.dedent(
    """
    import sys, time
    import torch
    import layerline

    torch.manual_seed(0)
    x = torch.randn(256, 4)
    y = (x.sum(dim=1, keepdim=True) > 0).float()
    model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    loss_fn = torch.nn.BCEWithLogitsLoss()

    run = layerline.init()  # LAYERLINE_JOB_ID, LAYERLINE_UPLOAD_TOKEN, LAYERLINE_URL
    run.log_text(f"torch {torch.__version__} on {'cuda' if torch.cuda.is_available() else 'cpu'}")
    for step in range(50):
        optimizer.zero_grad()
        logits = model(x)
        loss = loss_fn(logits, y)
        loss.backward()
        optimizer.step()
        accuracy = ((logits > 0).float() == y).float().mean()
        run.log({"loss": loss.item(), "accuracy": accuracy}, step=step, epoch=step // 10)
        if step % 10 == 9:
            run.progress(epoch=step // 10 + 1, epochs=5, step=10, steps=10)
        time.sleep(0.06)
    print(f"FINISH_AT {time.time()}", flush=True)
    # No finish() call: the run finishes `succeeded` at exit (atexit), after flushing.
    """
)


def test_a_pytorch_script_reports_live_to_an_external_job(account: Account, tmp_path: Path) -> None:
    client = account.client()
    project = new_project(client, "Own hardware")
    job = external_job(client, project.id, name="laptop run")
    assert job.state == "queued" and job.runtime == "external"
    token = client.training_jobs.upload_token(job.id)
    assert token.startswith("lut_")

    # A subscriber follows the job from before the first upload, as the job page does.
    received: list[tuple[float, layerline.Event]] = []
    stream = client.training_jobs.stream(job.id)

    def follow() -> None:
        for event in stream:
            received.append((time.time(), event))

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()

    script = tmp_path / "train.py"
    script.write_text(TRAIN_SCRIPT)
    env = {
        **os.environ,
        "PYTHONPATH": PACKAGE_DIR,
        "LAYERLINE_JOB_ID": job.id,
        "LAYERLINE_UPLOAD_TOKEN": token,
        "LAYERLINE_URL": SERVER,
    }
    env.pop("LAYERLINE_API_KEY", None)
    done = subprocess.run([TORCH_PYTHON, str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    finish_at = float(next(line for line in done.stdout.splitlines() if line.startswith("FINISH_AT")).split()[1])

    follower.join(timeout=30)
    assert not follower.is_alive(), "the stream ends after the terminal status"
    metric_times = [at for at, e in received if e.kind == "metric"]
    assert len(metric_times) == 100  # 50 steps × loss and accuracy
    live = [at for at in metric_times if at < finish_at]
    assert len(live) >= 10 and min(live) < finish_at - 0.5, "metrics arrived live, before the script finished"
    assert received[-1][1].kind == "status" and received[-1][1].data["status"] == "succeeded"
    ids = [e.id for _, e in received]
    assert ids == sorted(set(ids))
    assert any(e.kind == "progress" for _, e in received)
    assert any(e.kind == "log" and "torch" in e.data["message"] for _, e in received)

    final = client.training_jobs.get(job.id)
    assert final.state == "succeeded"
    assert set(final.metrics) == {"loss", "accuracy"}
    losses = list(client.training_jobs.metrics(job.id, name="loss"))
    assert [p["step"] for p in losses] == list(range(50))
    assert losses[-1]["value"] < losses[0]["value"], "the model learned"
    assert losses[-1]["value"] == final.metrics["loss"]
    assert final.progress and final.progress["epoch"] == 5


def test_a_failing_script_marks_the_job_failed(account: Account, tmp_path: Path) -> None:
    client = account.client()
    job = external_job(client, new_project(client).id)
    script = tmp_path / "crash.py"
    script.write_text(
        "import layerline\n"
        "run = layerline.init()\n"
        "run.log({'loss': 1.0}, step=0)\n"
        "raise RuntimeError('out of memory')\n"
    )
    env = {**os.environ, "PYTHONPATH": PACKAGE_DIR, "LAYERLINE_JOB_ID": job.id, "LAYERLINE_URL": SERVER}
    # No upload token: init() mints one with the personal key.
    env["LAYERLINE_API_KEY"] = account.key
    env.pop("LAYERLINE_UPLOAD_TOKEN", None)
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "out of memory" in done.stderr
    final = client.training_jobs.get(job.id)
    assert final.state == "failed"
    assert "out of memory" in (final.reason or "")
    assert final.metrics == {"loss": 1.0}


def test_context_manager_batches_and_retries_without_duplicates(account: Account, proxy: FaultProxy) -> None:
    client = account.client()
    job = external_job(client, new_project(client).id)
    token = client.training_jobs.upload_token(job.id)
    upload = f"/api/v1/training/jobs/{job.id}/metrics/events"
    # The second upload is stored by the server but its answer is lost: the retry must not duplicate.
    proxy.fault = lambda seen, n: ("after", 503) if seen.path == upload and n == 2 else None
    with layerline.init(job_id=job.id, token=token, base_url=proxy.url, flush_interval=30, batch_size=500, quiet=True) as run:
        for step in range(1200):
            run.log({"loss": 1 / (step + 1)}, step=step)
    assert run.finished
    posts = [s for s in proxy.seen if s.path == upload]
    # running + 499 metrics, 500, 200, the status: batches of at most 500 events.
    assert [s.answered for s in posts] == [202, 503, 202, 202, 202]
    assert run.duplicates == 500 and run.accepted == 1 + 1200 + 1 - 500
    points = list(client.training_jobs.metrics(job.id, name="loss"))
    assert [p["step"] for p in points] == list(range(1200))
    assert client.training_jobs.get(job.id).state == "succeeded"

    # The job has finished: another run gets 409 and stops quietly instead of raising.
    late = layerline.init(job_id=job.id, token=token, base_url=SERVER, flush_interval=0.05, quiet=True)
    late.log({"loss": 0.0}, step=9999)
    assert not late.flush(5)
    assert late.closed_reason
    late.finish()


def test_the_generated_train_py_reports_to_an_external_job_by_the_same_protocol(
    account: Account, tmp_path: Path
) -> None:
    """The studio's generated train.py stays standard-library-only (no layerline import) and speaks
    the same upload protocol: run on "own hardware", it drives an external job as the SDK does."""
    import io
    import zipfile

    client = account.client()
    job = external_job(client, new_project(client, "Generated code").id, config={"epochs": 2})
    token = client.training_jobs.upload_token(job.id)
    archive = client.http.request("GET", f"/api/v1/training/jobs/{job.id}/download-code")
    with zipfile.ZipFile(io.BytesIO(archive.body)) as z:
        z.extractall(tmp_path)
    train = next(tmp_path.rglob("train.py"))
    source = train.read_text()
    assert "import layerline" not in source and "urllib.request" in source

    stream = client.training_jobs.stream(job.id)
    done = subprocess.run(
        [TORCH_PYTHON, str(train), "--synthetic", "64", "--epochs", "2", "--job", job.id, "--token", token, "--api", SERVER],
        cwd=train.parent,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    events = list(stream)
    assert events[-1].kind == "status" and events[-1].data["status"] == "succeeded"
    assert {e.data["name"] for e in events if e.kind == "metric"} >= {"loss", "accuracy"}
    final = client.training_jobs.get(job.id)
    assert final.state == "succeeded" and "loss" in final.metrics
