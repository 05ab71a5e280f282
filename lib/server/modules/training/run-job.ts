/**
 * The body of the `training.run` task (the job type is defined in dispatch.ts): executes one managed
 * training job (pytorch or tfjs) in the durable runner. It materialises the dataset, mints the job's
 * upload token, resumes from the last checkpoint when there is one, runs the generated project through
 * its executor (which reports over the public upload API), charges the measured compute time and
 * records how the job ended. A worker that dies mid-job leaves the task to the runner's recovery: the
 * next attempt resumes from the last checkpoint, and a job whose attempts are used up is failed by the
 * training recovery pass (recovery.ts).
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import { internalApiUrl } from "../../config";
import type { Db } from "../../db/client";
import { type TrainingJobRow, trainingCheckpoints, trainingJobs, users } from "../../db/schema";
import { DomainError } from "../../errors";
import { appendTrainingEvents } from "../../events/training-events";
import type { JobContext } from "../../jobs/registry";
import { COMPUTE_SECONDS_PER_CREDIT, planOf } from "../../plans";
import { creditBalance } from "../account/credits";
import { mintUploadToken, revokeUploadTokens } from "../account/training-tokens";
import { copyBlobToFile } from "./blob-files";
import { executorFor, type FineTuneArgs, resolveRuntime } from "./executors";
import { dataParallelProcs } from "./executors/pytorch";
import { sandboxLimits } from "./executors/sandbox";
import { summarizeFailure } from "./failure-reason";
import { fineTuneArgsFor } from "./fine-tune-args";
import { chargeCompute, finalizeArtifact } from "./finish";
import { getJobRow } from "./job-rows";
import { materializeDataset } from "./materialize";
import { isTerminal, noteJobStatus, transitionJob } from "./state";

/** Thrown when the runner interrupted the job (shutdown, lost lease): the runner queues the task again. */
class InterruptedError extends Error {}

async function lastCheckpoint(db: Db, jobId: string) {
  const [row] = await db
    .select()
    .from(trainingCheckpoints)
    .where(eq(trainingCheckpoints.jobId, jobId))
    .orderBy(desc(trainingCheckpoints.epoch))
    .limit(1);
  return row ?? null;
}

async function fail(db: Db, jobId: string, reason: string, to: "failed" | "timed_out" = "failed") {
  await transitionJob(db, jobId, { from: ["queued", "running"], to, reason });
}

