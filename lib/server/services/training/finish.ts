/**
 * How a job ends: its artifact gets a manifest, its compute time becomes a ledger entry naming the job,
 * and its state changes once. Shared by the managed runtimes (run-job.ts) and external jobs (ingest.ts).
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type TrainingJobRow, trainingJobs } from "../../db/schema";
import { COMPUTE_SECONDS_PER_CREDIT } from "../../plans";
import { grantCredits } from "../credits";
import { transitionJob } from "./state";

export type ArtifactFormat = "onnx" | "tfjs";

export function artifactFormatOf(job: Pick<TrainingJobRow, "artifactFiles">): ArtifactFormat | null {
  const names = new Set(job.artifactFiles.map((f) => f.name));
  if (names.has("model.onnx")) return "onnx";
  if (names.has("model.json")) return "tfjs";
  return null;
}

/**
 * The self-describing manifest stored beside the model files: what deployments and the registry serve
 * and check, with no training code.
 */
export function manifestFor(job: TrainingJobRow, format: ArtifactFormat): Record<string, unknown> {
  const p = job.preprocessing;
  const task = p?.task ?? null;
  return {
    format,
    framework: format === "onnx" ? "onnx" : "tensorflowjs",
    producer: job.resolvedRuntime ?? job.runtime,
    task,
    job_id: job.id,
    project_id: job.projectId,
    architecture_version_id: job.versionId,
    dataset_id: job.datasetId,
    dataset_version_id: job.datasetVersionId,
    input: p
      ? {
          name: "input",
          shape: p.input_shape,
          dtype: p.input_dtype,
          features: p.input_features,
          raw_features: p.raw_features,
          preprocessing: p.steps,
        }
      : null,
    output:
      p?.labels && p.labels.length > 0
        ? { name: "output", kind: "labels", labels: p.labels }
        : { name: "output", kind: task === "language_modeling" ? "tokens" : "value" },
    metrics: job.metrics,
    files: job.artifactFiles.map((f) => ({ name: f.name, size_bytes: f.size_bytes, sha256: f.sha256 })),
    created_at: new Date().toISOString(),
  };
}

/** Records a succeeded job's artifact (format and manifest); false when no model file was uploaded. */
export async function finalizeArtifact(db: Db, jobId: string): Promise<boolean> {
  const [job] = await db.select().from(trainingJobs).where(eq(trainingJobs.id, jobId));
  if (!job) return false;
  const format = artifactFormatOf(job);
  if (!format) return false;
  await db
    .update(trainingJobs)
    .set({ artifactFormat: format, artifactManifest: manifestFor(job, format), updatedAt: new Date() })
    .where(eq(trainingJobs.id, jobId));
  return true;
}

/** Turns measured compute seconds into a ledger entry that names the job (credits in thousandths). */
export async function chargeCompute(db: Db, job: Pick<TrainingJobRow, "id" | "ownerId">, seconds: number) {
  if (!(seconds > 0)) return;
  const credits = seconds / COMPUTE_SECONDS_PER_CREDIT;
  await grantCredits(db, job.ownerId, -credits, "Training compute", job.id);
  await db
    .update(trainingJobs)
    .set({
      computeSeconds: sql`${trainingJobs.computeSeconds} + ${seconds}`,
      creditsChargedMilli: sql`${trainingJobs.creditsChargedMilli} + ${Math.round(credits * 1000)}`,
    })
    .where(eq(trainingJobs.id, job.id));
}

/** An external job's uploaded final status. */
export async function finishExternalJob(
  db: Db,
  job: TrainingJobRow,
  status: "succeeded" | "failed",
  message: string | null,
): Promise<void> {
  if (status === "succeeded") await finalizeArtifact(db, job.id);
  await transitionJob(db, job.id, {
    from: ["queued", "running"],
    to: status,
    reason: status === "failed" ? (message ?? "The training program reported a failure.") : message,
  });
}
