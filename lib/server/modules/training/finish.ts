/**
 * How a job ends: its artifact gets a manifest, its compute time becomes a ledger entry naming the job,
 * and its state changes once. Shared by the managed runtimes (run-job.ts) and external jobs (ingest.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type TrainingJobRow, trainingCheckpoints, trainingJobs } from "../../db/schema";
import { COMPUTE_SECONDS_PER_CREDIT } from "../../plans";
import { grantCredits } from "../account/credits";
import { buildManifest } from "./artifact-reader";
import { transitionJob } from "./state";

export type ArtifactFormat = "onnx" | "tfjs";

export function artifactFormatOf(job: Pick<TrainingJobRow, "artifactFiles">): ArtifactFormat | null {
  const names = new Set(job.artifactFiles.map((f) => f.name));
  if (names.has("model.onnx")) return "onnx";
  if (names.has("model.json")) return "tfjs";
  return null;
}

/**
 * The metrics of the weights the artifact holds: the best checkpoint's (the exported model is the
 * best epoch's), plus the final test_* figures measured on those weights.
 */
export async function artifactMetrics(db: Db, job: TrainingJobRow): Promise<Record<string, number>> {
  const [best] = await db
    .select({ metrics: trainingCheckpoints.metrics })
    .from(trainingCheckpoints)
    .where(and(eq(trainingCheckpoints.jobId, job.id), eq(trainingCheckpoints.isBest, true)))
    .limit(1);
  const tests = Object.fromEntries(Object.entries(job.metrics).filter(([name]) => name.startsWith("test_")));
  return { ...(best?.metrics ?? job.metrics), ...tests };
}

/** Records a succeeded job's artifact (format and manifest); false when no model file was uploaded. */
export async function finalizeArtifact(db: Db, jobId: string): Promise<boolean> {
  const [job] = await db.select().from(trainingJobs).where(eq(trainingJobs.id, jobId));
  if (!job) return false;
  const format = artifactFormatOf(job);
  if (!format) return false;
  const runtime = job.resolvedRuntime;
  const manifest = buildManifest({
    format,
    producer: runtime === "pytorch" || runtime === "tfjs" ? runtime : "external",
    preprocessing: job.preprocessing,
    graph: job.graph,
    config: job.config,
    metrics: await artifactMetrics(db, job),
    jobId: job.id,
    projectId: job.projectId,
    architectureVersionId: job.versionId,
    datasetId: job.datasetId,
    datasetVersionId: job.datasetVersionId,
    files: job.artifactFiles.map((f) => ({ name: f.name, size_bytes: f.size_bytes, sha256: f.sha256 })),
  });
  await db
    .update(trainingJobs)
    .set({
      artifactFormat: format,
      artifactManifest: manifest as unknown as Record<string, unknown>,
      updatedAt: new Date(),
    })
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
