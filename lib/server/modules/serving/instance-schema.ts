/**
 * What one instance and one output of a model look like, built from its manifest: a zod schema that
 * validates raw instances (errors name the instance index and field), the JSON Schemas GET …/schema
 * publishes, and an example predict body.
 */
import { z } from "zod";
import type { FieldError } from "../../errors";
import { ValidationError } from "../../errors";
import type { ModelManifest } from "../training/artifact-reader";
import { exampleImageInstance, imageBytesOf, imageInputJsonSchema, imageSpecOf } from "./image-instances";

type JsonSchema = Record<string, unknown>;

function isText(m: ModelManifest): boolean {
  return m.input.preprocessing.some((s) => s.kind === "char_tokens");
}

function textField(m: ModelManifest): string {
  return m.input_features[0]?.name ?? "text";
}

function flatSize(m: ModelManifest): number {
  return m.input.shape.reduce((a, b) => a * b, 1);
}

/** The zod schema of one raw instance. */
export function instanceZod(m: ModelManifest): z.ZodType<unknown> {
  if (isText(m)) {
    const field = textField(m);
    // A bare string is also accepted: validateInstances wraps it as {<field>: string} first.
    return z.object({ [field]: z.string({ error: `“${field}” must be a string.` }) }).passthrough();
  }
  if (m.input_features.length === 0) return z.array(z.number()).length(flatSize(m));
  const shape: Record<string, z.ZodType<unknown>> = {};
  for (const f of m.input_features) {
    shape[f.name] =
      f.type === "number"
        ? z.union([z.number().finite(), z.null()], {
            error: `“${f.name}” must be a number (or null when unknown).`,
          })
        : z.union([z.string(), z.number(), z.boolean(), z.null()], {
            error: `“${f.name}” must be a string (or null when unknown).`,
          });
  }
  return z.object(shape).passthrough();
}

/** Each manifest's instance schema, built once (a warm model keeps its manifest object). */
const schemas = new WeakMap<ModelManifest, z.ZodType<unknown>>();

function cachedInstanceZod(m: ModelManifest): z.ZodType<unknown> {
  let schema = schemas.get(m);
  if (!schema) {
    schema = instanceZod(m);
    schemas.set(m, schema);
  }
  return schema;
}

/** Validates raw instances; a 422 names the first failing instance and each failing field. */
export function validateInstances(m: ModelManifest, instances: readonly unknown[]): void {
  const image = imageSpecOf(m);
  if (image) {
    // Shape only (a base64 string or data: URL per instance); the pictures are decoded when predicted.
    for (const [i, instance] of instances.entries()) imageBytesOf(image, instance, i);
    return;
  }
  const schema = cachedInstanceZod(m);
  const text = isText(m);
  for (let i = 0; i < instances.length; i++) {
    const raw = instances[i];
    const result = schema.safeParse(text && typeof raw === "string" ? { [textField(m)]: raw } : raw);
    if (result.success) continue;
    const errors: FieldError[] = result.error.issues.map((issue) => {
      const field = issue.path.join(".");
      const instance = instances[i];
      const missing =
        field !== "" && instance !== null && typeof instance === "object" && !(field in instance);
      return {
        path: field ? `inputs.${i}.${field}` : `inputs.${i}`,
        message: missing ? `missing feature “${field}”.` : issue.message,
      };
    });
    const first = errors[0];
    throw new ValidationError(
      `Instance ${i}: ${first.path.slice(`inputs.${i}.`.length) || "instance"}: ${first.message}`,
      errors,
    );
  }
}

/** JSON Schema of one instance. */
export function inputJsonSchema(m: ModelManifest): JsonSchema {
  const image = imageSpecOf(m);
  if (image) return imageInputJsonSchema(image);
  if (isText(m)) {
    const field = textField(m);
    return {
      type: "object",
      properties: {
        [field]: { type: "string", description: "The text so far; its last characters are used." },
      },
      required: [field],
    };
  }
  if (m.input_features.length === 0)
    return { type: "array", items: { type: "number" }, minItems: flatSize(m), maxItems: flatSize(m) };
  const properties: Record<string, JsonSchema> = {};
  for (const f of m.input_features) {
    properties[f.name] =
      f.type === "number"
        ? { type: ["number", "null"] }
        : f.categories
          ? { type: ["string", "null"], enum: [...f.categories, null] }
          : { type: ["string", "null"] };
  }
  return { type: "object", properties, required: m.input_features.map((f) => f.name) };
}

/** JSON Schema of one output. */
export function outputJsonSchema(m: ModelManifest): JsonSchema {
  if (m.output.kind === "labels") {
    const labels = m.output.labels;
    return {
      type: "object",
      properties: {
        label: { type: "string", enum: labels },
        probabilities: { type: "object", additionalProperties: { type: "number" } },
      },
      required: ["label", "probabilities"],
    };
  }
  return {
    oneOf: [
      { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
      {
        type: "object",
        properties: { values: { type: "array", items: { type: "number" } } },
        required: ["values"],
      },
    ],
  };
}

/** One valid instance: imputation means where recorded, else zeros and the first category. */
export function exampleInstance(m: ModelManifest): unknown {
  const image = imageSpecOf(m);
  if (image) return exampleImageInstance(image);
  if (isText(m)) {
    const tokens = m.input.preprocessing.find((s) => s.kind === "char_tokens");
    const vocab = tokens && "vocabulary" in tokens ? tokens.vocabulary.filter((c) => c.length === 1) : [];
    return { [textField(m)]: vocab.slice(0, 8).join("") || "a" };
  }
  if (m.input_features.length === 0) return Array.from({ length: flatSize(m) }, () => 0);
  const means = new Map<string, number>();
  for (const step of m.input.preprocessing) {
    if (step.kind === "standardize") for (const [k, c] of step.columns.entries()) means.set(c, step.mean[k]);
    if (step.kind === "impute") for (const [k, c] of step.columns.entries()) means.set(c, step.values[k]);
  }
  return Object.fromEntries(
    m.input_features.map((f) => [
      f.name,
      f.type === "number" ? Number((means.get(f.name) ?? 0).toFixed(4)) : (f.categories?.[0] ?? ""),
    ]),
  );
}
