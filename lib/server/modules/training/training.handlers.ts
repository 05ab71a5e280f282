import type { RouteHandler } from "@hono/zod-openapi";
import { ConflictError, ForbiddenError, NotFoundError } from "../../errors";
import { lastEventIdFrom, trainingEventStream } from "../../events/sse";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { mintStreamToken, mintUploadToken } from "../account/training-tokens";
import * as estimate from "./estimate";
import * as ingest from "./ingest";
import { findOwnedJob, getJobRow } from "./job-rows";
import * as jobs from "./jobs";
import * as metrics from "./metrics";
import * as options from "./options";
import * as recipes from "./recipes";
import { isTerminal } from "./state";
import type * as r from "./training.routes";

const jobPath = (id: string) => `/api/v1/training/jobs/${encodeURIComponent(id)}`;

export const createTrainingJob: RouteHandler<typeof r.createTrainingJob, AppEnv> = async (c) => {
  const job = await jobs.createTrainingJob(c.get("db"), currentUser(c), c.req.valid("json"));
  return c.json(job, 201, { Location: jobPath(job.id) });
};

export const listTrainingJobs: RouteHandler<typeof r.listTrainingJobs, AppEnv> = async (c) =>
  c.json(await jobs.listTrainingJobs(c.get("db"), currentUser(c).id, c.req.valid("query")), 200);

export const getTrainingJob: RouteHandler<typeof r.getTrainingJob, AppEnv> = async (c) =>
  c.json(await jobs.getTrainingJob(c.get("db"), currentUser(c).id, c.req.valid("param").job_id), 200);

export const cancelTrainingJob: RouteHandler<typeof r.cancelTrainingJob, AppEnv> = async (c) =>
  c.json(await jobs.cancelTrainingJob(c.get("db"), currentUser(c).id, c.req.valid("param").job_id), 200);

export const restartTrainingJob: RouteHandler<typeof r.restartTrainingJob, AppEnv> = async (c) =>
  c.json(await jobs.restartTrainingJob(c.get("db"), currentUser(c), c.req.valid("param").job_id), 200);

export const bulkDeleteTrainingJobs: RouteHandler<typeof r.bulkDeleteTrainingJobs, AppEnv> = async (c) =>
  c.json(await jobs.bulkDeleteTrainingJobs(c.get("db"), currentUser(c).id, c.req.valid("json").ids), 200);

export const getTrainingMetrics: RouteHandler<typeof r.getTrainingMetrics, AppEnv> = async (c) => {
  const job = await findOwnedJob(c.get("db"), currentUser(c).id, c.req.valid("param").job_id);
  return c.json(await metrics.queryMetrics(c.get("db"), job.id, c.req.valid("query")), 200);
};

export const getTrainingMetricsSummary: RouteHandler<typeof r.getTrainingMetricsSummary, AppEnv> = async (
  c,
) => {
  const job = await findOwnedJob(c.get("db"), currentUser(c).id, c.req.valid("param").job_id);
  return c.json(await metrics.metricsSummary(c.get("db"), job.id), 200);
};

export const getTrainingLogs: RouteHandler<typeof r.getTrainingLogs, AppEnv> = async (c) => {
  const job = await findOwnedJob(c.get("db"), currentUser(c).id, c.req.valid("param").job_id);
  return c.json(await metrics.queryLogs(c.get("db"), job.id, c.req.valid("query")), 200);
};

const attachment = (filename: string, type: string) => ({
  "Content-Type": type,
  "Content-Disposition": `attachment; filename="${filename}"`,
  "Cache-Control": "private, no-store",
  "X-Content-Type-Options": "nosniff",
});

export const downloadTrainingCode: RouteHandler<typeof r.downloadTrainingCode, AppEnv> = async (c) => {
  const { job_id } = c.req.valid("param");
  const zip = await jobs.jobCodeZip(c.get("db"), currentUser(c).id, job_id, c.req.valid("query").target);
  return c.body(zip.stream, 200, attachment(zip.filename, "application/zip"));
};

export const downloadTrainingDag: RouteHandler<typeof r.downloadTrainingDag, AppEnv> = async (c) => {
  const dag = await jobs.jobDag(c.get("db"), currentUser(c).id, c.req.valid("param").job_id);
  // The DAG file is sent as written (stable formatting), not re-serialised.
  return c.body(dag.text, 200, attachment(dag.filename, "application/json")) as never;
};

export const listTrainingCheckpoints: RouteHandler<typeof r.listTrainingCheckpoints, AppEnv> = async (c) => {
  const job = await findOwnedJob(c.get("db"), currentUser(c).id, c.req.valid("param").job_id);
  return c.json(await ingest.listCheckpoints(c.get("db"), job.id), 200);
};

export const downloadTrainingCheckpoint: RouteHandler<typeof r.downloadTrainingCheckpoint, AppEnv> = async (
  c,
) => {
  const { job_id, checkpoint_id } = c.req.valid("param");
  const job = await findOwnedJob(c.get("db"), currentUser(c).id, job_id);
  const file = await ingest.openCheckpoint(c.get("db"), job.id, checkpoint_id);
  return c.body(file.stream, 200, {
    ...attachment(file.filename, "application/octet-stream"),
    "Content-Length": String(file.size),
    Digest: `sha-256=${Buffer.from(file.sha256, "hex").toString("base64")}`,
  });
};

