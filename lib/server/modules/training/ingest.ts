/**
 * Everything a training program sends with its upload token (decisions "Training"): events (metrics,
 * logs, status, progress), checkpoint files and model artifact files. The managed runtimes' scripts
 * and a user's own machine use exactly this path. Uploads to a finished job answer 409.
 *
 * One piece (past ~400 lines): every upload a job's program makes goes through the same ownership,
 * state and quota checks, kept together.
 */
import { randomBytes } from "node:crypto";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type TrainingJobRow, trainingCheckpoints, trainingJobs, users } from "../../db/schema";
import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError } from "../../errors";
import { appendTrainingEvents, type NewTrainingEvent } from "../../events/training-events";
import { newId } from "../../ids";
import { planOf } from "../../plans";
import { deleteBlobAndLocalFile } from "../../storage/blob-cache";
import { blobStore } from "../../storage/blob-stores";
import { commitWithinQuota, humanBytes, StorageBudget } from "../account/storage-quota";
import { acceptedFormats, CheckpointSniffer } from "./checkpoint-format";
import { finishExternalJob } from "./finish";
import { getJobRow } from "./job-rows";
import { isTerminal, transitionJob } from "./state";
import type { UploadEvent } from "./training.schemas";
import { toCheckpointView } from "./views";

/** Largest artifact file accepted (a model of this service's size is far smaller). */
export const MAX_TRAINING_FILE_BYTES = 2 * 1024 * 1024 * 1024;

/** The largest checkpoint the plan allows; `TRAINING_CHECKPOINT_BYTES` overrides every plan's. */
export function checkpointLimitBytes(plan: string, env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.TRAINING_CHECKPOINT_BYTES);
  return Number.isSafeInteger(n) && n > 0 ? n : planOf(plan).limits.checkpoint_bytes;
}

async function ownerPlan(db: Db, ownerId: string): Promise<string> {
  const [owner] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, ownerId));
  if (!owner) throw new NotFoundError("Account");
  return owner.plan;
}

async function openJobForUpload(db: Db, jobId: string): Promise<TrainingJobRow> {
  const job = await getJobRow(db, jobId);
  if (!job) throw new NotFoundError("Training job");
  if (isTerminal(job.state))
    throw new ConflictError(`The job has finished (${job.state}); it accepts no more uploads.`);
  return job;
}

function toStored(event: Exclude<UploadEvent, { kind: "status" }>, now: string): NewTrainingEvent {
  switch (event.kind) {
    case "metric": {
      const timestamp = event.timestamp ? new Date(event.timestamp).toISOString() : now;
      return {
        kind: "metric",
        data: {
          name: event.name,
          step: event.step,
          epoch: event.epoch ?? null,
          value: event.value,
          timestamp,
        },
        name: event.name,
        step: event.step,
        epoch: event.epoch ?? null,
        value: event.value,
        clientId: event.id ?? null,
        at: new Date(timestamp),
      };
    }
    case "log": {
      const timestamp = event.timestamp ? new Date(event.timestamp).toISOString() : now;
      return {
        kind: "log",
        data: { timestamp, level: event.level, message: event.message },
        name: event.level,
        clientId: event.id ?? null,
        at: new Date(timestamp),
      };
    }
    case "progress":
      return {
        kind: "progress",
        data: { epoch: event.epoch, epochs: event.epochs, step: event.step, steps: event.steps },
        step: event.step,
        epoch: event.epoch,
        clientId: event.id ?? null,
      };
  }
}

export async function ingestEvents(db: Db, jobId: string, events: UploadEvent[]) {
  let job = await openJobForUpload(db, jobId);
  const external = job.runtime === "external";
  const now = new Date().toISOString();
  // The first sign of life of an external job starts it.
  if (external && job.state === "queued")
    job =
      (await transitionJob(db, jobId, {
        from: ["queued"],
        to: "running",
        reason: "The first upload arrived.",
      })) ?? job;

  const stored: NewTrainingEvent[] = [];
  let terminal: { status: "succeeded" | "failed"; message: string | null } | null = null;
  for (const event of events) {
    if (event.kind !== "status") {
      stored.push(toStored(event, now));
      continue;
    }
    if (event.status === "running") continue;
    if (external) {
      terminal = { status: event.status, message: event.message ?? null };
    } else {
      // A managed job's state belongs to its worker, which sees the process exit; keep the report as a log line.
      stored.push({
        kind: "log",
        data: {
          timestamp: now,
          level: event.status === "failed" ? "error" : "info",
          message: `The training program reported ${event.status}${event.message ? `: ${event.message}` : "."}`,
        },
        name: event.status === "failed" ? "error" : "info",
        clientId: event.id ?? null,
      });
    }
  }
  const result =
    stored.length > 0 ? await appendTrainingEvents(db, jobId, stored) : { accepted: 0, duplicates: 0 };
  await recordLatest(db, jobId, stored);
  if (terminal) await finishExternalJob(db, job, terminal.status, terminal.message);
  const statusCount = events.filter(
    (e) => e.kind === "status" && (external || e.status === "running"),
  ).length;
  return { accepted: result.accepted + statusCount, duplicates: result.duplicates };
}

