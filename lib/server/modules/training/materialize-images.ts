/**
 * Image ZIP datasets prepared for a job: every readable picture decoded with the datasets module's
 * decodeImage to the model Input's C×H×W (`resize` from the training configuration, default
 * "stretch"), its class folder as the label (classes numbered in sorted order), the ZIP's train/,
 * validation/ and test/ folders as the split (else the job's seeded random split), and the
 * per-channel mean and std of x / 255 measured on the training pictures only. The programs get uint8
 * pixels (x_<split>.bin) and the statistics (dataset.json `image`); they scale and normalise per batch
 * exactly as serving does (normalizeImage), and the job's preprocessing records the same `image` step.
 * A fine-tuning run from an image base model uses the base model's mean and std instead
 * (`source: "base_model"`), as its weights were trained on pictures normalised that way.
 *
 * Decoding is the slow part, so the decoded pictures of a dataset version are cached per
 * preprocessing (channels, height, width, resize): ONE uint8 file of every picture in archive order
 * plus a small JSON of their labels, under `<blob root>/image-tensors/<version id>/`. The cache is
 * written to a temporary name and renamed (a crash never leaves half a cache), is not counted in
 * the storage quota, and is removed with its dataset (datasets/row-cache.ts, dropRowCache).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { DEFAULT_IMAGE_RESIZE, type ImageResizeMode, type TrainingConfig } from "../../../ml/graph-types";
import type { InheritedImageEncoding, Preprocessing } from "../../db/schema/training";
import { ValidationError } from "../../errors";
import { decodeImage } from "../datasets/image-decode";
import { type ImageZipEntry, InvalidImageZipError, listImageZip, readImageZip } from "../datasets/image-zip";
import { imageTensorDir } from "../datasets/row-cache";
import { type ModelIO, sortLabels } from "./dataset-fit";
import { describeImageFit, type ImageInputShape, imageInputOf } from "./image-fit";
import { PREPARED_DATASET_FORMAT, type ResolvedVersion, splitRows } from "./prepared-dataset";

/** The largest decoded set a job prepares (N × C × H × W bytes). */
export const MAX_IMAGE_TENSOR_BYTES = 2 * 1024 ** 3;
/** Pictures decoded at once (sharp decodes on its own threads). */
const DECODE_CONCURRENCY = 4;

interface CacheMeta {
  format: "layerline-image-tensors";
  version: 1;
  channels: number;
  height: number;
  width: number;
  resize: ImageResizeMode;
  /** Pictures in the uint8 file, in the listing's order (corrupt files left out). */
  rows: number;
  /** Class folder of each row. */
  labels: string[];
  /** Rows whose picture could not be decoded (zeros in the file; never trained on). */
  failed: number[];
  /** The profile's corrupt files the listing left out (a version's file never changes; its profile may). */
  corrupt: string[];
}

const cacheDir = imageTensorDir;

function cacheKey(t: ImageInputShape, resize: ImageResizeMode): string {
  return `${t.channels}x${t.height}x${t.width}-${resize}`;
}

async function readCache(file: string, meta: string, size: number): Promise<CacheMeta | null> {
  try {
    const m = JSON.parse(await fsp.readFile(meta, "utf8")) as CacheMeta;
    const stat = await fsp.stat(file);
    return m.format === "layerline-image-tensors" && stat.size === m.rows * size ? m : null;
  } catch {
    return null;
  }
}

