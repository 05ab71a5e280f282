import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { datasetVersions, users } from "../../db/schema";
import type { PiiReport } from "../../db/schema/datasets";
import { NotFoundError } from "../../errors";
import { enqueueJob, getJob, type Job } from "../../jobs/queue";
import { defineJobType } from "../../jobs/registry";
import { ensureInProcessRunner } from "../../jobs/runner";
import type { Viewer } from "./access";
import type { taskSchemaOut } from "./datasets.schemas";
import { fetchUrlToBlob, precheckUrl } from "./fetch-url";
import { commitStoredFile, withDatasetFile } from "./ingest";
import { FileBudget } from "./limits";
import { scanFileForPii } from "./pii-scan";
import { ownedVersion } from "./versions";

/**
 * The dataset area's background tasks (polled through GET /datasets/tasks/{task_id}):
 *   dataset.fetch-url  download a file from a URL and create a dataset from it
 *   dataset.pii-scan   scan every cell of a version for personal data and store the report on it
 */

const fetchPayload = z.object({
  url: z.string().url(),
  name: z.string().min(1).max(120),
  description: z.string().max(2000).optional(),
  owner_id: z.string(),
});

interface FetchResult {
  dataset_id: string;
  version_id: string;
}

export const fetchUrlJob = defineJobType({
  type: "dataset.fetch-url",
  payload: fetchPayload,
  run: async (p, ctx): Promise<FetchResult> => {
    const [owner] = await ctx.db.select().from(users).where(eq(users.id, p.owner_id));
    if (!owner) throw new Error("The account that asked for this fetch no longer exists.");
    const budget = await FileBudget.forUser(ctx.db, owner);
    await ctx.reportProgress(0, "Downloading");
    const stored = await fetchUrlToBlob(p.url, budget, {
      signal: ctx.signal,
      onProgress: (bytes, total) => {
        // Downloading is most of the work; profiling gets the last 10 %.
        void ctx.reportProgress(total ? (0.9 * bytes) / total : 0, `Downloaded ${bytes} bytes`);
      },
    });
    await ctx.reportProgress(0.9, "Profiling");
    const result = await commitStoredFile(
      ctx.db,
      stored,
      { owner, name: p.name, description: p.description },
      budget,
    );
    return { dataset_id: result.dataset.id, version_id: result.version.id };
  },
});

const scanPayload = z.object({
  dataset_id: z.string(),
  version_id: z.string(),
});

interface ScanResult {
  dataset_id: string;
  version_id: string;
  has_pii: boolean;
  findings: number;
}

export const piiScanJob = defineJobType({
  type: "dataset.pii-scan",
  payload: scanPayload,
  run: async (p, ctx): Promise<ScanResult> => {
    const [version] = await ctx.db
      .select()
      .from(datasetVersions)
      .where(and(eq(datasetVersions.id, p.version_id), eq(datasetVersions.datasetId, p.dataset_id)));
    if (!version) throw new Error("The dataset version was deleted before it could be scanned.");
    const scanned = await withDatasetFile(version.blobKey, (file) =>
      scanFileForPii(file, version.schema, {
        rowCount: version.rowCount ?? 0,
        signal: ctx.signal,
        onProgress: (f) => void ctx.reportProgress(f, "Scanning"),
      }),
    );
    const report: PiiReport = { task_id: ctx.jobId, scanned_at: new Date().toISOString(), ...scanned };
    await ctx.db.update(datasetVersions).set({ piiReport: report }).where(eq(datasetVersions.id, version.id));
    return {
      dataset_id: p.dataset_id,
      version_id: p.version_id,
      has_pii: report.has_pii,
      findings: report.findings.length,
    };
  },
});

const DATASET_JOB_TYPES = [fetchUrlJob.type, piiScanJob.type];

// ---------------------------------------------------------------------------------------------------

export type DatasetTaskView = z.infer<typeof taskSchemaOut>;

export function toTaskView(job: Job): DatasetTaskView {
  const payload = (job.payload ?? {}) as Partial<Record<string, string>>;
  const result = (job.result ?? {}) as Partial<Record<string, string>>;
  return {
    id: job.id,
    kind: job.type === fetchUrlJob.type ? "fetch_url" : "pii_scan",
    state: job.state,
    progress: job.progress,
    message: job.progressMessage,
    dataset_id: result.dataset_id ?? payload.dataset_id ?? null,
    version_id: result.version_id ?? payload.version_id ?? null,
    error: job.error,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

export async function getDatasetTask(db: Db, user: Viewer, taskId: string): Promise<DatasetTaskView> {
  const job = await getJob(db, taskId, user.id);
  if (!DATASET_JOB_TYPES.includes(job.type)) throw new NotFoundError("Task");
  // A task still waiting (e.g. queued before a restart) gets a runner as soon as someone asks about it.
  if (job.state === "queued") void ensureInProcessRunner();
  return toTaskView(job);
}

export async function startFetchFromUrl(
  db: Db,
  user: Viewer,
  input: { url: string; name: string; description?: string },
): Promise<DatasetTaskView> {
  const url = await precheckUrl(input.url);
  const job = await enqueueJob(
    db,
    fetchUrlJob,
    { url: url.toString(), name: input.name, description: input.description, owner_id: user.id },
    { ownerId: user.id, maxAttempts: 2 },
  );
  void ensureInProcessRunner();
  return toTaskView(job);
}

export async function startPiiScan(
  db: Db,
  user: Viewer,
  datasetId: string,
  versionId: string,
): Promise<DatasetTaskView> {
  await ownedVersion(db, user, datasetId, versionId);
  const job = await enqueueJob(
    db,
    piiScanJob,
    { dataset_id: datasetId, version_id: versionId },
    { ownerId: user.id, maxAttempts: 2 },
  );
  void ensureInProcessRunner();
  return toTaskView(job);
}