/** The job row keeps the latest value of each metric and the latest progress, for lists and summaries. */
async function recordLatest(db: Db, jobId: string, events: NewTrainingEvent[]): Promise<void> {
  const latest: Record<string, { step: number; value: number }> = {};
  let progress: Record<string, unknown> | null = null;
  for (const e of events) {
    if (e.kind === "metric" && e.name && e.value !== null && e.value !== undefined) {
      const step = e.step ?? 0;
      if (!latest[e.name] || latest[e.name].step <= step) latest[e.name] = { step, value: e.value };
    }
    if (e.kind === "progress") progress = e.data;
  }
  const metrics = Object.fromEntries(Object.entries(latest).map(([k, v]) => [k, v.value]));
  if (Object.keys(metrics).length === 0 && !progress) return;
  await db
    .update(trainingJobs)
    .set({
      metrics: sql`${trainingJobs.metrics} || ${JSON.stringify(metrics)}::jsonb`,
      ...(progress ? { progress: progress as unknown as TrainingJobRow["progress"] } : {}),
      updatedAt: new Date(),
    })
    .where(eq(trainingJobs.id, jobId));
}

export interface StoreOptions {
  /** Above this many bytes: 413 with the figures (declared lengths are refused before reading). */
  maxBytes?: number;
  /** What the 413 says the limit is for. */
  what?: string;
  /** The owner's storage quota: 402 as soon as the bytes would not fit. */
  budget?: StorageBudget;
  /** More checks on the bytes as they pass (e.g. a format sniffer). */
  checks?: TransformStream<Uint8Array, Uint8Array>[];
  /** The request's Content-Length, when it declared one. */
  declaredBytes?: number;
}

function tooLarge(what: string, limit: number, requested: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`${what} is limited to ${humanBytes(limit)} (${limit} bytes).`, {
    limit_bytes: limit,
    requested_bytes: requested,
  });
}

/**
 * Streams a request body into a blob, hashing it on the way (never buffered whole). A declared
 * length over the size limit or the remaining quota is refused before anything is read; an
 * undeclared one is stopped the moment it passes either, and the blob store removes what it wrote.
 */
export async function storeStreamedFile(
  ref: { area: string; id: string },
  body: ReadableStream<Uint8Array> | null,
  opts: StoreOptions = {},
): Promise<{ key: string; size: number; sha256: string }> {
  if (!body) throw new ValidationError("The request has no body: send the file's bytes.");
  const { maxBytes = MAX_TRAINING_FILE_BYTES, what = "A file", budget, declaredBytes } = opts;
  if (declaredBytes !== undefined) {
    if (declaredBytes > maxBytes) throw tooLarge(what, maxBytes, declaredBytes);
    budget?.check(declaredBytes);
  }
  let received = 0;
  let stream = body;
  for (const check of opts.checks ?? []) stream = stream.pipeThrough(check);
  stream = stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > maxBytes) throw tooLarge(what, maxBytes, received);
        budget?.check(received);
        controller.enqueue(chunk);
      },
    }),
  );
  // The store hashes on the way and leaves nothing under the key when a check above throws.
  const { key, size, sha256 } = await blobStore().put(`${ref.area}/${ref.id}`, stream, { maxBytes });
  return { key, size, sha256 };
}

