/**
 * Model versions (contract §4.10): pushed from a succeeded training job or fine-tuning run (its
 * model files and manifest.json become complete artifacts at once, copied into the registry's own
 * blobs so the version outlives the job) or bare (the client uploads the artifacts). Finalize checks
 * that every artifact is complete and, when the version declares a task contract, that its
 * manifest.json conforms; the version is then `ready` and immutable.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type ModelVersionRow,
  modelAliases,
  modelArtifacts,
  modelVersions,
  registeredModels,
  trainingEvaluations,
} from "../../db/schema";
import type { ArtifactFile } from "../../db/schema/training";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { newId } from "../../ids";
import { deleteBlobAndLocalFile } from "../../storage/blob-cache";
import { blobStore } from "../../storage/blob-stores";
import { commitWithinQuota, StorageBudget } from "../account/storage-quota";
import { toEvaluationView } from "../evaluations/evaluations";
import type { EvaluationView } from "../evaluations/evaluations.schemas";
import { SAMPLE_PREDICTIONS_FILE, samplePredictionsFile } from "../evaluations/sample-predictions";
import { findOwnedJob } from "../training/job-rows";
import { newArtifactBlobId, REGISTRY_BLOB_AREA } from "./artifacts";
import { findOwnedModel } from "./models";
import type { ModelVersionView, PushVersionBody } from "./registry.schemas";
import { checkManifest, findTaskContract, manifestShapeSchema } from "./task-contracts";
import { findOwnedVersion, versionView, versionViewWith } from "./views";

export const MANIFEST_NAME = "manifest.json";
/** manifest.json is read whole at finalize: a manifest is a few kilobytes (a vocabulary at most). */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

type ArtifactFormat = "onnx" | "tfjs";

export function artifactFormatOfNames(names: Iterable<string>): ArtifactFormat | null {
  const set = new Set(names);
  if (set.has("model.onnx")) return "onnx";
  if (set.has("model.json")) return "tfjs";
  return null;
}

function numericMetrics(raw: unknown): Record<string, number> {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  return Object.fromEntries(
    Object.entries(raw).filter(
      (e): e is [string, number] => typeof e[1] === "number" && Number.isFinite(e[1]),
    ),
  );
}

function contractOf(body: PushVersionBody): { key: string; version: number } | null {
  if (!body.task_contract) return null;
  const { key, version } = body.task_contract;
  if (!findTaskContract(key, version))
    throw new ValidationError(`There is no task contract ${key} version ${version}.`, [
      { path: "body.task_contract", message: "Unknown task contract" },
    ]);
  return { key, version };
}

interface PreparedArtifact {
  id: string;
  name: string;
  blobKey: string;
  sizeBytes: number;
  sha256: string;
  contentType: string;
}

const contentTypeOf = (name: string) =>
  name.endsWith(".json") ? "application/json" : "application/octet-stream";

/** Copies a succeeded job's artifact (model files and manifest.json) into registry blobs. */
async function copyJobArtifacts(
  job: {
    id: string;
    artifactFiles: ArtifactFile[];
    artifactManifest: Record<string, unknown> | null;
  },
  samples: Buffer | null,
): Promise<PreparedArtifact[]> {
  const prepared: PreparedArtifact[] = [];
  try {
    for (const file of job.artifactFiles) {
      const id = newId("art");
      const to = `${REGISTRY_BLOB_AREA}/${newArtifactBlobId(id)}`;
      if (!(await blobStore().copy(file.blob_key, to)))
        throw new ConflictError(`The job's artifact file ${file.name} is missing.`);
      prepared.push({
        id,
        name: file.name,
        blobKey: to,
        sizeBytes: file.size_bytes,
        sha256: file.sha256,
        contentType: contentTypeOf(file.name),
      });
    }
    // The same bytes GET /training/jobs/{id}/artifact/manifest.json answers.
    const bytes = new TextEncoder().encode(JSON.stringify(job.artifactManifest, null, 2));
    const id = newId("art");
    const stored = await blobStore().put(`${REGISTRY_BLOB_AREA}/${newArtifactBlobId(id)}`, bytes);
    prepared.push({
      id,
      name: MANIFEST_NAME,
      blobKey: stored.key,
      sizeBytes: stored.size,
      sha256: stored.sha256,
      contentType: "application/json",
    });
    // An image model's sample predictions (evaluations/sample-predictions.ts), for its version page.
    if (samples) {
      const sid = newId("art");
      const kept = await blobStore().put(`${REGISTRY_BLOB_AREA}/${newArtifactBlobId(sid)}`, samples);
      prepared.push({
        id: sid,
        name: SAMPLE_PREDICTIONS_FILE,
        blobKey: kept.key,
        sizeBytes: kept.size,
        sha256: kept.sha256,
        contentType: "application/json",
      });
    }
    return prepared;
  } catch (err) {
    await removeBlobs(prepared.map((p) => p.blobKey));
    throw err;
  }
}

async function removeBlobs(keys: (string | null)[]): Promise<void> {
  await Promise.all(keys.flatMap((k) => (k ? [deleteBlobAndLocalFile(k).catch(() => {})] : [])));
}

