import { describe, expect, it } from "vitest";
import type { DomainError } from "../../errors";
import type { ModelManifest } from "../training/artifact-reader";
import { exampleInstance, inputJsonSchema, outputJsonSchema, validateInstances } from "./instance-schema";

const tabular = {
  task: "classification",
  input_features: [
    { name: "age", type: "number" },
    { name: "city", type: "category", categories: ["Oslo", "Rome"] },
  ],
  input: {
    name: "input",
    shape: [3],
    dtype: "float32",
    features: ["age", "city=Oslo", "city=Rome"],
    preprocessing: [{ kind: "standardize", columns: ["age"], mean: [41.5], std: [10] }],
  },
  output: { name: "output", kind: "labels", labels: ["no", "yes"] },
} as unknown as ModelManifest;

const text = {
  task: "language_modeling",
  input_features: [{ name: "text", type: "text" }],
  input: {
    name: "input",
    shape: [16],
    dtype: "int64",
    features: [],
    preprocessing: [{ kind: "char_tokens", vocabulary: ["a", "b", "c"] }],
  },
  output: { name: "output", kind: "labels", labels: ["a", "b", "c"] },
} as unknown as ModelManifest;

function thrown(fn: () => void): DomainError {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error("expected a throw");
}

describe("instance schema from a manifest", () => {
  it("describes tabular instances and outputs, with a valid example", () => {
    expect(inputJsonSchema(tabular)).toMatchObject({ required: ["age", "city"] });
    expect(outputJsonSchema(tabular)).toMatchObject({ properties: { label: { enum: ["no", "yes"] } } });
    const example = exampleInstance(tabular);
    expect(example).toEqual({ age: 41.5, city: "Oslo" });
    expect(() => validateInstances(tabular, [example])).not.toThrow();
  });

  it("names the instance index and field of what does not fit", () => {
    const bad = thrown(() =>
      validateInstances(tabular, [
        { age: 1, city: "Oslo" },
        { age: "old", city: "Rome" },
      ]),
    );
    expect(bad.status).toBe(422);
    expect(bad.errors?.[0].path).toBe("inputs.1.age");
    const missing = thrown(() => validateInstances(tabular, [{ age: 3 }]));
    expect(missing.errors?.[0]).toEqual({ path: "inputs.0.city", message: "missing feature “city”." });
    expect(thrown(() => validateInstances(tabular, [7])).errors?.[0].path).toBe("inputs.0");
  });

  it("takes text (or {text}) for a language model", () => {
    expect(exampleInstance(text)).toEqual({ text: "abc" });
    expect(() => validateInstances(text, ["abc", { text: "ab" }])).not.toThrow();
    expect(thrown(() => validateInstances(text, [{ text: 3 }])).errors?.[0].path).toBe("inputs.0.text");
  });
});
