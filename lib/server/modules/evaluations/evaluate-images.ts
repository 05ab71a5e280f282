/**
 * Evaluating an image classifier: the pictures of the evaluated split go through the serving path
 * (image-instances.ts: the training decoder, resize and normalisation recorded in the manifest) into
 * the same artifact a deployment serves, and the metrics are the classification ones (metrics.ts).
 * On top, the mistakes people look at: up to MISTAKES_PER_CELL misclassified pictures per
 * confusion-matrix cell, the most confident first (at most MAX_SAMPLES in all), each named by its
 * path in the ZIP so the studio can show its thumbnail (evaluations.ts, sampleImage).
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TrainingEvaluationRow, TrainingJobRow } from "../../db/schema";
import type { EvaluationResult, EvaluationSample } from "../../db/schema/evaluations";
import { ValidationError } from "../../errors";
import type { JobContext } from "../../jobs/registry";
import { imageSpecOf, imageTensor } from "../serving/image-instances";
import {
  decodeOutputs,
  type LoadedArtifact,
  type ModelManifest,
  type Prediction,
} from "../training/artifact-reader";
import { imageBatches, readImageEvaluationRows } from "./image-rows";
import { loadJobArtifact } from "./job-artifact";
import { summarize } from "./summarize";

/** Pictures predicted per call of the model. */
const BATCH_IMAGES = 256;
export const MISTAKES_PER_CELL = 8;
export const MAX_SAMPLES = 400;

/** Whether the job's model takes pictures. */
export function isImageModel(job: TrainingJobRow): boolean {
  return (
    job.artifactManifest !== null && imageSpecOf(job.artifactManifest as unknown as ModelManifest) !== null
  );
}

/**
 * The misclassified pictures worth showing: per (true, predicted) cell the most confident mistakes,
 * at most `perCell` each and `max` in all (the most confident kept when there are more).
 */
export function mistakeSamples(
  paths: readonly string[],
  targets: readonly string[],
  predictions: readonly Prediction[],
  perCell = MISTAKES_PER_CELL,
  max = MAX_SAMPLES,
): EvaluationSample[] {
  const cells = new Map<string, EvaluationSample[]>();
  predictions.forEach((p, i) => {
    if (!("label" in p) || p.label === targets[i]) return;
    const sample = {
      path: paths[i],
      actual: targets[i],
      predicted: p.label,
      confidence: p.probabilities[p.label] ?? 0,
    };
    const key = JSON.stringify([sample.actual, sample.predicted]);
    const cell = cells.get(key) ?? [];
    cell.push(sample);
    cells.set(key, cell);
  });
  const kept = [...cells.values()].flatMap((cell) =>
    cell.sort((a, b) => b.confidence - a.confidence || a.path.localeCompare(b.path)).slice(0, perCell),
  );
  return kept.sort((a, b) => b.confidence - a.confidence || a.path.localeCompare(b.path)).slice(0, max);
}

export async function evaluateImageModel(
  ctx: JobContext,
  row: TrainingEvaluationRow,
  job: TrainingJobRow,
): Promise<{ metrics: Record<string, number>; result: EvaluationResult }> {
  const manifest = job.artifactManifest as unknown as ModelManifest;
  const spec = imageSpecOf(manifest);
  if (!spec) throw new ValidationError("The model's manifest records no image preprocessing.");
  const rows = await readImageEvaluationRows(ctx.db, {
    ownerId: row.ownerId,
    datasetId: row.datasetId,
    datasetVersionId: row.datasetVersionId,
    config: job.config,
    split: row.split,
  });
  if (rows.entries.length === 0)
    throw new ValidationError(`The ${row.split} split of this dataset version has no pictures.`);
  const per = spec.channels * spec.height * spec.width;
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-eval-"));
  let model: LoadedArtifact | null = null;
  const predictions: Prediction[] = [];
  const targets: string[] = [];
  const paths: string[] = [];
  let unreadable = 0;
  try {
    model = await loadJobArtifact(ctx.db, job, dir);
    for await (const batch of imageBatches(rows, BATCH_IMAGES)) {
      if (ctx.isCancelled()) throw new Error("cancelled");
      const values = new Float32Array(batch.length * per);
      let count = 0;
      for (const { entry, bytes } of batch) {
        try {
          values.set(await imageTensor(spec, bytes, count), count * per);
        } catch (err) {
          // A picture the decoder refuses was never trained on either: skipped, and counted.
          if (!(err instanceof ValidationError)) throw err;
          unreadable += 1;
          continue;
        }
        targets.push(entry.label);
        paths.push(entry.path);
        count += 1;
      }
      if (count > 0) {
        const outputs = await model.run({ count, values: values.subarray(0, count * per) });
        predictions.push(...decodeOutputs(manifest, outputs, count));
      }
      await ctx.reportProgress((targets.length + unreadable) / rows.entries.length);
    }
  } finally {
    await model?.dispose();
    await fsp.rm(dir, { recursive: true, force: true });
  }
  if (predictions.length === 0)
    throw new ValidationError(`No picture of the ${row.split} split could be read.`);
  const { metrics, result } = summarize(manifest, targets, predictions);
  if (result.kind !== "classification") return { metrics, result };
  return {
    metrics: unreadable > 0 ? { ...metrics, unreadable_images: unreadable } : metrics,
    result: { ...result, samples: mistakeSamples(paths, targets, predictions) },
  };
}
