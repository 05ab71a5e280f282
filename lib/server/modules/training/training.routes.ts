/**
 * The training routes (contract §4.6): one createRoute per operation, the OpenAPI source of truth of
 * the area. One piece by design (past ~400 lines): one file per area (../shared/STYLE.md, "Server
 * modules"); handlers are in training.handlers.ts, schemas in training.schemas.ts.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { allowJsonBody } from "../../http/body-limit";
import { credentials } from "../../http/credentials";
import { idempotency } from "../../http/idempotency";
import { errors, idempotencyKeyHeaders, jsonBody, jsonContent, security } from "../../http/openapi";
import { pagedSchema } from "../../http/paging";
import {
  artifactFileParams,
  artifactFileSchema,
  bulkDeleteBodySchema,
  bulkDeleteResultSchema,
  checkpointListSchema,
  checkpointParams,
  checkpointSchema,
  checkpointUploadQuerySchema,
  createJobBodySchema,
  datasetFitListSchema,
  datasetFitQuerySchema,
  estimateBodySchema,
  estimateSchema,
  jobIdParams,
  listJobsQuerySchema,
  logsPageSchema,
  logsQuerySchema,
  metricsPageSchema,
  metricsQuerySchema,
  metricsSummaryResponseSchema,
  recipeListSchema,
  recipeQuerySchema,
  runtimeListSchema,
  strategyListSchema,
  streamQuerySchema,
  streamTokenSchema,
  trainingJobSchema,
  uploadEventsBodySchema,
  uploadEventsResultSchema,
  uploadTokenSchema,
} from "./training.schemas";

const tags = ["Training"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };
/** JSON body cap of an event upload (http/body-limit.ts): 1,000 events with 10,000-character log lines. */
const EVENTS_JSON_BYTES = 16 * 1024 * 1024;
const uploadAuth = { security: security(["upload_token"]), middleware: [credentials(["upload_token"])] };
const base = "/api/v1/training/jobs";
const binary = { schema: z.string().openapi({ format: "binary" }) };
const download = (description: string, type: string) => ({
  description,
  headers: {
    "Content-Disposition": { description: "attachment; filename=…", schema: { type: "string" as const } },
  },
  content: { [type]: binary },
});

export const createTrainingJob = createRoute({
  method: "post",
  path: base,
  operationId: "createTrainingJob",
  tags,
  summary: "Create a training job (honours Idempotency-Key)",
  description:
    "Snapshots the project's architecture (or `version_id`) and configuration (overridden by `config`) and " +
    "queues the job. Jobs above the plan's `concurrent_training_jobs` wait in `queued` " +
    "(`waiting_for_slot: true`); they are never refused. No credits left → 402 (`insufficient-credits`); a " +
    "strategy the plan lacks → 402 (`plan-limit`). A replay with the same Idempotency-Key and body returns the " +
    "original response with `Idempotency-Replayed: true`.",
  ...auth,
  middleware: [credentials([...userCreds]), idempotency()],
  request: {
    headers: idempotencyKeyHeaders,
    body: jsonBody(createJobBodySchema),
  },
  responses: {
    201: jsonContent(trainingJobSchema, "The queued job"),
    ...errors(400, 401, 402, 403, 404, 409, 422),
  },
});

export const listTrainingJobs = createRoute({
  method: "get",
  path: base,
  operationId: "listTrainingJobs",
  tags,
  summary: "List training jobs (newest first), filtered by state, project or name",
  ...auth,
  request: { query: listJobsQuerySchema },
  responses: {
    200: jsonContent(pagedSchema(trainingJobSchema, "TrainingJobPage"), "A page of jobs"),
    ...errors(401, 403, 422),
  },
});

export const getTrainingJob = createRoute({
  method: "get",
  path: `${base}/{job_id}`,
  operationId: "getTrainingJob",
  tags,
  summary: "Get a training job",
  ...auth,
  request: { params: jobIdParams },
  responses: { 200: jsonContent(trainingJobSchema, "The job"), ...errors(401, 403, 404) },
});

export const cancelTrainingJob = createRoute({
  method: "post",
  path: `${base}/{job_id}/cancel`,
  operationId: "cancelTrainingJob",
  tags,
  summary: "Cancel a queued or running job (409 once finished)",
  description:
    "A queued job is cancelled at once; a running one stops within seconds (its process is terminated) and " +
    "then reads `cancelled`; `cancel_requested` is true meanwhile.",
  ...auth,
  request: { params: jobIdParams },
  responses: {
    200: jsonContent(trainingJobSchema, "The job after the request"),
    ...errors(401, 403, 404, 409),
  },
});

