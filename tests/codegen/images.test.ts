/**
 * The image path of the generated training programs, run for real: a prepared dataset of uint8
 * pixels (dataset.json with its `image` statistics, as the server writes it) is read, scaled and
 * normalised per channel exactly as documented, each augmentation does what it says on training
 * batches (checked image by image), and a small CNN learns the images with every augmentation on,
 * in PyTorch and in TensorFlow.js.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateProject } from "@/lib/ml/codegen";
import { GraphBuilder } from "@/lib/ml/graph-builder";
import type { AugmentationInput } from "@/lib/ml/graph-types";
import { jsonLines, run, tempRoot, writeProject } from "./codegen-fixtures";

const PYTHON = "/usr/bin/python3";
const root = tempRoot("layerline-codegen-images-", true);

/** mulberry32 */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A prepared dataset of "bars": class k has a bright horizontal bar in the k-th quarter of the
 * image (any colour for RGB), over dark noise. Mean and std measured on the training pixels / 255.
 */
function writeBars(dir: string, channels: number, size: number, train: number, validation: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const next = random(channels * 1000 + size);
  const pixels = channels * size * size;
  const sums = new Float64Array(channels);
  const squares = new Float64Array(channels);
  const splits: Record<string, { rows: number; x: string; y: string }> = {};
  for (const [name, rows] of [
    ["train", train],
    ["validation", validation],
  ] as const) {
    const x = new Uint8Array(rows * pixels);
    const y = new Int32Array(rows);
    const band = size / 4;
    for (let i = 0; i < rows; i++) {
      const label = Math.floor(next() * 4);
      y[i] = label;
      const colour = Array.from({ length: channels }, () => 150 + Math.floor(next() * 106));
      for (let c = 0; c < channels; c++) {
        for (let r = 0; r < size; r++) {
          const bar = r > label * band && r < (label + 1) * band - 1;
          for (let col = 0; col < size; col++) {
            const value = bar ? colour[c] : Math.floor(next() * 60);
            x[i * pixels + c * size * size + r * size + col] = value;
            if (name === "train") {
              sums[c] += value / 255;
              squares[c] += (value / 255) ** 2;
            }
          }
        }
      }
    }
    const short = name === "train" ? "train" : "val";
    fs.writeFileSync(path.join(dir, `x_${short}.bin`), x);
    fs.writeFileSync(path.join(dir, `y_${short}.bin`), Buffer.from(y.buffer));
    splits[name] = { rows, x: `x_${short}.bin`, y: `y_${short}.bin` };
  }
  const count = train * size * size;
  const mean = Array.from(sums, (s) => s / count);
  const std = Array.from(squares, (s, c) => Math.sqrt(s / count - mean[c] ** 2));
  const info = {
    format: "layerline-prepared-dataset",
    version: 1,
    task: "classification",
    x: { dtype: "uint8", shape: [channels, size, size] },
    y: { dtype: "int32", shape: [] },
    labels: ["top", "upper", "lower", "bottom"],
    image: { channels, height: size, width: size, resize: "stretch", mean, std },
    splits,
  };
  fs.writeFileSync(path.join(dir, "dataset.json"), JSON.stringify(info));
  return dir;
}

function smallCnn(channels: number, size: number) {
  const b = new GraphBuilder();
  b.add("Input", { shape: [channels, size, size] }, { id: "image" });
  b.add(
    "Conv2D",
    { out_channels: 8, kernel_size: 3, padding: 1, activation: "relu" },
    { id: "conv", inputs: ["image"] },
  );
  b.add("MaxPool2D", { kernel_size: 2 }, { id: "pool", inputs: ["conv"] });
  b.add("Flatten", {}, { id: "flatten", inputs: ["pool"] });
  b.add("Dense", { units: 4 }, { id: "logits", inputs: ["flatten"] });
  b.add("Output", { loss: "cross_entropy", num_classes: 4 }, { id: "output", inputs: ["logits"] });
  return b.build();
}

function project(
  target: "pytorch" | "tfjs",
  id: string,
  channels: number,
  size: number,
  augmentation?: AugmentationInput,
) {
  const training = { epochs: 4, batch_size: 16, learning_rate: 0.003, seed: 3, augmentation };
  return writeProject(
    root,
    `${target}-${id}`,
    generateProject(target, smallCnn(channels, size), training, { projectName: id }),
  );
}