/** Writes a file under a temporary name, then renames it into place. */
async function atomically(target: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${target}.tmp-${randomBytes(6).toString("hex")}`;
  try {
    await write(tmp);
    await fsp.rename(tmp, target);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
}

function cacheFiles(versionId: string, target: ImageInputShape, resize: ImageResizeMode) {
  const dir = cacheDir(versionId);
  const key = cacheKey(target, resize);
  return { dir, file: path.join(dir, `${key}.u8`), metaFile: path.join(dir, `${key}.json`) };
}

/** The cached pictures of this version and preprocessing, when a job decoded them before. */
async function cachedTensors(
  versionId: string,
  corrupt: readonly string[],
  target: ImageInputShape,
  resize: ImageResizeMode,
): Promise<{ file: string; meta: CacheMeta } | null> {
  const { file, metaFile } = cacheFiles(versionId, target, resize);
  const meta = await readCache(file, metaFile, target.channels * target.height * target.width);
  const same = meta !== null && JSON.stringify(meta.corrupt) === JSON.stringify([...corrupt]);
  return meta && same ? { file, meta } : null;
}

/** Decodes every listed picture into the cache file; returns its meta. */
async function decodedTensors(
  v: ResolvedVersion,
  versionId: string,
  listing: { entries: ImageZipEntry[]; corrupt: string[] },
  target: ImageInputShape,
  resize: ImageResizeMode,
): Promise<{ file: string; meta: CacheMeta }> {
  const { entries } = listing;
  const size = target.channels * target.height * target.width;
  if (entries.length * size > MAX_IMAGE_TENSOR_BYTES)
    throw new ValidationError(
      `${entries.length} pictures of ${target.channels}×${target.height}×${target.width} make ${Math.ceil((entries.length * size) / 1024 ** 2)} MB decoded; a job prepares at most ${MAX_IMAGE_TENSOR_BYTES / 1024 ** 3} GB: use a smaller Input or fewer pictures.`,
    );
  const { dir, file, metaFile } = cacheFiles(versionId, target, resize);
  await fsp.mkdir(dir, { recursive: true });
  const failed: number[] = [];
  let fatal: unknown = null;
  await atomically(file, async (tmp) => {
    const handle = await fsp.open(tmp, "w");
    try {
      await handle.truncate(entries.length * size);
      const pending: Promise<void>[] = [];
      let row = 0;
      for await (const { bytes } of readImageZip(v.file, entries)) {
        const at = row++;
        pending.push(
          decodeImage(bytes, { ...target, resize }).then(
            async (pixels) => {
              await handle.write(pixels, 0, pixels.length, at * size);
            },
            (err: unknown) => {
              // Not a picture after all (a profile made before the decoder knew it): skipped.
              if (err instanceof ValidationError) failed.push(at);
              else fatal ??= err;
            },
          ),
        );
        if (pending.length >= DECODE_CONCURRENCY) await pending.shift();
      }
      await Promise.all(pending);
      if (fatal) throw fatal;
    } finally {
      await handle.close();
    }
  });
  const meta: CacheMeta = {
    format: "layerline-image-tensors",
    version: 1,
    ...target,
    resize,
    rows: entries.length,
    labels: entries.map((e) => e.label),
    failed: failed.sort((a, b) => a - b),
    corrupt: [...listing.corrupt],
  };
  await atomically(metaFile, (tmp) => fsp.writeFile(tmp, JSON.stringify(meta)));
  return { file, meta };
}

/** Per-channel mean and population std of x / 255 over the given rows (std 1 for a constant channel). */
function channelStatistics(histograms: Float64Array[], count: number): { mean: number[]; std: number[] } {
  const mean: number[] = [];
  const std: number[] = [];
  for (const h of histograms) {
    let sum = 0;
    let squares = 0;
    for (let v = 0; v < 256; v++) {
      sum += h[v] * (v / 255);
      squares += h[v] * (v / 255) ** 2;
    }
    const m = count > 0 ? sum / count : 0;
    const variance = count > 0 ? Math.max(0, squares / count - m * m) : 0;
    mean.push(m);
    std.push(variance > 1e-12 ? Math.sqrt(variance) : 1);
  }
  return { mean, std };
}

const FILE_SUFFIX = { train: "train", validation: "val", test: "test" } as const;

/** Prepares an image ZIP for a job: dataset.json, uint8 x and int32 y per split, preprocessing.json. */
export async function materializeImages(
  v: ResolvedVersion,
  version: { id: string; corrupt: readonly string[] },
  io: ModelIO,
  config: TrainingConfig,
  dir: string,
  /** A fine-tuning run: the base model's normalisation, used instead of the training pictures' statistics. */
  inherit: InheritedImageEncoding | null = null,
): Promise<Preprocessing> {
  const target = imageInputOf(io);
  if (!target) {
    const verdict = describeImageFit(io, undefined);
    throw new ValidationError(verdict.fits ? "The model's Input is not a picture." : verdict.reason);
  }
  const resize = config.resize ?? DEFAULT_IMAGE_RESIZE;
  // A second job on the same version and preprocessing starts from the cache (no listing, no decoding).
  let decoded = await cachedTensors(version.id, version.corrupt, target, resize);
  if (!decoded) {
    let listing: { entries: ImageZipEntry[]; corrupt: string[] };
    try {
      listing = await listImageZip(v.file, version.corrupt);
    } catch (err) {
      if (err instanceof InvalidImageZipError) throw new ValidationError(err.message);
      throw err;
    }
    decoded = await decodedTensors(v, version.id, listing, target, resize);
  }
  const { file, meta } = decoded;

  const labels = sortLabels(meta.labels);
  if (io.loss !== "cross_entropy" || io.outputShape[0] !== labels.length)
    throw new ValidationError(
      `The dataset has ${labels.length} classes but the model's Output gives ${io.outputShape[0]} ${io.loss} logits: make the last Dense layer ${labels.length} units (cross_entropy).`,
    );
  const classOf = new Map(labels.map((name, i) => [name, i] as const));
  const bad = new Set(meta.failed);
  const kept: number[] = [];
  for (let r = 0; r < meta.rows; r++) if (!bad.has(r)) kept.push(r);
  const split = splitRows(kept, v.splits, config);
  if (split.train.length === 0) throw new ValidationError("The dataset has no training pictures.");

  const size = target.channels * target.height * target.width;
  const plane = target.height * target.width;
  const histograms = Array.from({ length: target.channels }, () => new Float64Array(256));
  fs.mkdirSync(dir, { recursive: true });
  const names = ["train", "validation", "test"] as const;
  // Where each cached row goes: its split and its place there (splits keep the cache's order).
  const splitOf = new Int8Array(meta.rows).fill(-1);
  const placeOf = new Int32Array(meta.rows);
  const xs = names.map((name, s) => {
    split[name].forEach((r, i) => {
      splitOf[r] = s;
      placeOf[r] = i;
    });
    return Buffer.alloc(split[name].length * size);
  });
  // The cache read once, front to back, in large chunks (no read per picture).
  const source = await fsp.open(file, "r");
  try {
    const perChunk = Math.max(1, Math.floor((16 * 1024 * 1024) / size));
    const chunk = Buffer.alloc(perChunk * size);
    for (let first = 0; first < meta.rows; first += perChunk) {
      const count = Math.min(perChunk, meta.rows - first);
      await source.read(chunk, 0, count * size, first * size);
      for (let k = 0; k < count; k++) {
        const s = splitOf[first + k];
        if (s >= 0) chunk.copy(xs[s], placeOf[first + k] * size, k * size, (k + 1) * size);
      }
    }
  } finally {
    await source.close();
  }
  const train = xs[0];
  for (let i = 0; i < split.train.length; i++)
    for (let c = 0; c < target.channels; c++) {
      const h = histograms[c];
      const start = i * size + c * plane;
      for (let k = start; k < start + plane; k++) h[train[k]]++;
    }
  const entriesJson: Record<string, { rows: number; x: string; y: string }> = {};
  names.forEach((name, s) => {
    const rows = split[name];
    if (name === "test" && rows.length === 0) return;
    const y = Int32Array.from(rows, (r) => classOf.get(meta.labels[r]) as number);
    const files = { x: `x_${FILE_SUFFIX[name]}.bin`, y: `y_${FILE_SUFFIX[name]}.bin` };
    fs.writeFileSync(path.join(dir, files.x), xs[s]);
    fs.writeFileSync(path.join(dir, files.y), Buffer.from(y.buffer, y.byteOffset, y.byteLength));
    entriesJson[name] = { rows: rows.length, ...files };
  });
  // A fine-tuning run normalises as its base model was pretrained (the weights expect that scale).
  const inherited = inherit !== null && inherit.mean.length === target.channels ? inherit : null;
  const { mean, std } = inherited ?? channelStatistics(histograms, split.train.length * plane);
  const image = { ...target, resize, mean, std };
  const p: Preprocessing = {
    task: "classification",
    input_features: ["image"],
    raw_features: [{ name: "image", type: "image" }],
    target: "label",
    labels,
    input_shape: [target.channels, target.height, target.width],
    input_dtype: "float32",
    steps: [
      {
        kind: "split",
        method: split.method,
        seed: split.method === "random" ? config.seed : null,
        train: split.train.length,
        validation: split.validation.length,
        test: split.test.length,
      },
      ...(meta.failed.length > 0
        ? [{ kind: "drop_missing" as const, rows_dropped: meta.failed.length }]
        : []),
      { kind: "encode_labels", column: "label", labels },
      { kind: "image", ...image, ...(inherited ? { source: "base_model" as const } : {}) },
    ],
    rows: { train: split.train.length, validation: split.validation.length, test: split.test.length },
  };
  const info = {
    format: PREPARED_DATASET_FORMAT,
    version: 1,
    task: p.task,
    x: { dtype: "uint8", shape: p.input_shape },
    y: { dtype: "int32", shape: [] },
    labels,
    features: p.input_features,
    image,
    splits: entriesJson,
  };
  fs.writeFileSync(path.join(dir, "dataset.json"), `${JSON.stringify(info, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, "preprocessing.json"), `${JSON.stringify(p, null, 2)}\n`);
  return p;
}
