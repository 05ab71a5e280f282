/**
 * The pictures of one split of an image ZIP dataset version, for evaluating an image model: the
 * readable images in archive order (the profile's corrupt files left out), split exactly as the
 * job's materialisation split them (the ZIP's train/validation/test folders, else the job's seeded
 * random split of the same rows), streamed in batches. Each picture is sent to the model as a
 * deployment receives it (its bytes, base64), so the evaluation runs the serving path: the same
 * decoder, resize and normalisation (artifact-reader.ts).
 */
import type { TrainingConfig } from "../../../ml/graph-types";
import type { Db } from "../../db/client";
import type { EvaluationSplit } from "../../db/schema/evaluations";
import { ValidationError } from "../../errors";
import { versionOf } from "../datasets/access";
import { type ImageZipEntry, InvalidImageZipError, listImageZip, readImageZip } from "../datasets/image-zip";
import { resolveVersion, splitRows } from "../training/prepared-dataset";

export interface ImageEvaluationRows {
  /** The stored ZIP of the version. */
  file: string;
  /** The pictures of the split, in archive order. */
  entries: ImageZipEntry[];
}

/** The pictures of `split` of a version, as the job with `config` split them. */
export async function readImageEvaluationRows(
  db: Db,
  input: {
    ownerId: string;
    datasetId: string;
    datasetVersionId: string;
    config: TrainingConfig;
    split: EvaluationSplit;
  },
): Promise<ImageEvaluationRows> {
  const v = await resolveVersion(db, input.ownerId, input.datasetId, input.datasetVersionId);
  if (v.schema.format !== "image_zip")
    throw new ValidationError("This model reads pictures: evaluate it on an image ZIP dataset.");
  const row = await versionOf(db, input.datasetId, input.datasetVersionId);
  let entries: ImageZipEntry[];
  try {
    ({ entries } = await listImageZip(v.file, row.profile.images?.corrupt ?? []));
  } catch (err) {
    if (err instanceof InvalidImageZipError) throw new ValidationError(err.message);
    throw err;
  }
  const all = entries.map((_, i) => i);
  const rows = input.split === "all" ? all : splitRows(all, v.splits, input.config)[input.split];
  return { file: v.file, entries: rows.map((r) => entries[r]) };
}

/** The split's pictures in batches of `size`: each entry with its bytes. */
export async function* imageBatches(
  rows: ImageEvaluationRows,
  size: number,
): AsyncGenerator<{ entry: ImageZipEntry; bytes: Buffer }[]> {
  let batch: { entry: ImageZipEntry; bytes: Buffer }[] = [];
  for await (const item of readImageZip(rows.file, rows.entries)) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
