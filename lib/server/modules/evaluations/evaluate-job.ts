/**
 * The `training.evaluate` task: loads a job's model artifact from the blob store exactly as a
 * deployment would (artifact-reader.ts: onnxruntime-node or TF.js, the manifest's preprocessing
 * applied to raw instances), predicts the raw rows of the evaluation's split in batches, and stores
 * the metrics (metrics.ts). A character language model is scored on the split's text windows
 * (text-rows.ts) from its raw logits: next-character loss, perplexity and accuracy. A failure (the
 * dataset lacks the model's columns, a table for a text model…) is recorded on the evaluation with
 * its reason.
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { type TrainingEvaluationRow, type TrainingJobRow, trainingEvaluations } from "../../db/schema";
import type { EvaluationResult } from "../../db/schema/evaluations";
import type { Preprocessing, PreprocessingStep } from "../../db/schema/training";
import { ConflictError, DomainError, ValidationError } from "../../errors";
import { defineJobType, type JobContext } from "../../jobs/registry";
import type { LoadedArtifact, ModelManifest, Prediction } from "../training/artifact-reader";
import { getJobRow } from "../training/job-rows";
import { readEvaluationRows } from "../training/materialize";
import { resolveVersion } from "../training/prepared-dataset";
import { evaluateImageModel, isImageModel } from "./evaluate-images";
import { loadJobArtifact } from "./job-artifact";
import { addTokenLosses, languageModelMetrics, type TokenLossTotals } from "./metrics";
import { summarize } from "./summarize";
import { readTextWindows } from "./text-rows";

/** Rows predicted per call of the model. */
const BATCH_ROWS = 512;

export const evaluateJobType = defineJobType({
  type: "training.evaluate",
  payload: z.object({ evaluation_id: z.string().min(1) }),
  async run(payload, ctx) {
    const [row] = await ctx.db
      .select()
      .from(trainingEvaluations)
      .where(eq(trainingEvaluations.id, payload.evaluation_id));
    if (!row || row.state === "succeeded" || row.state === "failed") return { skipped: true };
    await setState(ctx.db, row.id, { state: "running", startedAt: new Date(), reason: null });
    try {
      const job = await getJobRow(ctx.db, row.jobId);
      if (!job?.artifactManifest) throw new ConflictError("The job's model artifact is gone.");
      const { metrics, result } = await evaluate(ctx, row, job);
      await setState(ctx.db, row.id, { state: "succeeded", metrics, result, finishedAt: new Date() });
      return { rows: result.rows };
    } catch (err) {
      if (ctx.isCancelled()) throw err;
      const reason =
        err instanceof DomainError
          ? err.message
          : `The evaluation failed: ${err instanceof Error ? err.message : String(err)}`;
      await setState(ctx.db, row.id, {
        state: "failed",
        reason: reason.slice(0, 2000),
        finishedAt: new Date(),
      });
      return { failed: true };
    }
  },
});

async function setState(db: Db, id: string, values: Partial<typeof trainingEvaluations.$inferInsert>) {
  await db
    .update(trainingEvaluations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(trainingEvaluations.id, id));
}

type Summary = { metrics: Record<string, number>; result: EvaluationResult };

