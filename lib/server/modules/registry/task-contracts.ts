/**
 * Built-in task contracts (decisions "Hub and registry"): versioned input/output schemas a model
 * version may declare. Each contract is a zod schema of one instance and of one output (published as
 * JSON Schema by GET /task-contracts/{key}/versions/{version}) plus structural rules on the model's
 * manifest. `checkManifest` is what finalize runs: the manifest's inputs/outputs conform when its
 * example instance and example output validate against the contract and the rules hold.
 *
 * Pure module: no database, no HTTP.
 */
import { z } from "zod";
import type { FieldError } from "../../errors";
import { imageSpecOf } from "../serving/image-instances";
import { exampleInstance } from "../serving/instance-schema";
import type { ModelManifest } from "../training/artifact-reader";

export interface TaskContract {
  key: string;
  version: number;
  description: string;
  input: z.ZodType<unknown>;
  output: z.ZodType<unknown>;
  /** Structural rules on the manifest beyond the example's shape (empty = conforms). */
  rules(manifest: ModelManifest): FieldError[];
}

export interface TaskContractView {
  key: string;
  version: number;
  description: string;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
}

const cell = z.union([z.number(), z.string(), z.boolean(), z.null()]);
const tabularInstance = z.record(z.string().min(1), cell).meta({
  minProperties: 1,
  description:
    "One row: an object keyed by feature column name (numbers; categories as strings; null = missing).",
});
const imageInstance = z
  .union([
    z
      .record(z.string().min(1), z.string().min(1))
      .meta({ minProperties: 1, maxProperties: 1, contentEncoding: "base64" }),
    z.record(z.string().min(1), z.number().nullable()).meta({ minProperties: 1 }),
    z.array(z.number()).min(1),
  ])
  .meta({
    description:
      "One image: a picture (`{<field>: base64 PNG, JPEG or WebP, or a data: URL}`), or its pixel values keyed by column name, or as a flat array of numbers.",
  });
const textInstance = z.record(z.string().min(1), z.string()).meta({
  minProperties: 1,
  maxProperties: 1,
  description: 'One text field: `{<field>: "the text so far"}`.',
});

const labelOutput = z
  .object({
    label: z.string(),
    probabilities: z.record(z.string(), z.number().min(0).max(1)),
  })
  .meta({ description: "The predicted class and each class's probability." });
const valueOutput = z.object({ value: z.number() }).meta({ description: "The predicted value." });
const textOutput = z
  .union([
    labelOutput.meta({ description: "The next token and each token's probability." }),
    z.object({ text: z.string() }).meta({ description: "Generated text." }),
  ])
  .meta({ description: "The next token with its probabilities, or generated text." });

const isText = (m: ModelManifest) => m.input.preprocessing.some((s) => s.kind === "char_tokens");

function rule(ok: boolean, path: string, message: string): FieldError[] {
  return ok ? [] : [{ path, message }];
}

function tabularRules(m: ModelManifest): FieldError[] {
  return [
    ...rule(!isText(m), "manifest.input.preprocessing", "A tabular model does not read text tokens."),
    ...rule(
      m.input_features.length > 0,
      "manifest.input_features",
      "A tabular model lists its input feature columns.",
    ),
    ...rule(
      m.input.shape.length === 1,
      "manifest.input.shape",
      "A tabular model reads one flat vector per row (an input shape of rank 1).",
    ),
  ];
}

function labelRules(m: ModelManifest): FieldError[] {
  return rule(
    m.output.kind === "labels" && m.output.labels.length >= 2,
    "manifest.output",
    "A classifier's output lists at least two class labels (`kind: labels`).",
  );
}

