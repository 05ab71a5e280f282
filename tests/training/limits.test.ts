/**
 * Plan limits and recovery of training jobs, in one process: the real app served on loopback (so
 * that training programs can upload), its job runner, and the database read directly to arrange
 * the edge cases: a job that runs out of credits, one past its plan's time limit, a job whose
 * runner task gave up, and files a crash left in the blob store.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { creditEntries, jobs, trainingCheckpoints, trainingJobs } from "@/lib/server/db/schema";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { grantCredits } from "@/lib/server/modules/account/credits";
import { recoverTrainingJobs, sweepOrphanBlobs } from "@/lib/server/modules/training/recovery";
import { call, serveForUploads, signUpWithKey, startTestApp, type TestApp } from "../helpers";

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-limits-blobs-"));
process.env.BLOB_DIR = blobDir;
let app: TestApp;
let runner: JobRunner | null = null;
let close: () => void = () => {};

beforeAll(async () => {
  app = await startTestApp();
  close = await serveForUploads(app);
});

afterAll(async () => {
  await runner?.stop({ graceMs: 2000 });
  close();
  fs.rmSync(blobDir, { recursive: true, force: true });
});

async function startRunner() {
  runner = startJobRunner({ db: await getDb(), concurrency: 2, pollIntervalMs: 100 });
}
async function stopRunner() {
  await runner?.stop({ graceMs: 2000 });
  runner = null;
}

async function waitForState(key: string, jobId: string, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(app, "GET", `/api/v1/training/jobs/${jobId}`, { key });
    if (["succeeded", "failed", "cancelled", "timed_out"].includes(r.json.state)) return r.json;
    if (Date.now() > until) throw new Error(`job did not finish: ${r.text}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

async function longIrisJob(key: string) {
  const project = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "Iris", template: "mlp-classifier" },
  });
  const r = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: project.json.id,
      dataset_id: "builtin-iris",
      runtime: "pytorch",
      config: { epochs: 1000, batch_size: 1 },
    },
  });
  expect(r.status, r.text).toBe(201);
  return r.json.id as string;
}

describe("plan limits", () => {
  it("stops a job cleanly when it uses up the account's credits, charging what it used", async () => {
    await stopRunner();
    const { key, user } = await signUpWithKey(app);
    const jobId = await longIrisJob(key);
    const db = await getDb();
    // Leave 0.05 credits: three seconds of compute.
    await grantCredits(db, user.id, -(100 - 0.05), "test: leave a little");
    await startRunner();
    const job = await waitForState(key, jobId);
    expect(job.state).toBe("failed");
    expect(job.reason).toMatch(/out of credits/i);
    expect(job.compute_seconds).toBeGreaterThan(2);
    const entries = await db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.userId, user.id), eq(creditEntries.reference, jobId)));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.amountMilli < 0)).toBe(true);
    const credits = await call(app, "GET", "/api/v1/users/me/credits", { key });
    expect(credits.json.balance).toBeLessThanOrEqual(0.01);
  }, 180_000);

  it("ends a job timed_out past its plan's time limit", async () => {
    await stopRunner();
    const { key } = await signUpWithKey(app);
    const jobId = await longIrisJob(key);
    const db = await getDb();
    // The free plan allows 3,600 s per job: pretend 3,597 were used by earlier attempts.
    await db.update(trainingJobs).set({ computeSeconds: 3597 }).where(eq(trainingJobs.id, jobId));
    await startRunner();
    const job = await waitForState(key, jobId);
    expect(job.state).toBe("timed_out");
    expect(job.reason).toMatch(/3600 s/);
    const restart = await call(app, "POST", `/api/v1/training/jobs/${jobId}/restart`, { key });
    expect(restart.json.state).toBe("queued");
    const again = await waitForState(key, jobId);
    expect(again.state).toBe("timed_out");
    expect(again.reason).toMatch(/used up/);
  }, 180_000);
});

describe("recovery", () => {
  it("fails a job whose runner task gave up, with the task's reason", async () => {
    await stopRunner();
    const { key } = await signUpWithKey(app);
    const jobId = await longIrisJob(key);
    const db = await getDb();
    const [row] = await db.select().from(trainingJobs).where(eq(trainingJobs.id, jobId));
    expect(row.runnerTaskId).toBeTruthy();
    await db
      .update(jobs)
      .set({
        state: "failed",
        error: "The worker running this job stopped responding, and all 3 attempts are used up.",
      })
      .where(eq(jobs.id, row.runnerTaskId ?? ""));
    await db.update(trainingJobs).set({ state: "running" }).where(eq(trainingJobs.id, jobId));
    const counts = await recoverTrainingJobs(db);
    expect(counts.failed).toBeGreaterThanOrEqual(1);
    const job = await call(app, "GET", `/api/v1/training/jobs/${jobId}`, { key });
    expect(job.json.state).toBe("failed");
    expect(job.json.reason).toContain("attempts are used up");
  });

  it("sweeps files a crash left half-written or unreferenced, and keeps the rest", async () => {
    const db = await getDb();
    const write = (area: string, name: string) => {
      fs.mkdirSync(path.join(blobDir, area), { recursive: true });
      fs.writeFileSync(path.join(blobDir, area, name), "x");
      return path.join(blobDir, area, name);
    };
    const tmpUpload = write("datasets", ".tmp-dsv_crashed-abc123");
    const orphanCheckpoint = write("checkpoints", "ckpt_orphan");
    const orphanArtifact = write("artifacts", "job_gone.model.onnx");
    const keptCheckpoint = write("checkpoints", "ckpt_kept");
    const { key } = await signUpWithKey(app);
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "p", template: "mlp-classifier" },
    });
    const created = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: project.json.id, dataset_id: "builtin-iris", runtime: "external" },
    });
    await db.insert(trainingCheckpoints).values({
      id: "ckpt_kept",
      jobId: created.json.id,
      epoch: 1,
      blobKey: "checkpoints/ckpt_kept",
      sizeBytes: 1,
      sha256: "0".repeat(64),
    });
    // Young files may still be being written by another process: kept.
    expect(await sweepOrphanBlobs(db, 3600_000)).toBe(0);
    const removed = await sweepOrphanBlobs(db, 0);
    expect(removed).toBe(3);
    for (const f of [tmpUpload, orphanCheckpoint, orphanArtifact]) expect(fs.existsSync(f), f).toBe(false);
    expect(fs.existsSync(keptCheckpoint)).toBe(true);
  });
});
