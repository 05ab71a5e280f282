import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { FLOAT, floatInitializer, node, onnxModel, valueInfo } from "@/tests/security/onnx-bytes";
import { ValidationError } from "../../errors";
import { decodeImage, normalizeImage } from "../datasets/image-decode";
import { loadArtifact, type ModelManifest } from "../training/artifact-reader";
import { encodeImageInstances, imageSpecOf, MAX_IMAGE_INSTANCE_BYTES } from "./image-instances";
import { exampleInstance, inputJsonSchema, validateInstances } from "./instance-schema";
import { MicroBatcher } from "./micro-batcher";

const STEP = {
  kind: "image" as const,
  channels: 1 as const,
  height: 4,
  width: 4,
  resize: "stretch" as const,
  mean: [0.5],
  std: [0.25],
};

function manifest(): ModelManifest {
  return {
    manifest_version: 1,
    format: "onnx",
    framework: "pytorch",
    producer: "pytorch",
    task: "classification",
    job_id: "job_x",
    project_id: "prj_x",
    architecture_version_id: null,
    dataset_id: "ds_x",
    dataset_version_id: "dsv_x",
    input_features: [],
    input: {
      name: "input",
      shape: [1, 4, 4],
      dtype: "float32",
      features: [],
      // The image step training records for image models.
      preprocessing: [STEP],
    },
    output: { name: "output", kind: "labels", labels: ["top", "bottom"] },
    metrics: {},
    files: [],
    created_at: new Date(0).toISOString(),
  };
}

/** 4×4 grayscale: the top two rows white (or the bottom two), as a PNG of `side`×`side`. */
async function halfWhite(which: "top" | "bottom", side = 4, format: "png" | "jpeg" | "webp" = "png") {
  const raw = Buffer.alloc(16, 0);
  raw.fill(255, which === "top" ? 0 : 8, which === "top" ? 8 : 16);
  return sharp(raw, { raw: { width: 4, height: 4, channels: 1 } })
    .toColourspace("b-w")
    .resize(side, side, { kernel: "nearest" })
    .toFormat(format, format === "webp" ? { lossless: true } : {})
    .toBuffer();
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("image instances", () => {
  it("finds the image step and publishes a base64 picture schema with a valid example", async () => {
    const m = manifest();
    const spec = imageSpecOf(m);
    expect(spec).toMatchObject({ channels: 1, height: 4, width: 4, field: "image" });
    const schema = inputJsonSchema(m) as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(schema.required).toEqual(["image"]);
    expect(schema.properties.image).toMatchObject({
      type: "string",
      contentEncoding: "base64",
      contentMediaType: "image/png",
    });
    const example = exampleInstance(m) as { image: string };
    validateInstances(m, [example]);
    const pixels = await decodeImage(Buffer.from(example.image, "base64"), {
      ...STEP,
      channels: 1,
      resize: "stretch",
    });
    expect([...pixels]).toEqual(Array(16).fill(0));
  });

  it("decodes base64 and data: URLs to exactly the training tensor", async () => {
    const spec = imageSpecOf(manifest());
    if (!spec) throw new Error("no spec");
    const png = await halfWhite("top", 12);
    const batch = await encodeImageInstances(spec, [
      { image: png.toString("base64") },
      `data:image/png;base64,${png.toString("base64")}`,
    ]);
    const expected = normalizeImage(await decodeImage(png, spec), spec.mean, spec.std);
    expect(batch.count).toBe(2);
    expect([...batch.values.subarray(0, 16)]).toEqual([...expected]);
    expect([...batch.values.subarray(16, 32)]).toEqual([...expected]);
  });

  it("refuses bad pictures with a 422 naming the instance, and oversized ones naming the limit", async () => {
    const m = manifest();
    const spec = imageSpecOf(m);
    if (!spec) throw new Error("no spec");
    const cases: [unknown, RegExp][] = [
      [
        { image: Buffer.from("hello, not a picture").toString("base64") },
        /Instance 1: image: .*not a readable image/,
      ],
      [{ image: "%%%" }, /Instance 1: image: not valid base64/],
      [{ picture: "abc" }, /Instance 1: image: missing/],
      [{ image: 42 }, /Instance 1: image: .*base64 string/],
      [{ image: "data:image/png,rawbytes" }, /base64-encoded/],
      [{ image: "A".repeat(Math.ceil((MAX_IMAGE_INSTANCE_BYTES * 4) / 3) + 100) }, /larger than 4 MB/],
    ];
    const good = { image: (await halfWhite("top")).toString("base64") };
    for (const [bad, message] of cases) {
      const err = await encodeImageInstances(spec, [good, bad]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).status).toBe(422);
      expect((err as ValidationError).message).toMatch(message);
      expect((err as ValidationError).errors?.[0].path).toBe("inputs.1.image");
    }
  });

  it("serves a real ONNX image model through the micro-batcher", async () => {
    // logits = [sum of the top half, sum of the bottom half] of the normalised image.
    const weights: number[] = [];
    for (let i = 0; i < 16; i++) weights.push(i < 8 ? 1 : 0, i < 8 ? 0 : 1);
    const bytes = onnxModel([
      node("Flatten", ["input"], ["flat"]),
      node("MatMul", ["flat", "w"], ["output"]),
      floatInitializer("w", [16, 2], weights),
      valueInfo(11, "input", FLOAT, ["batch", 1, 4, 4]),
      valueInfo(12, "output", FLOAT, ["batch", 2]),
    ]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "image-serve-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "model.onnx"), bytes);
    const m = manifest();
    const model = await loadArtifact({ manifest: m, files: { "model.onnx": path.join(dir, "model.onnx") } });
    try {
      const batcher = new MicroBatcher(model);
      const out = await batcher.predict([
        { image: (await halfWhite("top", 20, "jpeg")).toString("base64") },
        { image: (await halfWhite("bottom", 8, "webp")).toString("base64") },
        `data:image/png;base64,${(await halfWhite("bottom")).toString("base64")}`,
      ]);
      expect(out.map((p) => ("label" in p ? p.label : null))).toEqual(["top", "bottom", "bottom"]);
      const first = out[0] as { probabilities: Record<string, number> };
      expect(first.probabilities.top).toBeGreaterThan(0.99);
      await expect(batcher.predict([{ image: "bm90IGFuIGltYWdl" }])).rejects.toBeInstanceOf(ValidationError);
    } finally {
      await model.dispose();
    }
  });
});