/** The job an upload token is bound to must be the one in the path. */
function uploadSubject(c: Parameters<RouteHandler<typeof r.uploadTrainingEvents, AppEnv>>[0], jobId: string) {
  const caller = c.get("caller");
  if (caller.kind !== "upload_token") throw new ForbiddenError("An upload token is required.");
  if (caller.subject !== jobId) throw new ForbiddenError("This upload token belongs to another job.");
}

export const uploadTrainingCheckpoint: RouteHandler<typeof r.uploadTrainingCheckpoint, AppEnv> = async (
  c,
) => {
  const { job_id } = c.req.valid("param");
  uploadSubject(c as never, job_id);
  const checkpoint = await ingest.uploadCheckpoint(
    c.get("db"),
    job_id,
    c.req.valid("query"),
    c.req.raw.body,
    ingest.declaredLength(c.req.header("content-length")),
  );
  return c.json(checkpoint, 201);
};

export const uploadTrainingArtifactFile: RouteHandler<typeof r.uploadTrainingArtifactFile, AppEnv> = async (
  c,
) => {
  const { job_id, file_name } = c.req.valid("param");
  uploadSubject(c as never, job_id);
  const declared = ingest.declaredLength(c.req.header("content-length"));
  return c.json(
    await ingest.uploadArtifactFile(c.get("db"), job_id, file_name, c.req.raw.body, declared),
    201,
  );
};

export const downloadTrainingArtifactFile: RouteHandler<
  typeof r.downloadTrainingArtifactFile,
  AppEnv
> = async (c) => {
  const { job_id, file_name } = c.req.valid("param");
  const job = await findOwnedJob(c.get("db"), currentUser(c).id, job_id);
  const file = await ingest.openArtifactFile(job, file_name);
  return c.body(file.stream, 200, {
    ...attachment(`${job.id}-${file_name}`, file.contentType),
    "Content-Length": String(file.size),
  });
};

export const createTrainingStreamAccessToken: RouteHandler<
  typeof r.createTrainingStreamAccessToken,
  AppEnv
> = async (c) => {
  const user = currentUser(c);
  const job = await findOwnedJob(c.get("db"), user.id, c.req.valid("param").job_id);
  const { token, expiresAt } = await mintStreamToken(c.get("db"), user.id, job.id);
  const stream_url = `/api/v1/streaming/training-jobs/${encodeURIComponent(job.id)}/stream?token=${token}`;
  return c.json({ token, expires_at: expiresAt.toISOString(), stream_url }, 201);
};

export const streamTrainingJob: RouteHandler<typeof r.streamTrainingJob, AppEnv> = async (c) => {
  const { job_id } = c.req.valid("param");
  const caller = c.get("caller");
  if (caller.kind !== "stream_token" || caller.subject !== job_id) throw new NotFoundError("Training job");
  const lastEventId = lastEventIdFrom(c.req.raw);
  const job = await getJobRow(c.get("db"), job_id);
  if (!job) throw new NotFoundError("Training job");
  // A finished job with nothing new: 204 tells a browser's EventSource to stop reconnecting.
  if (isTerminal(job.state) && lastEventId !== null && lastEventId >= job.lastEventId)
    return c.body(null, 204) as never;
  return trainingEventStream(c.get("db"), job_id, { lastEventId, signal: c.req.raw.signal }) as never;
};

export const createTrainingUploadToken: RouteHandler<typeof r.createTrainingUploadToken, AppEnv> = async (
  c,
) => {
  const user = currentUser(c);
  const job = await findOwnedJob(c.get("db"), user.id, c.req.valid("param").job_id);
  // A managed job's token is its program's alone (the worker mints one per attempt): what the
  // owner could upload with it (a checkpoint) is what the worker loads on the next attempt.
  if (job.runtime !== "external")
    throw new ConflictError(
      `The job is managed (runtime ${job.runtime}): the service uploads its metrics and checkpoints itself. ` +
        "Upload tokens are for jobs with runtime external, which run on your own hardware.",
    );
  if (isTerminal(job.state))
    throw new ConflictError(`The job has finished (${job.state}); it accepts no more uploads.`);
  const { token } = await mintUploadToken(c.get("db"), user.id, job.id);
  return c.json({ token, expires_at: null, upload_url: `${jobPath(job.id)}/metrics/events` }, 201);
};

export const uploadTrainingEvents: RouteHandler<typeof r.uploadTrainingEvents, AppEnv> = async (c) => {
  const { job_id } = c.req.valid("param");
  uploadSubject(c as never, job_id);
  return c.json(await ingest.ingestEvents(c.get("db"), job_id, c.req.valid("json").events), 202);
};

export const listDatasetFit: RouteHandler<typeof r.listDatasetFit, AppEnv> = async (c) =>
  c.json(await options.datasetFit(c.get("db"), currentUser(c), c.req.valid("query")), 200);

export const listTrainingRuntimes: RouteHandler<typeof r.listTrainingRuntimes, AppEnv> = async (c) => {
  currentUser(c);
  return c.json(await options.listRuntimes(), 200);
};

export const listAllowedStrategies: RouteHandler<typeof r.listAllowedStrategies, AppEnv> = async (c) =>
  c.json(options.allowedStrategies(currentUser(c)), 200);

export const listTrainingRecipes: RouteHandler<typeof r.listTrainingRecipes, AppEnv> = async (c) =>
  c.json(await recipes.listRecipes(c.get("db"), currentUser(c), c.req.valid("query").project_id), 200);

export const estimateTrainingResources: RouteHandler<typeof r.estimateTrainingResources, AppEnv> = async (
  c,
) => c.json(await estimate.estimateResources(c.get("db"), currentUser(c), c.req.valid("json")), 200);