export async function runTrainingJob(db: Db, jobId: string, ctx: JobContext): Promise<string> {
  let job: TrainingJobRow | null = await getJobRow(db, jobId);
  if (!job || isTerminal(job.state)) return "skipped";
  if (job.cancelRequested) {
    await transitionJob(db, jobId, {
      from: ["queued", "running"],
      to: "cancelled",
      reason: "Cancelled by the user.",
    });
    return "cancelled";
  }
  const checkpoint = await lastCheckpoint(db, jobId);
  if (job.state === "running") {
    await noteJobStatus(
      db,
      job,
      checkpoint
        ? `The worker running this job stopped; resuming after epoch ${checkpoint.epoch}.`
        : "The worker running this job stopped; starting again.",
    );
  } else {
    job = await transitionJob(db, jobId, { from: ["queued"], to: "running" });
    if (!job) return "skipped";
  }

  const [owner] = await db.select().from(users).where(eq(users.id, job.ownerId));
  const plan = planOf(owner?.plan ?? "free");
  const balance = await creditBalance(db, job.ownerId);
  if (balance <= 0) {
    await fail(db, jobId, "Out of credits: the account has no credits left for compute time.");
    return "failed";
  }
  const planSecondsLeft = plan.limits.training_seconds_per_job - job.computeSeconds;
  if (planSecondsLeft <= 0) {
    await fail(
      db,
      jobId,
      `The ${plan.name} plan's time limit per job (${plan.limits.training_seconds_per_job} s) is used up.`,
      "timed_out",
    );
    return "timed_out";
  }
  const creditSeconds = balance * COMPUTE_SECONDS_PER_CREDIT;
  const limitedByCredits = creditSeconds < planSecondsLeft;
  const timeLimitMs = Math.max(1000, Math.floor(Math.min(planSecondsLeft, creditSeconds) * 1000));

  const workDir = await fsp.mkdtemp(path.join(os.tmpdir(), `layerline-${jobId}-`));
  try {
    const runtime =
      job.resolvedRuntime === "pytorch" || job.resolvedRuntime === "tfjs"
        ? job.resolvedRuntime
        : await resolveRuntime(job.runtime === "external" ? "auto" : job.runtime);
    if (job.resolvedRuntime !== runtime)
      await db.update(trainingJobs).set({ resolvedRuntime: runtime }).where(eq(trainingJobs.id, jobId));
    let fineTune: FineTuneArgs | null = null;
    if (job.baseModelId) {
      if (runtime !== "pytorch") {
        await fail(db, jobId, "Fine-tuning runs need PyTorch, which this worker does not have.");
        return "failed";
      }
      try {
        fineTune = await fineTuneArgsFor(db, job, workDir);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        await fail(db, jobId, err.message);
        return "failed";
      }
    }

    const dataDir = path.join(workDir, "data");
    await fsp.mkdir(dataDir, { recursive: true });
    let preprocessing: TrainingJobRow["preprocessing"];
    try {
      preprocessing = await materializeDataset(db, {
        ownerId: job.ownerId,
        datasetId: job.datasetId,
        datasetVersionId: job.datasetVersionId,
        graph: job.graph,
        config: job.config,
        dir: dataDir,
        vocabulary: job.fineTune?.vocabulary ?? null,
        encoding: job.fineTune?.encoding ?? null,
      });
    } catch (err) {
      if (err instanceof DomainError) {
        await fail(db, jobId, `The dataset does not fit the model: ${err.message}`);
        return "failed";
      }
      throw err;
    }
    await db.update(trainingJobs).set({ preprocessing }).where(eq(trainingJobs.id, jobId));

    let resumeFrom: string | null = null;
    if (checkpoint) {
      resumeFrom = path.join(workDir, "resume.ckpt");
      if (!(await copyBlobToFile(checkpoint.blobKey, resumeFrom))) resumeFrom = null;
    }
    await revokeUploadTokens(db, jobId);
    const { token } = await mintUploadToken(db, job.ownerId, jobId);
    const result = await executorFor(runtime).run({
      jobId,
      projectName: job.projectName,
      graph: job.graph,
      config: job.config,
      dataDir,
      workDir,
      uploadToken: token,
      apiBaseUrl: internalApiUrl(),
      resumeFrom,
      signal: ctx.signal,
      timeLimitMs,
      // The sandbox's CPU, memory, file-size and process limits: the owner's plan's.
      limits: sandboxLimits(plan, timeLimitMs),
      strategy: job.strategy,
      ...(fineTune ? { fineTune } : {}),
    });
    // A data_parallel job occupies its processes for the whole run: each is charged.
    const processes = runtime === "pytorch" && job.strategy === "data_parallel" ? dataParallelProcs() : 1;
    await chargeCompute(db, job, result.wallSeconds * processes);

    if (ctx.isCancelled()) {
      const now = await getJobRow(db, jobId);
      if (now?.cancelRequested) {
        await transitionJob(db, jobId, {
          from: ["queued", "running"],
          to: "cancelled",
          reason: "Cancelled by the user.",
        });
        return "cancelled";
      }
      throw new InterruptedError(
        "The job was interrupted by its worker; it will resume from its last checkpoint.",
      );
    }
    if (result.timedOut) {
      if (limitedByCredits) {
        await fail(db, jobId, "Out of credits: the job used the account's last credits and was stopped.");
        return "failed";
      }
      await fail(
        db,
        jobId,
        `The job ran past the ${plan.name} plan's limit of ${plan.limits.training_seconds_per_job} s per job.`,
        "timed_out",
      );
      return "timed_out";
    }
    if (result.exitCode === 0) {
      if (!(await finalizeArtifact(db, jobId))) {
        await fail(db, jobId, "The training program finished without uploading a model file.");
        return "failed";
      }
      await transitionJob(db, jobId, { from: ["running"], to: "succeeded" });
      return "succeeded";
    }
    // The reason is one short line for everyone who sees the job; the traceback is the owner's log.
    const failure = summarizeFailure(result.stderrTail, result, workDir);
    if (failure.log) {
      const timestamp = new Date().toISOString();
      const message = `The training program's error output:\n${failure.log}`;
      await appendTrainingEvents(db, jobId, [
        { kind: "log", data: { timestamp, level: "error", message }, name: "error" },
      ]).catch(() => {});
    }
    await fail(db, jobId, failure.reason);
    return "failed";
  } finally {
    await revokeUploadTokens(db, jobId).catch(() => {});
    await fsp.rm(workDir, { recursive: true, force: true }).catch(() => {});
  }
}