/** The request's declared body length, when it has a usable one. */
export function declaredLength(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const n = Number(header);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function parseMetrics(raw: string | undefined): Record<string, number> {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ValidationError("`metrics` must be a JSON object of numbers.", [
      { path: "query.metrics", message: "Not JSON" },
    ]);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ValidationError("`metrics` must be a JSON object of numbers.", [
      { path: "query.metrics", message: "Not an object" },
    ]);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v !== "number" || !Number.isFinite(v))
      throw new ValidationError(`Metric "${k}" must be a finite number.`, [
        { path: `query.metrics.${k}`, message: "Not a number" },
      ]);
    out[k] = v;
  }
  return out;
}

/**
 * Stores one epoch's checkpoint, checked before it is kept: the epoch (within the job's configured
 * epochs), the size (the plan's checkpoint limit), the format (checkpoint-format.ts) and the owner's
 * storage quota. A job then keeps its best checkpoint and the plan's last few epochs; older ones
 * are deleted with their files (a restart resumes from the latest epoch, which is always kept).
 */
export async function uploadCheckpoint(
  db: Db,
  jobId: string,
  q: { epoch: number; step: number; best: boolean; metrics?: string },
  body: ReadableStream<Uint8Array> | null,
  declaredBytes?: number,
) {
  const job = await openJobForUpload(db, jobId);
  const epochs = job.config.epochs;
  if (typeof epochs === "number" && q.epoch > epochs)
    throw new ValidationError(`The job trains for ${epochs} epochs; epoch ${q.epoch} is out of range.`, [
      { path: "query.epoch", message: `At most ${epochs}` },
    ]);
  const metrics = parseMetrics(q.metrics);
  const plan = planOf(await ownerPlan(db, job.ownerId));
  const [previous] = await db
    .select()
    .from(trainingCheckpoints)
    .where(and(eq(trainingCheckpoints.jobId, jobId), eq(trainingCheckpoints.epoch, q.epoch)));
  const freed = previous?.sizeBytes ?? 0;
  const sniffer = new CheckpointSniffer(acceptedFormats(job));
  const id = newId("ckpt");
  const file = await storeStreamedFile({ area: "checkpoints", id }, body, {
    maxBytes: checkpointLimitBytes(plan.id),
    what: `A checkpoint on the ${plan.name} plan`,
    budget: await StorageBudget.of(db, job.ownerId, freed),
    checks: [sniffer.stream()],
    declaredBytes,
  });
  let removed: string[];
  let row: typeof trainingCheckpoints.$inferSelect;
  try {
    sniffer.finish();
    ({ row, removed } = await commitWithinQuota(db, job.ownerId, file.size, async (tx) => {
      const [stored] = await tx
        .insert(trainingCheckpoints)
        .values({
          id,
          jobId,
          epoch: q.epoch,
          step: q.step,
          metrics,
          isBest: q.best,
          blobKey: file.key,
          sizeBytes: file.size,
          sha256: file.sha256,
        })
        .onConflictDoUpdate({
          target: [trainingCheckpoints.jobId, trainingCheckpoints.epoch],
          set: {
            id,
            step: q.step,
            metrics,
            isBest: q.best,
            blobKey: file.key,
            sizeBytes: file.size,
            sha256: file.sha256,
            createdAt: new Date(),
          },
        })
        .returning();
      if (q.best)
        await tx
          .update(trainingCheckpoints)
          .set({ isBest: false })
          .where(and(eq(trainingCheckpoints.jobId, jobId), ne(trainingCheckpoints.id, id)));
      // Keep the best and the last `checkpoints_kept_per_job` epochs.
      const all = await tx
        .select({
          id: trainingCheckpoints.id,
          isBest: trainingCheckpoints.isBest,
          key: trainingCheckpoints.blobKey,
        })
        .from(trainingCheckpoints)
        .where(eq(trainingCheckpoints.jobId, jobId))
        .orderBy(desc(trainingCheckpoints.epoch));
      const old = all.slice(plan.limits.checkpoints_kept_per_job).filter((c) => !c.isBest);
      for (const c of old) await tx.delete(trainingCheckpoints).where(eq(trainingCheckpoints.id, c.id));
      return { row: stored, removed: old.map((c) => c.key) };
    }));
  } catch (err) {
    await deleteBlobAndLocalFile(file.key).catch(() => {});
    throw err;
  }
  for (const key of [...(previous ? [previous.blobKey] : []), ...removed])
    if (key !== file.key) await deleteBlobAndLocalFile(key).catch(() => {});
  await appendTrainingEvents(db, jobId, [
    {
      kind: "checkpoint",
      data: { id, epoch: q.epoch, step: q.step, metrics, is_best: q.best },
      epoch: q.epoch,
      step: q.step,
    },
  ]);
  return toCheckpointView(row);
}