async function evaluate(ctx: JobContext, row: TrainingEvaluationRow, job: TrainingJobRow): Promise<Summary> {
  if (!job.preprocessing) throw new ValidationError("The job recorded no preprocessing.");
  if (job.preprocessing.task === "language_modeling") return evaluateLanguageModel(ctx, row, job);
  if (isImageModel(job)) return evaluateImageModel(ctx, row, job);
  await checkColumns(ctx.db, row, job.preprocessing);
  const data = await readEvaluationRows(ctx.db, {
    ownerId: row.ownerId,
    datasetId: row.datasetId,
    datasetVersionId: row.datasetVersionId,
    preprocessing: job.preprocessing,
    config: job.config,
    split: row.split,
  });
  if (data.instances.length === 0)
    throw new ValidationError(`The ${row.split} split of this dataset version has no rows.`);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-eval-"));
  let model: LoadedArtifact | null = null;
  try {
    model = await loadJobArtifact(ctx.db, job, dir);
    const predictions: Prediction[] = [];
    for (let start = 0; start < data.instances.length; start += BATCH_ROWS) {
      if (ctx.isCancelled()) throw new Error("cancelled");
      predictions.push(...(await model.predict(data.instances.slice(start, start + BATCH_ROWS))));
      await ctx.reportProgress(predictions.length / data.instances.length);
    }
    return summarize(model.manifest, data.targets, predictions);
  } finally {
    await model?.dispose();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** Fails with the missing columns' names when the version lacks any of the job's raw columns. */
async function checkColumns(db: Db, row: TrainingEvaluationRow, p: Preprocessing): Promise<void> {
  const v = await resolveVersion(db, row.ownerId, row.datasetId, row.datasetVersionId);
  if (v.schema.format === "text")
    throw new ValidationError(
      "This model reads a table of features: evaluate it on a table dataset, not a text.",
    );
  const have = new Set(v.schema.columns.map((c) => c.name));
  const features = p.raw_features.map((f) => f.name).filter((name) => !have.has(name));
  const target = p.target !== null && !have.has(p.target) ? [p.target] : [];
  if (features.length === 0 && target.length === 0) return;
  const quote = (names: string[]) => names.map((n) => `“${n}”`).join(", ");
  const parts = [
    ...(features.length > 0
      ? [`the feature column${features.length === 1 ? "" : "s"} ${quote(features)}`]
      : []),
    ...(target.length > 0 ? [`the target column ${quote(target)}`] : []),
  ];
  throw new ValidationError(
    `This dataset version lacks ${parts.join(" and ")} that the model was trained on; it needs ${quote(
      p.raw_features.map((f) => f.name),
    )}${p.target ? ` and the target ${quote([p.target])}` : ""}.`,
  );
}

/**
 * A character language model: the split's text in windows of the model's sequence length, run
 * through the artifact's raw outputs (logits), scored by next-character cross-entropy as training
 * scores val_loss; perplexity is exp(loss).
 */
async function evaluateLanguageModel(
  ctx: JobContext,
  row: TrainingEvaluationRow,
  job: TrainingJobRow,
): Promise<Summary> {
  const manifest = job.artifactManifest as unknown as ModelManifest;
  const tokens = manifest.input.preprocessing.find(
    (s): s is Extract<PreprocessingStep, { kind: "char_tokens" }> => s.kind === "char_tokens",
  );
  if (!tokens) throw new ValidationError("The model's manifest records no character vocabulary.");
  const windows = await readTextWindows(ctx.db, {
    ownerId: row.ownerId,
    datasetId: row.datasetId,
    datasetVersionId: row.datasetVersionId,
    config: job.config,
    split: row.split,
    vocabulary: tokens.vocabulary,
    sequenceLength: tokens.sequence_length,
  });
  if (windows.rows === 0)
    throw new ValidationError(
      `The ${row.split} split of this dataset version is shorter than one window of ${tokens.sequence_length} characters.`,
    );
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-eval-"));
  let model: LoadedArtifact | null = null;
  try {
    model = await loadJobArtifact(ctx.db, job, dir);
    const T = windows.sequenceLength;
    const totals: TokenLossTotals = { lossSum: 0, correct: 0, tokens: 0 };
    for (let start = 0; start < windows.rows; start += BATCH_ROWS) {
      if (ctx.isCancelled()) throw new Error("cancelled");
      const { x, y } = windows.batch(start, BATCH_ROWS);
      const count = y.length;
      const logits = await model.run({ count, values: x });
      addTokenLosses(totals, logits, logits.length / count, y);
      await ctx.reportProgress((start + count) / windows.rows);
    }
    const m = languageModelMetrics(totals);
    return {
      metrics: { ...m, rows: windows.rows },
      result: {
        kind: "language_modeling",
        rows: windows.rows,
        characters: windows.characters,
        unknown_characters: windows.unknownCharacters,
        vocabulary_size: tokens.vocabulary.length,
        sequence_length: T,
      },
    };
  } finally {
    await model?.dispose();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