export const restartTrainingJob = createRoute({
  method: "post",
  path: `${base}/{job_id}/restart`,
  operationId: "restartTrainingJob",
  tags,
  summary: "Restart a failed, cancelled or timed-out job (resumes from its last checkpoint)",
  ...auth,
  request: { params: jobIdParams },
  responses: {
    200: jsonContent(trainingJobSchema, "The job, queued again"),
    ...errors(401, 402, 403, 404, 409),
  },
});

export const bulkDeleteTrainingJobs = createRoute({
  method: "post",
  path: `${base}/bulk-delete`,
  operationId: "bulkDeleteTrainingJobs",
  tags,
  summary: "Delete 1 to 100 finished jobs with their metrics, logs, checkpoints and artifacts",
  description: "Queued and running jobs are not deleted: they are listed in `active` (cancel them first).",
  ...auth,
  request: { body: jsonBody(bulkDeleteBodySchema) },
  responses: { 200: jsonContent(bulkDeleteResultSchema, "What was deleted"), ...errors(400, 401, 403, 422) },
});

export const getTrainingMetrics = createRoute({
  method: "get",
  path: `${base}/{job_id}/metrics`,
  operationId: "getTrainingMetrics",
  tags,
  summary: "Historical metrics (paged up to 10,000 points, or downsampled with max_points)",
  ...auth,
  request: { params: jobIdParams, query: metricsQuerySchema },
  responses: { 200: jsonContent(metricsPageSchema, "Metric points"), ...errors(401, 403, 404, 422) },
});

export const getTrainingMetricsSummary = createRoute({
  method: "get",
  path: `${base}/{job_id}/metrics/summary`,
  operationId: "getTrainingMetricsSummary",
  tags,
  summary: "Aggregate metrics: per series count, last, min, max, mean and best step",
  ...auth,
  request: { params: jobIdParams },
  responses: { 200: jsonContent(metricsSummaryResponseSchema, "The summary"), ...errors(401, 403, 404) },
});

export const getTrainingLogs = createRoute({
  method: "get",
  path: `${base}/{job_id}/logs`,
  operationId: "getTrainingLogs",
  tags,
  summary: "Historical logs (oldest first, paged up to 10,000 lines; level, since and text filters)",
  ...auth,
  request: { params: jobIdParams, query: logsQuerySchema },
  responses: { 200: jsonContent(logsPageSchema, "Log lines"), ...errors(401, 403, 404, 422) },
});

export const downloadTrainingCode = createRoute({
  method: "get",
  path: `${base}/{job_id}/download-code`,
  operationId: "downloadTrainingCode",
  tags,
  summary:
    "Download the job's training code (the files its worker ran), its prepared dataset (data/) and the command that trains it again, as a ZIP",
  ...auth,
  request: {
    params: jobIdParams,
    query: z.object({ target: z.enum(["pytorch", "tfjs"]).default("pytorch") }),
  },
  responses: { 200: download("The ZIP archive, streamed", "application/zip"), ...errors(401, 403, 404, 422) },
});

export const downloadTrainingDag = createRoute({
  method: "get",
  path: `${base}/{job_id}/dag`,
  operationId: "downloadTrainingDag",
  tags,
  summary: "Download the job's architecture and configuration as a DAG JSON file",
  ...auth,
  request: { params: jobIdParams },
  responses: {
    200: {
      description: "The DAG file (layerline-dag format), importable with POST /projects/import-dag",
      content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
    },
    ...errors(401, 403, 404),
  },
});

export const listTrainingCheckpoints = createRoute({
  method: "get",
  path: `${base}/{job_id}/checkpoints`,
  operationId: "listTrainingCheckpoints",
  tags,
  summary: "List checkpoints, newest epoch first (the best is flagged)",
  ...auth,
  request: { params: jobIdParams },
  responses: { 200: jsonContent(checkpointListSchema, "The checkpoints"), ...errors(401, 403, 404) },
});

