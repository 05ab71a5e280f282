import { describe, expect, it } from "vitest";
import { LAYER_TYPES } from "./graph-types";
import {
  catalogByCategory,
  defaultParams,
  getLayerDef,
  LAYER_CATEGORIES,
  layerCatalog,
  layerDefs,
  paramFields,
  resolveParams,
} from "./layer-catalog";

describe("layer catalog", () => {
  it("has an entry for every layer type, keyed by its own type", () => {
    for (const type of LAYER_TYPES) {
      const def = layerCatalog[type];
      expect(def.type).toBe(type);
      expect(def.label.length).toBeGreaterThan(0);
      expect(def.description.length).toBeGreaterThan(10);
      expect(LAYER_CATEGORIES).toContain(def.category);
      expect(def.inputs.min).toBeLessThanOrEqual(def.inputs.max);
    }
    expect(Object.keys(layerDefs).sort()).toEqual([...LAYER_TYPES].sort());
  });

  it("describes every param field and parses defaults from an empty object", () => {
    for (const type of LAYER_TYPES) {
      const shape = layerCatalog[type].paramsSchema.shape;
      for (const [name, field] of Object.entries(shape)) {
        expect(field.description, `${type}.${name}`).toBeTruthy();
      }
      expect(() => defaultParams(type)).not.toThrow();
    }
  });

  it("groups the palette by category", () => {
    const groups = catalogByCategory();
    expect(groups.map((g) => g.category)).toEqual([...LAYER_CATEGORIES]);
    expect(groups.flatMap((g) => g.layers).length).toBe(LAYER_TYPES.length);
    expect(groups.find((g) => g.category === "Pooling")?.layers.map((l) => l.type)).toContain(
      "GlobalAvgPool",
    );
  });

  it("derives form fields from the schemas", () => {
    const dense = paramFields("Dense");
    expect(dense.find((f) => f.name === "units")).toMatchObject({
      kind: "int",
      min: 1,
      default: 64,
      optional: false,
    });
    expect(dense.find((f) => f.name === "bias")).toMatchObject({ kind: "boolean", default: true });
    expect(dense.find((f) => f.name === "activation")).toMatchObject({ kind: "enum", default: "none" });
    for (const type of LAYER_TYPES) {
      expect(paramFields(type).map((f) => f.name)).toEqual(
        Object.keys(layerCatalog[type].paramsSchema.shape),
      );
    }
    const stride = paramFields("MaxPool2D").find((f) => f.name === "stride");
    expect(stride).toMatchObject({ kind: "int", optional: true });
    expect(paramFields("Input").find((f) => f.name === "shape")).toMatchObject({
      kind: "int_array",
      default: [1, 28, 28],
      maxItems: 4,
    });
    expect(paramFields("Dropout").find((f) => f.name === "p")).toMatchObject({
      kind: "number",
      min: 0,
      exclusiveMax: 1,
    });
  });

  it("resolves params with defaults and reports field errors and unknown keys", () => {
    expect(resolveParams("Dense", { units: 10 })).toEqual({
      ok: true,
      params: { units: 10, bias: true, activation: "none" },
      unknownKeys: [],
    });
    const bad = resolveParams("Conv2D", { out_channels: 0, kernel_size: 2.5, foo: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.errors.map((e) => e.param).sort()).toEqual(["kernel_size", "out_channels"]);
      expect(bad.unknownKeys).toEqual(["foo"]);
    }
    const pool = resolveParams("MaxPool2D", { kernel_size: 2, padding: 2 });
    expect(pool.ok).toBe(false);
    if (!pool.ok) expect(pool.errors[0].param).toBe("padding");
    expect(getLayerDef("Nope")).toBeUndefined();
  });
});

/** Runs one layer's inferShape + paramCount with resolved params. */
function run(type: (typeof LAYER_TYPES)[number], inputs: number[][], params: Record<string, unknown> = {}) {
  const def = layerCatalog[type];
  const p = def.paramsSchema.parse(params);
  const res = def.inferShape(inputs, p);
  if ("error" in res) return { error: res.error, port: res.port };
  return { shape: res.shape, params: def.paramCount(inputs, p), flops: def.flops(inputs, p, res.shape) };
}