const gray = writeBars(path.join(root, "gray-16"), 1, 16, 320, 80);
const rgb = writeBars(path.join(root, "rgb-12"), 3, 12, 200, 60);

function lastEpoch(stdout: string): Record<string, number> {
  const epochs = jsonLines(stdout).filter((line) => line.event === "epoch");
  return epochs[epochs.length - 1] as Record<string, number>;
}

describe("generated PyTorch programs on prepared images", () => {
  it("normalise uint8 pixels as documented and augment as configured, image by image", async () => {
    const cases: [string, number, AugmentationInput | undefined, string[]][] = [
      ["plain", 1, undefined, ["normalisation"]],
      ["flip", 1, { horizontal_flip: true }, ["normalisation", "seeded", "flip"]],
      ["crop", 1, { crop_padding: 3 }, ["normalisation", "seeded", "crop"]],
      [
        "all",
        3,
        { horizontal_flip: true, crop_padding: 2, rotation_degrees: 20, translate: 0.2, color_jitter: 0.5 },
        ["normalisation", "seeded", "jitter range"],
      ],
    ];
    for (const [id, channels, augmentation, checked] of cases) {
      const size = channels === 1 ? 16 : 12;
      const dir = project("pytorch", id, channels, size, augmentation);
      const { stdout } = await run(
        PYTHON,
        [path.resolve("tests/codegen/verify_images.py"), dir, channels === 1 ? gray : rgb],
        { timeout: 120_000 },
      );
      const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}");
      expect(result.errors, id).toEqual([]);
      expect(result.checked, id).toEqual(checked);
    }
  }, 240_000);

  it("learn the images with every augmentation on (validation accuracy ≥ 0.9)", async () => {
    const dir = project("pytorch", "learn", 1, 16, {
      horizontal_flip: true,
      crop_padding: 1,
      rotation_degrees: 10,
      translate: 0.05,
    });
    const { stdout } = await run(PYTHON, ["train.py", "--data-dir", gray, "--epochs", "6"], {
      cwd: dir,
      timeout: 120_000,
    });
    const last = lastEpoch(stdout);
    expect(last.val_accuracy).toBeGreaterThanOrEqual(0.9);
  }, 120_000);
});

describe("generated TensorFlow.js programs on prepared images", () => {
  it("normalise uint8 pixels as documented and augment as configured, image by image", async () => {
    const cases: [string, number, AugmentationInput | undefined, string, string[]][] = [
      ["plain", 1, undefined, "", ["normalisation"]],
      ["flip", 1, { horizontal_flip: true }, "flip", ["normalisation", "seeded", "flip"]],
      ["crop", 1, { crop_padding: 3 }, "crop", ["normalisation", "seeded", "crop"]],
      [
        "all",
        3,
        { horizontal_flip: true, crop_padding: 2, rotation_degrees: 20, translate: 0.2, color_jitter: 0.5 },
        "flip,crop,rotation,translate,jitter",
        ["normalisation", "seeded", "jitter range"],
      ],
    ];
    for (const [id, channels, augmentation, flags, checked] of cases) {
      const size = channels === 1 ? 16 : 12;
      const dir = project("tfjs", id, channels, size, augmentation);
      const { stdout } = await run(
        process.execPath,
        [path.resolve("tests/codegen/verify_images.mjs"), dir, channels === 1 ? gray : rgb, flags],
        {
          timeout: 120_000,
          env: { ...process.env, CROP_PADDING: "3" },
        },
      );
      const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}");
      expect(result.errors, id).toEqual([]);
      expect(result.checked, id).toEqual(checked);
    }
  }, 240_000);

  it("learn the images with every augmentation on (validation accuracy ≥ 0.9)", async () => {
    const dir = project("tfjs", "learn", 3, 12, {
      horizontal_flip: true,
      crop_padding: 1,
      rotation_degrees: 10,
      translate: 0.05,
      color_jitter: 0.2,
    });
    const { stdout } = await run(process.execPath, ["train.mjs", "--data-dir", rgb, "--epochs", "5"], {
      cwd: dir,
      timeout: 180_000,
    });
    const last = lastEpoch(stdout);
    expect(last.val_accuracy).toBeGreaterThanOrEqual(0.9);
  }, 180_000);
});