export const downloadTrainingCheckpoint = createRoute({
  method: "get",
  path: `${base}/{job_id}/checkpoints/{checkpoint_id}/download`,
  operationId: "downloadTrainingCheckpoint",
  tags,
  summary: "Download a checkpoint file (streamed)",
  ...auth,
  request: { params: checkpointParams },
  responses: {
    200: download("The checkpoint (PyTorch state dict, or TF.js weights)", "application/octet-stream"),
    ...errors(401, 403, 404),
  },
});

export const uploadTrainingCheckpoint = createRoute({
  method: "post",
  path: `${base}/{job_id}/checkpoints`,
  operationId: "uploadTrainingCheckpoint",
  tags,
  summary: "Upload a checkpoint file (upload token; the body is the file's bytes)",
  description:
    "Used by training programs (the managed runtimes' and your own). A second upload for the same epoch " +
    "replaces the first. Emits a `checkpoint` event. Checked before it is stored: the file is a PyTorch " +
    "checkpoint (the ZIP archive torch.save writes, first entry `<name>/data.pkl`) or the TF.js checkpoint " +
    "document the generated script writes (else 422); `epoch` is at most the job's configured epochs (422); " +
    "the size is at most the plan's `checkpoint_bytes` (413, refused before reading when Content-Length " +
    "says so); it fits the storage quota (402 `storage-quota`). The job keeps its best checkpoint and the " +
    "last `checkpoints_kept_per_job` epochs; older checkpoints are deleted as new ones arrive.",
  ...uploadAuth,
  request: {
    params: jobIdParams,
    query: checkpointUploadQuerySchema,
    body: { required: true, content: { "application/octet-stream": binary } },
  },
  responses: {
    201: jsonContent(checkpointSchema, "The stored checkpoint"),
    ...errors(401, 402, 403, 409, 413, 422),
  },
});

export const uploadTrainingArtifactFile = createRoute({
  method: "put",
  path: `${base}/{job_id}/artifact/{file_name}`,
  operationId: "uploadTrainingArtifactFile",
  tags,
  summary: "Upload one model artifact file (upload token): model.onnx, or TF.js model.json and weights",
  description:
    "When the job succeeds, the service adds `manifest.json` (task, input features and their preprocessing, " +
    "output labels, metrics, architecture and dataset versions). The file counts against the owner's " +
    "storage quota (402 `storage-quota` when it would not fit).",
  ...uploadAuth,
  request: {
    params: artifactFileParams,
    body: { required: true, content: { "application/octet-stream": binary } },
  },
  responses: {
    201: jsonContent(artifactFileSchema, "The stored file"),
    ...errors(401, 402, 403, 409, 413, 422),
  },
});

export const downloadTrainingArtifactFile = createRoute({
  method: "get",
  path: `${base}/{job_id}/artifact/{file_name}`,
  operationId: "downloadTrainingArtifactFile",
  tags,
  summary: "Download one file of a succeeded job's model artifact (manifest.json included)",
  ...auth,
  request: { params: artifactFileParams },
  responses: {
    200: {
      ...download(
        "The file, streamed (manifest.json and other .json files as application/json)",
        "application/octet-stream",
      ),
      content: {
        "application/octet-stream": binary,
        "application/json": { schema: z.unknown().openapi({ description: "The JSON file as written" }) },
      },
    },
    ...errors(401, 403, 404),
  },
});

export const createTrainingStreamAccessToken = createRoute({
  method: "post",
  path: `${base}/{job_id}/stream-access-token`,
  operationId: "createTrainingStreamAccessToken",
  tags,
  summary: "Mint a stream token (lst_…, 5 minutes to open the job's event stream)",
  ...auth,
  request: { params: jobIdParams },
  responses: {
    201: jsonContent(streamTokenSchema, "The token and the stream URL"),
    ...errors(401, 403, 404),
  },
});

export const streamTrainingJob = createRoute({
  method: "get",
  path: "/api/v1/streaming/training-jobs/{job_id}/stream",
  operationId: "streamTrainingJob",
  tags,
  summary: "The job's events as server-sent events (stream token)",
  description:
    "Events `status`, `metric`, `log`, `checkpoint` and `progress`, each with an increasing `id`. Everything " +
    "after `Last-Event-ID` (header, or `last_event_id` query parameter) is sent first, then live events; a " +
    "`: keep-alive` comment at least every 15 s; the server closes the stream after a terminal status.",
  security: security(["stream_token"]),
  middleware: [credentials(["stream_token"])],
  request: {
    params: jobIdParams,
    query: streamQuerySchema.extend({
      last_event_id: z.coerce
        .number()
        .int()
        .min(0)
        .optional()
        .openapi({ description: "Resume after this id" }),
    }),
  },
  responses: {
    200: { description: "The event stream", content: { "text/event-stream": { schema: z.string() } } },
    204: { description: "The job has finished and nothing follows Last-Event-ID: stop reconnecting" },
    ...errors(401, 403, 404),
  },
});

