"""Typed views of the API's main resources, built from JSON; unknown fields are ignored (kept in ``raw``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T", bound="Resource")

TERMINAL_JOB_STATES = frozenset({"succeeded", "failed", "cancelled", "timed_out"})


@dataclass
class Resource:
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls: type[T], data: dict[str, Any]) -> T:
        names = {f.name for f in dataclasses.fields(cls)} - {"raw"}
        return cls(raw=data, **{k: v for k, v in data.items() if k in names})  # type: ignore[arg-type]

    def __getitem__(self, key: str) -> Any:
        """Any field of the JSON, including ones this SDK version does not know."""
        return self.raw[key]


@dataclass
class Project(Resource):
    id: str = ""
    name: str = ""
    description: str = ""
    node_count: int | None = None
    current_version_id: str | None = None
    graph: dict[str, Any] | None = None
    training_config: dict[str, Any] | None = None
    created_at: str | None = None
    updated_at: str | None = None


@dataclass
class Dataset(Resource):
    id: str = ""
    name: str = ""
    description: str = ""
    builtin: bool = False
    visibility: str | None = None
    format: str | None = None
    task: str | None = None
    roles: dict[str, str] = field(default_factory=dict)
    size_bytes: int | None = None
    row_count: int | None = None
    columns: list[Any] | None = None
    current_version_id: str | None = None
    version_count: int | None = None
    created_at: str | None = None
    updated_at: str | None = None


@dataclass
class DatasetVersion(Resource):
    id: str = ""
    dataset_id: str = ""
    number: int = 0
    is_current: bool = False
    file_name: str | None = None
    content_hash: str | None = None
    size_bytes: int | None = None
    row_count: int | None = None
    created_at: str | None = None


@dataclass
class DatasetUpload(Resource):
    """The answer to an upload: the dataset, the version, and whether anything new was created."""

    dataset: Dataset = field(default_factory=Dataset)
    version: DatasetVersion = field(default_factory=DatasetVersion)
    created: bool = False

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "DatasetUpload":
        return cls(
            raw=data,
            dataset=Dataset.from_dict(data.get("dataset") or {}),
            version=DatasetVersion.from_dict(data.get("version") or {}),
            created=bool(data.get("created")),
        )


@dataclass
class TrainingJob(Resource):
    id: str = ""
    name: str = ""
    project_id: str = ""
    project_name: str = ""
    dataset_id: str = ""
    dataset_version_id: str = ""
    state: str = ""
    runtime: str = ""
    resolved_runtime: str | None = None
    strategy: str = ""
    config: dict[str, Any] = field(default_factory=dict)
    status_history: list[dict[str, Any]] = field(default_factory=list)
    reason: str | None = None
    progress: dict[str, Any] | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    waiting_for_slot: bool = False
    cancel_requested: bool = False
    compute_seconds: float = 0.0
    credits_charged: float = 0.0
    artifact: dict[str, Any] | None = None
    last_event_id: int = 0
    created_at: str | None = None
    started_at: str | None = None
    finished_at: str | None = None

    @property
    def finished(self) -> bool:
        return self.state in TERMINAL_JOB_STATES


@dataclass
class Deployment(Resource):
    id: str = ""
    name: str = ""
    state: str = ""
    key_prefix: str = ""
    revision: int | None = None
    job_id: str | None = None
    model_version_id: str | None = None
    task: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    inference_url: str = ""
    #: The deployment key (``ldk_…``): only in the answer to a creation (null on an idempotent replay).
    api_key: str | None = None
    created_at: str | None = None
    updated_at: str | None = None


@dataclass
class RegisteredModel(Resource):
    id: str = ""
    name: str = ""
    description: str = ""
    task: str | None = None
    tags: list[str] = field(default_factory=list)
    latest_version: int | None = None
    created_at: str | None = None
    updated_at: str | None = None


@dataclass
class ModelVersion(Resource):
    id: str = ""
    model_id: str = ""
    version: int = 0
    state: str = ""
    source: str = ""
    job_id: str | None = None
    description: str = ""
    metrics: dict[str, float] = field(default_factory=dict)
    artifact_format: str | None = None
    created_at: str | None = None
    finalized_at: str | None = None


@dataclass
class Event:
    """One server-sent event of a training job: ``kind`` is status, metric, log, checkpoint or progress."""

    id: int
    kind: str
    data: dict[str, Any]