describe("layer shapes and parameter counts (PyTorch formulas)", () => {
  it("Dense applies to the last dimension like nn.Linear", () => {
    expect(run("Dense", [[784]], { units: 256 })).toMatchObject({
      shape: [256],
      params: 200_960,
      flops: 2 * 784 * 256 + 256,
    });
    expect(run("Dense", [[10, 32]], { units: 8, bias: false })).toMatchObject({
      shape: [10, 8],
      params: 256,
      flops: 10 * 2 * 32 * 8,
    });
  });

  it("Conv2D follows floor((H + 2p - d(k-1) - 1)/s + 1)", () => {
    expect(run("Conv2D", [[3, 32, 32]], { out_channels: 16, kernel_size: 3, padding: 1 })).toMatchObject({
      shape: [16, 32, 32],
      params: 16 * 3 * 9 + 16,
    });
    expect(
      run("Conv2D", [[3, 224, 224]], {
        out_channels: 64,
        kernel_size: 7,
        stride: 2,
        padding: 3,
        bias: false,
      }),
    ).toMatchObject({ shape: [64, 112, 112], params: 9408 });
    expect(run("Conv2D", [[1, 28, 28]], { out_channels: 4, kernel_size: 3, dilation: 2 })).toMatchObject({
      shape: [4, 24, 24],
    });
    expect(run("Conv2D", [[1, 4, 4]], { kernel_size: 5 })).toMatchObject({ port: 0 });
    expect(run("Conv2D", [[28, 28]], {})).toMatchObject({ port: 0 });
  });

  it("Conv1D works on [C, L]", () => {
    expect(run("Conv1D", [[8, 100]], { out_channels: 16, kernel_size: 5, stride: 2 })).toMatchObject({
      shape: [16, 48],
      params: 16 * 8 * 5 + 16,
    });
  });

  it("pools default stride to kernel_size", () => {
    expect(run("MaxPool2D", [[6, 28, 28]], { kernel_size: 2 })).toMatchObject({
      shape: [6, 14, 14],
      params: 0,
    });
    expect(run("MaxPool2D", [[6, 7, 7]], { kernel_size: 2 })).toMatchObject({ shape: [6, 3, 3] });
    expect(run("AvgPool2D", [[6, 7, 7]], { kernel_size: 3, stride: 1, padding: 1 })).toMatchObject({
      shape: [6, 7, 7],
    });
    expect(run("MaxPool1D", [[4, 9]], { kernel_size: 3 })).toMatchObject({ shape: [4, 3] });
    expect(run("AvgPool1D", [[4, 9]], { kernel_size: 2, stride: 1 })).toMatchObject({ shape: [4, 8] });
    expect(run("MaxPool1D", [[4, 9, 9]], {})).toMatchObject({ port: 0 });
  });

  it("GlobalAvgPool reduces spatial dims, or time for channels_last", () => {
    expect(run("GlobalAvgPool", [[64, 7, 7]])).toMatchObject({ shape: [64] });
    expect(run("GlobalAvgPool", [[32, 100]])).toMatchObject({ shape: [32] });
    expect(run("GlobalAvgPool", [[20, 128]], { data_format: "channels_last" })).toMatchObject({
      shape: [128],
    });
    expect(run("GlobalAvgPool", [[10]])).toMatchObject({ port: 0 });
  });

  it("Flatten, Reshape, Dropout, Activation", () => {
    expect(run("Flatten", [[16, 5, 5]])).toMatchObject({ shape: [400] });
    expect(run("Reshape", [[784]], { shape: [1, 28, 28] })).toMatchObject({ shape: [1, 28, 28] });
    expect(run("Reshape", [[784]], { shape: [4, -1] })).toMatchObject({ shape: [4, 196] });
    expect(run("Reshape", [[784]], { shape: [5, -1] })).toMatchObject({ port: 0 });
    expect(run("Reshape", [[784]], { shape: [10, 10] })).toMatchObject({ port: 0 });
    expect(run("Dropout", [[3, 4]], { p: 0.2 })).toMatchObject({ shape: [3, 4], params: 0 });
    expect(run("Activation", [[3, 4]], { activation: "softmax" })).toMatchObject({
      shape: [3, 4],
      flops: 36,
    });
  });

  it("BatchNorm has 2*C params on channel dim 0; LayerNorm 2*F on the last dim", () => {
    expect(run("BatchNorm", [[64, 8, 8]])).toMatchObject({ shape: [64, 8, 8], params: 128 });
    expect(run("BatchNorm", [[32, 100]])).toMatchObject({ params: 64 });
    expect(run("BatchNorm", [[256]])).toMatchObject({ params: 512 });
    expect(run("LayerNorm", [[20, 128]])).toMatchObject({ shape: [20, 128], params: 256 });
  });

  it("Embedding maps [T] int64 ids to [T, D]", () => {
    expect(run("Embedding", [[20]], { num_embeddings: 1000, embedding_dim: 64 })).toMatchObject({
      shape: [20, 64],
      params: 64_000,
      flops: 0,
    });
  });

  it("LSTM and GRU count both biases per layer and direction", () => {
    expect(run("LSTM", [[20, 64]], { hidden_size: 128 })).toMatchObject({ shape: [128], params: 99_328 });
    expect(run("LSTM", [[20, 64]], { hidden_size: 128, return_sequences: true })).toMatchObject({
      shape: [20, 128],
    });
    // layer 0: 2 * 4(128*64 + 128*128 + 256) = 198,656; layer 1 (in 256): 2 * 4(128*256 + 128*128 + 256) = 395,264
    expect(run("LSTM", [[20, 64]], { hidden_size: 128, num_layers: 2, bidirectional: true })).toMatchObject({
      shape: [256],
      params: 593_920,
    });
    // layer 0: 2 * 3(64*32 + 64*64 + 128) = 37,632; layer 1 (in 128): 2 * 3(64*128 + 64*64 + 128) = 74,496
    expect(
      run("GRU", [[15, 32]], { hidden_size: 64, num_layers: 2, bidirectional: true, return_sequences: true }),
    ).toMatchObject({ shape: [15, 128], params: 112_128 });
    expect(run("GRU", [[32]], { hidden_size: 8 })).toMatchObject({ port: 0 });
  });

  it("MultiHeadAttention: 4E^2 + 4E for self-attention, kdim/vdim otherwise", () => {
    expect(run("MultiHeadAttention", [[10, 64]], { num_heads: 8 })).toMatchObject({
      shape: [10, 64],
      params: 16_640,
    });
    // q [10,64], key = value [7,32]: E^2 (q) + E*32 (k) + E*32 (v) + 3E + E^2 + E
    expect(
      run(
        "MultiHeadAttention",
        [
          [10, 64],
          [7, 32],
        ],
        { num_heads: 8 },
      ),
    ).toMatchObject({ shape: [10, 64], params: 12_544 });
    expect(
      run(
        "MultiHeadAttention",
        [
          [10, 64],
          [7, 32],
          [7, 48],
        ],
        { num_heads: 8 },
      ),
    ).toMatchObject({ shape: [10, 64], params: 13_568 });
    expect(run("MultiHeadAttention", [[10, 64]], { num_heads: 6 })).toMatchObject({
      port: 0,
      error: expect.stringContaining("divisible"),
    });
    expect(
      run(
        "MultiHeadAttention",
        [
          [10, 64],
          [7, 32],
          [8, 32],
        ],
        {},
      ),
    ).toMatchObject({ port: 2 });
  });

  it("Add requires equal shapes and blames the offending port", () => {
    expect(
      run("Add", [
        [4, 8],
        [4, 8],
        [4, 8],
      ]),
    ).toMatchObject({ shape: [4, 8], flops: 64 });
    expect(
      run("Add", [
        [4, 8],
        [4, 8],
        [4, 9],
      ]),
    ).toMatchObject({ port: 2 });
  });

  it("Concatenate joins along a batch-less axis", () => {
    expect(
      run(
        "Concatenate",
        [
          [16, 8, 8],
          [32, 8, 8],
        ],
        { axis: 0 },
      ),
    ).toMatchObject({ shape: [48, 8, 8] });
    expect(
      run("Concatenate", [
        [10, 3],
        [10, 5],
      ]),
    ).toMatchObject({ shape: [10, 8] });
    expect(
      run(
        "Concatenate",
        [
          [16, 8, 8],
          [32, 8, 7],
        ],
        { axis: 0 },
      ),
    ).toMatchObject({ port: 1 });
    expect(run("Concatenate", [[16], [16, 2]])).toMatchObject({ port: 1 });
    expect(run("Concatenate", [[16], [16]], { axis: 2 })).toMatchObject({ port: 0 });
  });

  it("Output validates the head shape against the loss", () => {
    expect(run("Output", [[10]], { loss: "cross_entropy", num_classes: 10 })).toMatchObject({
      shape: [10],
      params: 0,
    });
    expect(run("Output", [[10, 5]], { loss: "cross_entropy" })).toMatchObject({
      port: 0,
      error: expect.stringContaining("1-D"),
    });
    expect(run("Output", [[10]], { loss: "cross_entropy", num_classes: 5 })).toMatchObject({ port: 0 });
    expect(run("Output", [[1]], { loss: "binary_cross_entropy" })).toMatchObject({ shape: [1] });
    expect(run("Output", [[1, 8, 8]], { loss: "binary_cross_entropy" })).toMatchObject({ shape: [1, 8, 8] });
    expect(run("Output", [[3, 4]], { loss: "binary_cross_entropy", num_classes: 3 })).toMatchObject({
      port: 0,
    });
    expect(run("Output", [[3, 4]], { loss: "mse" })).toMatchObject({ shape: [3, 4] });
  });
});