/** POST /models/{id}/versions: a new pending version, numbered under the model's row lock. */
export async function pushVersion(
  db: Db,
  ownerId: string,
  modelId: string,
  body: PushVersionBody,
): Promise<ModelVersionView> {
  const model = await findOwnedModel(db, ownerId, modelId);
  const contract = contractOf(body);
  const job = body.job_id ? await findOwnedJob(db, ownerId, body.job_id) : null;
  if (job) {
    if (job.state !== "succeeded")
      throw new ConflictError(`The training job is ${job.state}; only a succeeded job can be pushed.`);
    if (!job.artifactFormat || !job.artifactManifest || job.artifactFiles.length === 0)
      throw new ConflictError("The training job has no model artifact to push.");
  }
  // The copies are the owner's stored bytes too (the manifest is small beside them).
  if (job)
    (await StorageBudget.of(db, ownerId)).check(job.artifactFiles.reduce((sum, f) => sum + f.size_bytes, 0));
  const prepared = job ? await copyJobArtifacts(job, await samplePredictionsFile(db, job)) : [];
  try {
    // Recorded under the owner's lock and measured again there: two copies at once (on any server)
    // cannot both take the last free bytes that each saw before copying.
    const copied = prepared.reduce((sum, p) => sum + p.sizeBytes, 0);
    const row = await commitWithinQuota(db, ownerId, copied, async (tx) => {
      const [bumped] = await tx
        .update(registeredModels)
        .set({ lastVersionNumber: sql`${registeredModels.lastVersionNumber} + 1`, updatedAt: new Date() })
        .where(eq(registeredModels.id, model.id))
        .returning({ number: registeredModels.lastVersionNumber });
      if (!bumped) throw new NotFoundError("Model");
      const [v] = await tx
        .insert(modelVersions)
        .values({
          id: newId("mv"),
          modelId: model.id,
          number: bumped.number,
          source: job ? (job.baseModelId ? "run" : "job") : "bare",
          jobId: job?.id ?? null,
          taskContractKey: contract?.key ?? null,
          taskContractVersion: contract?.version ?? null,
          description: body.description ?? "",
          metrics: job ? numericMetrics(job.artifactManifest?.metrics) : {},
          artifactFormat: job?.artifactFormat ?? null,
          artifactManifest: job?.artifactManifest ?? null,
        })
        .returning();
      if (prepared.length > 0)
        await tx.insert(modelArtifacts).values(
          prepared.map((p) => ({
            id: p.id,
            versionId: v.id,
            name: p.name,
            sizeBytes: p.sizeBytes,
            sha256: p.sha256,
            contentType: p.contentType,
            state: "complete" as const,
            blobKey: p.blobKey,
            receivedSize: p.sizeBytes,
            receivedSha256: p.sha256,
            completedAt: new Date(),
          })),
        );
      return v;
    });
    return versionViewWith(row, []);
  } catch (err) {
    await removeBlobs(prepared.map((p) => p.blobKey));
    throw err;
  }
}

/** A model's versions, newest first (a plain array). */
export async function listVersions(db: Db, ownerId: string, modelId: string): Promise<ModelVersionView[]> {
  const model = await findOwnedModel(db, ownerId, modelId);
  const rows = await db
    .select()
    .from(modelVersions)
    .where(eq(modelVersions.modelId, model.id))
    .orderBy(desc(modelVersions.number));
  const aliases = await db
    .select({ alias: modelAliases.alias, versionId: modelAliases.versionId })
    .from(modelAliases)
    .where(eq(modelAliases.modelId, model.id));
  return rows.map((r) =>
    versionViewWith(
      r,
      aliases
        .filter((a) => a.versionId === r.id)
        .map((a) => a.alias)
        .sort(),
    ),
  );
}

export async function getVersion(db: Db, ownerId: string, versionId: string): Promise<ModelVersionView> {
  return versionView(db, await findOwnedVersion(db, ownerId, versionId));
}

/** Parses manifest.json (a JSON object) or answers 422 naming it. */
async function readManifest(blobKey: string): Promise<Record<string, unknown>> {
  const blob = await blobStore().get(blobKey);
  if (!blob) throw new ConflictError("The manifest.json artifact's bytes are missing.");
  if (blob.size > MAX_MANIFEST_BYTES) {
    await blob.stream.cancel();
    throw new ValidationError("manifest.json is larger than 4 MB.", [
      { path: MANIFEST_NAME, message: "Too large" },
    ]);
  }
  const bytes = Buffer.from(await new Response(blob.stream).arrayBuffer());
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    parsed = null;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ValidationError("manifest.json must hold a JSON object.", [
      { path: MANIFEST_NAME, message: "Not a JSON object" },
    ]);
  return parsed as Record<string, unknown>;
}

/**
 * Finalize: 409 while no artifact exists or any is incomplete, 422 when a declared task contract
 * is not met by manifest.json; then `ready`, with the format and manifest recorded, and immutable.
 */
