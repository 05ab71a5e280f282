/**
 * A few sample predictions of an image model, for the pages that show a model to others (the hub
 * model page, the registry version page): pictures of the job's validation split (else its training
 * split), one per class in turn, each as a small PNG thumbnail with its true class and what the
 * job's artifact predicts for it, through the serving path. Written as `samples.json` beside the
 * model's files when it is published or pushed (it counts in the storage quota like them).
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Db } from "../../db/client";
import type { TrainingJobRow } from "../../db/schema";
import { DomainError, ValidationError } from "../../errors";
import { MAX_IMAGE_PIXELS, sniffImageFormat } from "../datasets/image-decode";
import type { ImageZipEntry } from "../datasets/image-zip";
import { imageSpecOf, imageTensor } from "../serving/image-instances";
import { decodeOutputs, type LoadedArtifact, type ModelManifest } from "../training/artifact-reader";
import { imageBatches, readImageEvaluationRows } from "./image-rows";
import { loadJobArtifact } from "./job-artifact";

export const SAMPLE_PREDICTIONS_FILE = "samples.json";
export const SAMPLE_PREDICTIONS = 6;
const THUMBNAIL = 64;

export interface SamplePrediction {
  /** A PNG thumbnail (data: URL) of the picture, at most 64×64. */
  image: string;
  actual: string;
  predicted: string;
  confidence: number;
}

/** Up to `count` entries, taking each class in turn, so the samples show several classes. */
export function pickAcrossClasses(entries: readonly ImageZipEntry[], count: number): ImageZipEntry[] {
  const byClass = new Map<string, ImageZipEntry[]>();
  for (const e of entries) byClass.set(e.label, [...(byClass.get(e.label) ?? []), e]);
  const queues = [...byClass.keys()].sort().map((k) => byClass.get(k) ?? []);
  const picked: ImageZipEntry[] = [];
  for (let round = 0; picked.length < count; round++) {
    const before = picked.length;
    for (const q of queues) if (round < q.length && picked.length < count) picked.push(q[round]);
    if (picked.length === before) break;
  }
  // In archive order, as the reader streams them.
  const order = new Map(entries.map((e, i) => [e.path, i] as const));
  return picked.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
}

/**
 * The sample predictions of a succeeded image job, or null when its model does not take pictures
 * or its dataset can no longer be read (the samples are a nicety: publishing never fails for them).
 */
export async function imageSamplePredictions(
  db: Db,
  job: TrainingJobRow,
  count = SAMPLE_PREDICTIONS,
): Promise<SamplePrediction[] | null> {
  const manifest = job.artifactManifest as unknown as ModelManifest | null;
  const spec = manifest ? imageSpecOf(manifest) : null;
  if (!manifest || !spec) return null;
  let rows: Awaited<ReturnType<typeof readImageEvaluationRows>>;
  try {
    const input = {
      ownerId: job.ownerId,
      datasetId: job.datasetId,
      datasetVersionId: job.datasetVersionId,
      config: job.config,
    };
    rows = await readImageEvaluationRows(db, { ...input, split: "validation" });
    if (rows.entries.length === 0) rows = await readImageEvaluationRows(db, { ...input, split: "train" });
  } catch {
    return null;
  }
  const chosen = { file: rows.file, entries: pickAcrossClasses(rows.entries, count) };
  if (chosen.entries.length === 0) return null;
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-samples-"));
  let model: LoadedArtifact | null = null;
  try {
    model = await loadJobArtifact(db, job, dir);
    const out: SamplePrediction[] = [];
    const per = spec.channels * spec.height * spec.width;
    for await (const batch of imageBatches(chosen, count)) {
      for (const { entry, bytes } of batch) {
        let values: Float32Array;
        try {
          values = await imageTensor(spec, bytes, 0);
        } catch (err) {
          if (err instanceof ValidationError) continue;
          throw err;
        }
        const [p] = decodeOutputs(
          manifest,
          await model.run({ count: 1, values: values.subarray(0, per) }),
          1,
        );
        // Only picture formats reach sharp (imageTensor checked it; kept explicit here).
        if (!p || !("label" in p) || !sniffImageFormat(bytes)) continue;
        const png = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
          .resize(THUMBNAIL, THUMBNAIL, { fit: "inside", kernel: "nearest" })
          .png()
          .toBuffer();
        out.push({
          image: `data:image/png;base64,${png.toString("base64")}`,
          actual: entry.label,
          predicted: p.label,
          confidence: p.probabilities[p.label] ?? 0,
        });
      }
    }
    return out.length > 0 ? out : null;
  } catch (err) {
    // A model that cannot be loaded any more (refused by the probe, files gone): no samples.
    if (err instanceof DomainError) return null;
    throw err;
  } finally {
    await model?.dispose();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** The bytes of samples.json for a job, or null (see imageSamplePredictions). */
export async function samplePredictionsFile(db: Db, job: TrainingJobRow): Promise<Buffer | null> {
  const samples = await imageSamplePredictions(db, job);
  return samples ? Buffer.from(`${JSON.stringify({ samples }, null, 2)}\n`, "utf8") : null;
}
