import { describe, expect, it } from "vitest";
import type { ModelManifest } from "../training/artifact-reader";
import {
  checkManifest,
  exampleOutput,
  findTaskContract,
  TASK_CONTRACTS,
  taskContractView,
} from "./task-contracts";

function manifest(over: Partial<ModelManifest>): ModelManifest {
  return {
    manifest_version: 1,
    format: "onnx",
    framework: "pytorch",
    producer: "pytorch",
    task: "classification",
    job_id: "job_1",
    project_id: "prj_1",
    architecture_version_id: null,
    dataset_id: "builtin-iris",
    dataset_version_id: "builtin-iris-v1",
    input_features: [
      { name: "a", type: "number" },
      { name: "b", type: "category", categories: ["x", "y"] },
    ],
    input: { name: "input", shape: [3], dtype: "float32", features: ["a", "b=x", "b=y"], preprocessing: [] },
    output: { name: "output", kind: "labels", labels: ["setosa", "versicolor", "virginica"] },
    metrics: {},
    files: [],
    created_at: "2026-01-01T00:00:00.000Z",
    ...over,
  };
}

const tabularClassifier = manifest({});
const regressor = manifest({
  task: "regression",
  output: { name: "output", kind: "value", target: "y", shape: [1] },
});
const image = manifest({
  input_features: Array.from({ length: 4 }, (_, i) => ({ name: `p${i}`, type: "number" as const })),
  input: {
    name: "input",
    shape: [1, 2, 2],
    dtype: "float32",
    features: ["p0", "p1", "p2", "p3"],
    preprocessing: [{ kind: "reshape", shape: [1, 2, 2] }],
  },
  output: { name: "output", kind: "labels", labels: ["0", "1"] },
});
/** A model of pictures: the image step recorded by training, instances are base64 pictures. */
const picture = manifest({
  input_features: [{ name: "image", type: "image" }],
  input: {
    name: "input",
    shape: [1, 2, 2],
    dtype: "float32",
    features: [],
    preprocessing: [
      {
        kind: "image",
        channels: 1,
        height: 2,
        width: 2,
        resize: "stretch",
        mean: [0.5],
        std: [0.25],
      },
    ],
  },
  output: { name: "output", kind: "labels", labels: ["0", "1"] },
});
const text = manifest({
  task: "language_modeling",
  input_features: [{ name: "text", type: "text" }],
  input: {
    name: "input",
    shape: [16],
    dtype: "int64",
    features: [],
    preprocessing: [{ kind: "char_tokens", vocabulary: ["a", "b", "c"], sequence_length: 16 }],
  },
  output: { name: "output", kind: "labels", labels: ["a", "b", "c"] },
});

const contract = (key: string) => {
  const c = findTaskContract(key, 1);
  if (!c) throw new Error(key);
  return c;
};

describe("task contracts", () => {
  it("has the four built-ins at version 1, with JSON Schemas", () => {
    expect(TASK_CONTRACTS.map((c) => `${c.key}@${c.version}`)).toEqual([
      "tabular-classification@1",
      "tabular-regression@1",
      "image-classification@1",
      "text-generation@1",
    ]);
    const view = taskContractView(contract("tabular-classification"));
    expect(view.input_schema).toMatchObject({ type: "object", minProperties: 1 });
    expect(view.output_schema).toMatchObject({ type: "object", required: ["label", "probabilities"] });
    expect(findTaskContract("tabular-classification", 2)).toBeUndefined();
  });

  it("accepts each kind of model under its own contract and refuses it under the others", () => {
    const cases: [string, ModelManifest][] = [
      ["tabular-classification", tabularClassifier],
      ["tabular-regression", regressor],
      ["image-classification", image],
      ["text-generation", text],
    ];
    expect(checkManifest(contract("image-classification"), picture)).toEqual([]);
    expect(checkManifest(contract("text-generation"), picture).length).toBeGreaterThan(0);
    expect(checkManifest(contract("tabular-regression"), picture).length).toBeGreaterThan(0);
    expect(checkManifest(contract("tabular-classification"), picture).length).toBeGreaterThan(0);
    for (const [key, m] of cases) {
      for (const [other] of cases) {
        const errors = checkManifest(contract(other), m);
        if (other === key) expect(errors, `${key} under ${other}`).toEqual([]);
        else expect(errors.length, `${key} under ${other}`).toBeGreaterThan(0);
      }
    }
  });

  it("names the fields of a manifest that is not one", () => {
    const errors = checkManifest(contract("tabular-classification"), {
      input: {},
      output: { kind: "maybe" },
    });
    expect(errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(["manifest.input_features", "manifest.input.shape", "manifest.output.kind"]),
    );
    expect(checkManifest(contract("tabular-classification"), null)[0].path).toBe("manifest");
  });

  it("refuses a one-class classifier and a multi-output regressor", () => {
    const oneClass = manifest({ output: { name: "output", kind: "labels", labels: ["only"] } });
    expect(checkManifest(contract("tabular-classification"), oneClass)[0].path).toBe("manifest.output");
    const wide = manifest({ output: { name: "output", kind: "value", target: null, shape: [3] } });
    expect(checkManifest(contract("tabular-regression"), wide)[0].path).toBe("manifest.output");
  });

  it("builds example outputs from the manifest", () => {
    expect(exampleOutput(tabularClassifier)).toEqual({
      label: "setosa",
      probabilities: { setosa: 1 / 3, versicolor: 1 / 3, virginica: 1 / 3 },
    });
    expect(exampleOutput(regressor)).toEqual({ value: 0 });
  });
});