export const createTrainingUploadToken = createRoute({
  method: "post",
  path: `${base}/{job_id}/stream-token`,
  operationId: "createTrainingUploadToken",
  tags,
  summary: "Mint an upload token (lut_…) for an external job; valid until the job finishes",
  description:
    "For jobs with runtime `external` (your own hardware): the token uploads events, checkpoints and " +
    "artifact files to this job only. A managed job (runtime `pytorch`, `tfjs` or `auto`) gets its token " +
    "from the service, one per attempt, and no one else can mint one: 409. A finished job: 409.",
  ...auth,
  request: { params: jobIdParams },
  responses: {
    201: jsonContent(uploadTokenSchema, "The token and the upload URL"),
    ...errors(401, 403, 404, 409),
  },
});

export const uploadTrainingEvents = createRoute({
  method: "post",
  path: `${base}/{job_id}/metrics/events`,
  operationId: "uploadTrainingEvents",
  tags,
  summary: "Upload metric, log, status and progress events (upload token; up to 1,000 a request)",
  description:
    "Events with an `id` already stored count as duplicates and are not stored twice. For an `external` job " +
    "the first upload starts it and `status` events end it; for managed jobs the worker owns the state. A " +
    "finished job answers 409.",
  ...uploadAuth,
  middleware: [...uploadAuth.middleware, allowJsonBody(EVENTS_JSON_BYTES)],
  request: { params: jobIdParams, body: jsonBody(uploadEventsBodySchema) },
  responses: {
    202: jsonContent(uploadEventsResultSchema, "Accepted"),
    ...errors(400, 401, 403, 404, 409, 422),
  },
});

export const listDatasetFit = createRoute({
  method: "get",
  path: "/api/v1/training/dataset-fit",
  operationId: "listTrainingDatasetFit",
  tags,
  summary:
    "Which of the caller's and the built-in datasets fit a project's model (or a base model), and why not",
  ...auth,
  request: { query: datasetFitQuerySchema },
  responses: {
    200: jsonContent(datasetFitListSchema, "Every dataset with its verdict"),
    ...errors(401, 403, 404, 409, 422),
  },
});

export const listTrainingRuntimes = createRoute({
  method: "get",
  path: "/api/v1/training/runtimes",
  operationId: "listTrainingRuntimes",
  tags,
  summary: "The runtimes this service's workers offer, and which one `auto` picks",
  ...auth,
  responses: { 200: jsonContent(runtimeListSchema, "The runtimes"), ...errors(401, 403) },
});

export const listAllowedStrategies = createRoute({
  method: "get",
  path: "/api/v1/training/allowed-strategies",
  operationId: "listAllowedTrainingStrategies",
  tags,
  summary: "Distribution strategies and whether the caller's plan allows each",
  ...auth,
  responses: { 200: jsonContent(strategyListSchema, "The strategies"), ...errors(401, 403) },
});

export const listTrainingRecipes = createRoute({
  method: "get",
  path: "/api/v1/training/recipes",
  operationId: "listTrainingRecipes",
  tags,
  summary: "Named presets (task, architecture, configuration, base model) offered when starting a job",
  ...auth,
  request: { query: recipeQuerySchema },
  responses: { 200: jsonContent(recipeListSchema, "The recipes"), ...errors(401, 403, 404, 422) },
});

export const estimateTrainingResources = createRoute({
  method: "post",
  path: "/api/v1/training/estimate-resources",
  operationId: "estimateTrainingResources",
  tags,
  summary:
    "Parameters, FLOPs, memory, and wall time and credits on this service's runners, before a job starts",
  ...auth,
  request: { body: jsonBody(estimateBodySchema) },
  responses: { 200: jsonContent(estimateSchema, "The estimate"), ...errors(400, 401, 403, 404, 409, 422) },
});
