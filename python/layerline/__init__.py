"""Layerline's Python SDK.

    import layerline
    client = layerline.Client()                      # LAYERLINE_API_KEY / LAYERLINE_URL / CLI config
    for job in client.training_jobs.list_all(state="running"):
        print(job.id, job.metrics)

    run = layerline.init(job_id="job_…", token="lut_…")   # training on your own hardware
    run.log({"loss": 0.3}, step=10)
    run.finish()
"""

from ._http import RetryPolicy, __version__
from .client import Client
from .errors import LayerlineError, TimeoutError
from .models import (
    TERMINAL_JOB_STATES,
    Dataset,
    DatasetUpload,
    DatasetVersion,
    Deployment,
    Event,
    ModelVersion,
    Project,
    RegisteredModel,
    TrainingJob,
)
from .run import Run, init
from .sse import EventStream

__all__ = [
    "TERMINAL_JOB_STATES",
    "Client",
    "Dataset",
    "DatasetUpload",
    "DatasetVersion",
    "Deployment",
    "Event",
    "EventStream",
    "LayerlineError",
    "ModelVersion",
    "Project",
    "RegisteredModel",
    "RetryPolicy",
    "Run",
    "TimeoutError",
    "TrainingJob",
    "__version__",
    "init",
]