export async function finalizeVersion(db: Db, ownerId: string, versionId: string): Promise<ModelVersionView> {
  const version = await findOwnedVersion(db, ownerId, versionId);
  if (version.state === "ready") throw new ConflictError("The version is already finalized.");
  const artifacts = await db.select().from(modelArtifacts).where(eq(modelArtifacts.versionId, version.id));
  checkArtifactsComplete(artifacts);
  const manifestRow = artifacts.find((a) => a.name === MANIFEST_NAME);
  const manifest = manifestRow?.blobKey ? await readManifest(manifestRow.blobKey) : null;
  if (version.taskContractKey && version.taskContractVersion) {
    const contract = findTaskContract(version.taskContractKey, version.taskContractVersion);
    if (!contract) throw new ConflictError("The version's task contract no longer exists.");
    if (!manifest)
      throw new ValidationError(
        `Task contract ${contract.key} v${contract.version} is checked against manifest.json; upload one.`,
        [{ path: MANIFEST_NAME, message: "Required by the task contract" }],
      );
    const errors = checkManifest(contract, manifest);
    if (errors.length > 0)
      throw new ValidationError(
        `The manifest does not conform to task contract ${contract.key} v${contract.version}.`,
        errors,
      );
  }
  const format = artifactFormatOfNames(artifacts.map((a) => a.name));
  const ready = await db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ state: modelVersions.state })
      .from(modelVersions)
      .where(eq(modelVersions.id, version.id))
      .for("update");
    if (locked?.state !== "pending") throw new ConflictError("The version is already finalized.");
    // Re-read under the lock: an initiate that raced this finalize left a pending artifact.
    checkArtifactsComplete(
      await tx.select().from(modelArtifacts).where(eq(modelArtifacts.versionId, version.id)),
    );
    const [row] = await tx
      .update(modelVersions)
      .set({
        state: "ready",
        finalizedAt: new Date(),
        updatedAt: new Date(),
        artifactFormat: format,
        artifactManifest: manifest ?? version.artifactManifest,
        ...(version.source === "bare" && manifest ? { metrics: numericMetrics(manifest.metrics) } : {}),
      })
      .where(eq(modelVersions.id, version.id))
      .returning();
    await tx
      .update(registeredModels)
      .set({ updatedAt: new Date() })
      .where(eq(registeredModels.id, row.modelId));
    return row;
  });
  return versionView(db, ready);
}

function checkArtifactsComplete(artifacts: { name: string; state: string }[]): void {
  if (artifacts.length === 0)
    throw new ConflictError("The version has no artifacts: upload at least one before finalizing.");
  const pending = artifacts.filter((a) => a.state !== "complete").map((a) => a.name);
  if (pending.length > 0)
    throw new ConflictError(`Some artifacts are not complete yet: ${pending.sort().join(", ")}.`);
}

/** The evaluations of the version's job (newest first), none for a bare version. */
export async function versionEvaluations(
  db: Db,
  ownerId: string,
  versionId: string,
): Promise<{ items: EvaluationView[] }> {
  const version = await findOwnedVersion(db, ownerId, versionId);
  if (!version.jobId) return { items: [] };
  const rows = await db
    .select()
    .from(trainingEvaluations)
    .where(and(eq(trainingEvaluations.jobId, version.jobId), eq(trainingEvaluations.ownerId, ownerId)))
    .orderBy(desc(trainingEvaluations.createdAt), desc(trainingEvaluations.id))
    .limit(100);
  return { items: rows.map(toEvaluationView) };
}

export interface ModelVersionArtifact {
  modelVersionId: string;
  jobId: string | null;
  artifactFormat: ArtifactFormat;
  /** The model files (model.onnx, or model.json and its weights); manifest.json is `artifactManifest`. */
  artifactFiles: ArtifactFile[];
  artifactManifest: Record<string, unknown>;
}

/**
 * What a deployment serves from a model version (for /deployments/from-model-version): 404 unless
 * the caller's, 409 unless finalized with a servable artifact (manifest.json and model files).
 */
export async function artifactOfModelVersion(
  db: Db,
  ownerId: string,
  versionId: string,
): Promise<ModelVersionArtifact> {
  const version: ModelVersionRow = await findOwnedVersion(db, ownerId, versionId);
  if (version.state !== "ready")
    throw new ConflictError("The model version is not finalized; only a finalized version can be deployed.");
  const format = version.artifactFormat;
  if (
    (format !== "onnx" && format !== "tfjs") ||
    !version.artifactManifest ||
    !manifestShapeSchema.safeParse(version.artifactManifest).success
  )
    throw new ConflictError(
      "The model version has no servable artifact: it needs manifest.json and model.onnx (or model.json and its weights).",
    );
  const files = await db
    .select()
    .from(modelArtifacts)
    .where(and(eq(modelArtifacts.versionId, version.id), eq(modelArtifacts.state, "complete")));
  const artifactFiles: ArtifactFile[] = files.flatMap((f) =>
    f.name !== MANIFEST_NAME && f.blobKey
      ? [{ name: f.name, blob_key: f.blobKey, size_bytes: f.sizeBytes, sha256: f.sha256 }]
      : [],
  );
  return {
    modelVersionId: version.id,
    jobId: version.jobId,
    artifactFormat: format,
    artifactFiles,
    artifactManifest: version.artifactManifest,
  };
}