/** A fresh blob name for one upload of an artifact file: a refused upload never touches the stored one. */
export function artifactBlobId(jobId: string, fileName: string): string {
  return `${jobId}.${randomBytes(6).toString("hex")}.${fileName}`.slice(0, 128);
}

export async function uploadArtifactFile(
  db: Db,
  jobId: string,
  fileName: string,
  body: ReadableStream<Uint8Array> | null,
  declaredBytes?: number,
) {
  const job = await openJobForUpload(db, jobId);
  if (fileName === "manifest.json")
    throw new ValidationError("manifest.json is written by the service when the job succeeds.", [
      { path: "path.file_name", message: "Reserved name" },
    ]);
  const previous = job.artifactFiles.find((f) => f.name === fileName);
  const freed = previous?.size_bytes ?? 0;
  const file = await storeStreamedFile({ area: "artifacts", id: artifactBlobId(jobId, fileName) }, body, {
    what: "A model artifact file",
    budget: await StorageBudget.of(db, job.ownerId, freed),
    declaredBytes,
  });
  const entry = { name: fileName, blob_key: file.key, size_bytes: file.size, sha256: file.sha256 };
  let replaced: string | undefined;
  try {
    replaced = await commitWithinQuota(db, job.ownerId, file.size, async (tx) => {
      const [before] = await tx
        .select({ files: trainingJobs.artifactFiles })
        .from(trainingJobs)
        .where(eq(trainingJobs.id, jobId))
        .for("update");
      await tx
        .update(trainingJobs)
        .set({
          artifactFiles: sql`(select coalesce(jsonb_agg(e), '[]'::jsonb) from jsonb_array_elements(${trainingJobs.artifactFiles}) e where e->>'name' <> ${fileName}) || ${JSON.stringify([entry])}::jsonb`,
          updatedAt: new Date(),
        })
        .where(eq(trainingJobs.id, jobId));
      return before?.files.find((f) => f.name === fileName)?.blob_key;
    });
  } catch (err) {
    await deleteBlobAndLocalFile(file.key).catch(() => {});
    throw err;
  }
  if (replaced && replaced !== file.key) await deleteBlobAndLocalFile(replaced).catch(() => {});
  return { name: fileName, size_bytes: file.size, sha256: file.sha256 };
}

export async function listCheckpoints(db: Db, jobId: string) {
  const rows = await db
    .select()
    .from(trainingCheckpoints)
    .where(eq(trainingCheckpoints.jobId, jobId))
    .orderBy(desc(trainingCheckpoints.epoch));
  return { items: rows.map(toCheckpointView) };
}

export async function openCheckpoint(db: Db, jobId: string, checkpointId: string) {
  const [row] = await db
    .select()
    .from(trainingCheckpoints)
    .where(and(eq(trainingCheckpoints.jobId, jobId), eq(trainingCheckpoints.id, checkpointId)));
  if (!row) throw new NotFoundError("Checkpoint");
  const blob = await blobStore().get(row.blobKey);
  if (!blob) throw new NotFoundError("Checkpoint file");
  return {
    size: blob.size,
    stream: blob.stream,
    filename: `${jobId}-epoch-${row.epoch}.ckpt`,
    sha256: row.sha256,
  };
}

/** One file of a succeeded job's artifact (manifest.json included). */
export async function openArtifactFile(job: TrainingJobRow, fileName: string) {
  if (!job.artifactFormat) throw new NotFoundError("Model artifact");
  if (fileName === "manifest.json") {
    const text = JSON.stringify(job.artifactManifest, null, 2);
    const bytes = new TextEncoder().encode(text);
    return {
      size: bytes.byteLength,
      stream: new Blob([bytes]).stream(),
      contentType: "application/json",
    };
  }
  const file = job.artifactFiles.find((f) => f.name === fileName);
  if (!file) throw new NotFoundError(`Artifact file ${fileName}`);
  const blob = await blobStore().get(file.blob_key);
  if (!blob) throw new NotFoundError(`Artifact file ${fileName}`);
  return {
    size: blob.size,
    stream: blob.stream,
    contentType: fileName.endsWith(".json") ? "application/json" : "application/octet-stream",
  };
}