export const TASK_CONTRACTS: readonly TaskContract[] = [
  {
    key: "tabular-classification",
    version: 1,
    description:
      "Classify one table row. Input: an object keyed by feature column name. Output: `{label, probabilities}` keyed by class name.",
    input: tabularInstance,
    output: labelOutput,
    rules: (m) => [...tabularRules(m), ...labelRules(m)],
  },
  {
    key: "tabular-regression",
    version: 1,
    description:
      "Predict one number from one table row. Input: an object keyed by feature column name. Output: `{value}`.",
    input: tabularInstance,
    output: valueOutput,
    rules: (m) => [
      ...tabularRules(m),
      ...rule(
        m.output.kind === "value" &&
          (m.output.shape.length === 0 || m.output.shape.reduce((a, b) => a * b, 1) === 1),
        "manifest.output",
        "A regression model's output is one value (`kind: value`, shape [1]).",
      ),
    ],
  },
  {
    key: "image-classification",
    version: 1,
    description:
      "Classify one image. Input: a picture (base64 or a data: URL), or its pixel values (keyed by column name, or a flat array). Output: `{label, probabilities}`.",
    input: imageInstance,
    output: labelOutput,
    rules: (m) => [
      ...rule(
        m.input.shape.length >= 2,
        "manifest.input.shape",
        "An image model reads an image (an input shape of rank 2 or more, e.g. [1, 28, 28]).",
      ),
      ...rule(
        imageSpecOf(m) !== null || m.input_features.every((f) => f.type === "number"),
        "manifest.input_features",
        "An image model's inputs are numeric pixel values.",
      ),
      ...labelRules(m),
    ],
  },
  {
    key: "text-generation",
    version: 1,
    description:
      "Continue a text. Input: one text field. Output: the next token with its probabilities, or generated text.",
    input: textInstance,
    output: textOutput,
    rules: (m) => [
      ...rule(
        isText(m) || (m.input_features.length === 1 && m.input_features[0]?.type === "text"),
        "manifest.input_features",
        "A text-generation model reads one text field.",
      ),
      ...rule(
        m.output.kind === "labels" && m.output.labels.length >= 2,
        "manifest.output",
        "A text-generation model's output is a distribution over its vocabulary (`kind: labels`).",
      ),
    ],
  },
];

export function findTaskContract(key: string, version: number): TaskContract | undefined {
  return TASK_CONTRACTS.find((c) => c.key === key && c.version === version);
}

function jsonSchemaOf(schema: z.ZodType<unknown>): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
}

export function taskContractView(c: TaskContract): TaskContractView {
  return {
    key: c.key,
    version: c.version,
    description: c.description,
    input_schema: jsonSchemaOf(c.input),
    output_schema: jsonSchemaOf(c.output),
  };
}

/** An output the model could produce, from its manifest (the first label, uniform probabilities). */
export function exampleOutput(m: ModelManifest): unknown {
  if (m.output.kind === "labels") {
    const labels = m.output.labels;
    return {
      label: labels[0] ?? "",
      probabilities: Object.fromEntries(labels.map((l) => [l, 1 / Math.max(1, labels.length)])),
    };
  }
  const width = m.output.shape.reduce((a, b) => a * b, 1);
  return width === 1 || m.output.shape.length === 0
    ? { value: 0 }
    : { values: Array.from({ length: width }, () => 0) };
}

function issuesOf(error: z.ZodError, prefix: string): FieldError[] {
  return error.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].join("."),
    message: i.message,
  }));
}

/**
 * The subset of manifest.json a contract check reads; anything else in the file is ignored.
 * A manifest that does not even have this shape fails with field errors of its own.
 */
export const manifestShapeSchema = z.object({
  format: z.string().optional(),
  input_features: z.array(
    z.object({ name: z.string(), type: z.enum(["number", "category", "text", "image"]) }).passthrough(),
  ),
  input: z
    .object({
      shape: z.array(z.number().int().nonnegative()),
      dtype: z.string().optional(),
      features: z.array(z.string()).default([]),
      preprocessing: z.array(z.object({ kind: z.string() }).passthrough()).default([]),
    })
    .passthrough(),
  output: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("labels"), labels: z.array(z.string()) }).passthrough(),
    z
      .object({ kind: z.literal("value"), shape: z.array(z.number().int().nonnegative()).default([1]) })
      .passthrough(),
  ]),
});

/** Field errors of a manifest against a contract; empty when it conforms. */
export function checkManifest(contract: TaskContract, raw: unknown): FieldError[] {
  const parsed = manifestShapeSchema.safeParse(raw);
  if (!parsed.success) return issuesOf(parsed.error, "manifest");
  const manifest = parsed.data as unknown as ModelManifest;
  const errors = contract.rules(manifest);
  if (errors.length > 0) return errors;
  const input = contract.input.safeParse(exampleInstance(manifest));
  const output = contract.output.safeParse(exampleOutput(manifest));
  return [
    ...(input.success ? [] : issuesOf(input.error, "manifest.input_features")),
    ...(output.success ? [] : issuesOf(output.error, "manifest.output")),
  ];
}
