/**
 * Required fields of a tabular instance, by the manifest (issue 25): missing or blank fields are one
 * 422 naming each; null is filled in only for a number column the manifest imputes; categories and
 * numbers without an imputation are required; text and image models are left to their own checks.
 */
import { describe, expect, it } from "vitest";
import type { DomainError } from "@/lib/server/errors";
import { checkRequiredFields, requiredFieldsSchema } from "@/lib/server/modules/deployments/inference-fields";
import { inputJsonSchema } from "@/lib/server/modules/serving/instance-schema";
import type { ModelManifest } from "@/lib/server/modules/training/artifact-reader";

const tabular = {
  task: "classification",
  input_features: [
    { name: "age", type: "number" },
    { name: "income", type: "number" },
    { name: "city", type: "category", categories: ["Oslo", "Rome"] },
  ],
  input: {
    name: "input",
    shape: [4],
    dtype: "float32",
    features: ["age", "income", "city=Oslo", "city=Rome"],
    // Only age records a value to fill in (an older manifest may impute no column at all).
    preprocessing: [
      { kind: "impute", columns: ["age"], values: [41.5] },
      { kind: "standardize", columns: ["age", "income"], mean: [41.5, 30000], std: [10, 9000] },
      { kind: "one_hot", column: "city", categories: ["Oslo", "Rome"] },
    ],
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
    preprocessing: [{ kind: "char_tokens", vocabulary: ["a", "b"] }],
  },
  output: { name: "output", kind: "labels", labels: ["a", "b"] },
} as unknown as ModelManifest;

function refusal(fn: () => void): DomainError {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error("expected a 422");
}

describe("checkRequiredFields", () => {
  const full = { age: 30, income: 25000, city: "Oslo" };

  it("lets complete instances through, and null where the manifest fills it in", () => {
    expect(() => checkRequiredFields(tabular, [full, { ...full, age: null }])).not.toThrow();
  });

  it("names every missing or blank field of every instance in one 422", () => {
    const e = refusal(() =>
      checkRequiredFields(tabular, [
        full,
        { age: 30 },
        { ...full, income: null, city: "" },
        { ...full, age: " " },
      ]),
    );
    expect(e.status).toBe(422);
    expect(e.errors?.map((x) => x.path)).toEqual([
      "inputs.1.income",
      "inputs.1.city",
      "inputs.2.income",
      "inputs.2.city",
      "inputs.3.age",
    ]);
    expect(e.message).toBe(
      "Instance 1: missing or blank “income”, “city”; instance 2: missing or blank “income”, “city”; instance 3: missing or blank “age”.",
    );
    expect(e.errors?.[0].message).toBe(
      "missing feature “income”: this model records no value to fill it in with.",
    );
    expect(e.errors?.[4].message).toBe(
      "“age” is blank: send a number, or null to fill it in with the training value (41.5).",
    );
  });

  it("refuses a left-out field even where null would be filled in (a misspelt name is not answered)", () => {
    const { age: _, ...noAge } = full;
    const e = refusal(() => checkRequiredFields(tabular, [{ ...noAge, agee: 30 }]));
    expect(e.errors).toEqual([
      {
        path: "inputs.0.age",
        message:
          "missing feature “age”: send a number, or null to fill it in with the training value (41.5).",
      },
    ]);
  });

  it("caps the errors listed for a large batch but counts every instance in the detail", () => {
    const e = refusal(() =>
      checkRequiredFields(
        tabular,
        Array.from({ length: 500 }, () => ({})),
      ),
    );
    expect(e.errors).toHaveLength(100);
    expect(e.message).toMatch(/; and 495 more instances\.$/);
  });

  it("leaves text models and non-object instances to the instance schema", () => {
    expect(() => checkRequiredFields(text, [{}])).not.toThrow();
    expect(() => checkRequiredFields(tabular, [7, null])).not.toThrow();
  });
});

describe("requiredFieldsSchema", () => {
  it("allows null only where it is filled in, and says with what", () => {
    const s = requiredFieldsSchema(tabular, inputJsonSchema(tabular)) as {
      properties: Record<string, { type: unknown; enum?: unknown[]; description?: string }>;
      required: string[];
    };
    expect(s.required).toEqual(["age", "income", "city"]);
    expect(s.properties.age.type).toEqual(["number", "null"]);
    expect(s.properties.age.description).toBe(
      "Required; null when unknown, filled in with the training value 41.5.",
    );
    expect(s.properties.income.type).toBe("number");
    expect(s.properties.city.type).toBe("string");
    expect(s.properties.city.enum).toEqual(["Oslo", "Rome"]);
  });
});
