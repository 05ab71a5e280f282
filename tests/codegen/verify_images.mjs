/**
 * Checks the image parts of a generated train.mjs on a prepared uint8 dataset.
 *
 *   node verify_images.mjs PROJECT_DIR DATA_DIR FLAGS
 *
 * FLAGS: the augmentations the program has, comma separated (flip, crop, jitter, …; "" for none).
 * Prints one JSON object {errors, checked}: uint8 pixels reach the model as (x / 255 − mean[c]) /
 * std[c]; the same seed gives the same batch; a flip gives each image or its mirror (both seen); a
 * padded crop gives each image as a window of itself padded with zeros; colour jitter stays in [0, 1].
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as tf from "@tensorflow/tfjs";

const [project, data, flags = ""] = process.argv.slice(2);
const on = new Set(flags.split(",").filter(Boolean));
const train = await import(pathToFileURL(path.join(project, "train.mjs")).href);
await tf.ready();

const errors = [];
const checked = [];
const info = JSON.parse(fs.readFileSync(path.join(data, "dataset.json"), "utf8"));
const shape = info.x.shape;
const size = shape.reduce((a, b) => a * b, 1);
const rows = info.splits.train.rows;
const pixels = new Uint8Array(fs.readFileSync(path.join(data, "x_train.bin")));
const n = 32;
const channels = [shape[0], 1, 1];
const split = {
  pixels,
  count: rows,
  mean: tf.tensor(info.image.mean, [1, ...channels]),
  std: tf.tensor(info.image.std, [1, ...channels]),
};
const batch = Array.from({ length: n }, (_, i) => i);

// Normalisation.
const got = train.modelInput(split, batch, tf.tensor1d(batch, "int32")).dataSync();
let worst = 0;
for (let i = 0; i < n * size; i++) {
  const c = Math.floor((i % size) / (shape[1] * shape[2]));
  const want = (pixels[i] / 255 - info.image.mean[c]) / info.image.std[c];
  worst = Math.max(worst, Math.abs(got[i] - want));
}
if (worst > 1e-5) errors.push(`normalisation: max error ${worst}`);
checked.push("normalisation");

/** mulberry32, as train.mjs seeds it. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (on.size > 0) {
  const scaled = tf.tensor(Float32Array.from(pixels.subarray(0, n * size)), [n, ...shape]).div(255);
  const first = train.augment(scaled, random(7));
  const second = train.augment(scaled, random(7));
  if (tf.abs(first.sub(second)).max().dataSync()[0] !== 0)
    errors.push("the same seed gave different batches");
  if (JSON.stringify(first.shape) !== JSON.stringify(scaled.shape))
    errors.push(`shape changed: ${first.shape}`);
  checked.push("seeded");
  const images = tf.unstack(first);
  const sources = tf.unstack(scaled);
  const equal = (a, b) => tf.abs(a.sub(b)).max().dataSync()[0] < 1e-6;
  if (on.size === 1 && on.has("flip")) {
    let kept = 0;
    let mirrored = 0;
    images.forEach((image, i) => {
      const same = equal(image, sources[i]);
      const mirror = equal(image, tf.reverse(sources[i], 2));
      if (!same && !mirror) errors.push(`flip: image ${i} is neither itself nor its mirror`);
      kept += same && !mirror;
      mirrored += mirror;
    });
    if (kept === 0 || mirrored === 0) errors.push("flip: expected both kept and mirrored images");
    checked.push("flip");
  }
  if (on.size === 1 && on.has("crop")) {
    const pad = Number(process.env.CROP_PADDING);
    const [height, width] = [shape[1], shape[2]];
    let moved = 0;
    images.forEach((image, i) => {
      const padded = sources[i].pad([
        [0, 0],
        [pad, pad],
        [pad, pad],
      ]);
      const windows = [];
      for (let top = 0; top <= 2 * pad; top++) {
        for (let left = 0; left <= 2 * pad; left++) {
          if (equal(image, padded.slice([0, top, left], [shape[0], height, width])))
            windows.push([top, left]);
        }
      }
      if (windows.length === 0) errors.push(`crop: image ${i} is no window of its padded self`);
      if (!windows.some(([t, l]) => t === pad && l === pad)) moved++;
    });
    if (moved === 0) errors.push("crop: no image was moved");
    checked.push("crop");
  }
  if (on.has("jitter")) {
    const [min, max] = [first.min().dataSync()[0], first.max().dataSync()[0]];
    if (min < 0 || max > 1) errors.push(`colour jitter left [0, 1]: ${min}…${max}`);
    checked.push("jitter range");
  }
  if (equal(first, scaled)) errors.push("augmentation changed nothing");
}

console.log(JSON.stringify({ errors, checked }));
