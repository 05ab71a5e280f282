/**
 * Required fields of a tabular instance (issue 25): a model answers only what it was asked. A
 * feature the instance leaves out, or sends blank (an empty string, or null), is refused with one
 * 422 naming every such field of every instance, unless the model's manifest records how to fill
 * that column in: an `impute` step (the value training used for its missing cells, the training
 * mean). For such a column `null` means "unknown" and is filled in as training did; leaving the
 * field out is still refused (a misspelt name must not be answered silently).
 *
 * The published input schema (GET …/schema) says the same: `null` is allowed only where it is
 * filled in, with the value in the field's description.
 */
import { type FieldError, ValidationError } from "../../errors";
import { imageSpecOf } from "../serving/image-instances";
import type { ModelManifest } from "../training/artifact-reader";

/** Errors named at most in one answer (a batch of 10,000 blank instances stays a small problem). */
const MAX_ERRORS = 100;

function isTabular(m: ModelManifest): boolean {
  return (
    m.input_features.length > 0 &&
    !imageSpecOf(m) &&
    !m.input.preprocessing.some((s) => s.kind === "char_tokens")
  );
}

/** Columns the manifest fills in when unknown, with the value it fills in. */
export function imputedValues(m: ModelManifest): Map<string, number> {
  const out = new Map<string, number>();
  for (const step of m.input.preprocessing)
    if (step.kind === "impute") for (const [k, c] of step.columns.entries()) out.set(c, step.values[k]);
  return out;
}

function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "string" && v.trim() === "");
}

function fmt(n: number): string {
  return String(Number(n.toPrecision(6)));
}

/** Throws a 422 naming every missing or blank field that the model cannot fill in. */
export function checkRequiredFields(m: ModelManifest, instances: readonly unknown[]): void {
  if (!isTabular(m)) return;
  const imputed = imputedValues(m);
  const errors: FieldError[] = [];
  const byInstance = new Map<number, string[]>();
  let total = 0;
  instances.forEach((instance, i) => {
    if (instance === null || typeof instance !== "object" || Array.isArray(instance)) return;
    const raw = instance as Record<string, unknown>;
    for (const f of m.input_features) {
      const present = Object.hasOwn(raw, f.name);
      const value = raw[f.name];
      const fill = f.type === "number" ? imputed.get(f.name) : undefined;
      if (present && !isBlank(value)) continue;
      if (present && value === null && fill !== undefined) continue; // unknown, filled in as in training
      total++;
      const names = byInstance.get(i) ?? [];
      names.push(f.name);
      byInstance.set(i, names);
      if (errors.length >= MAX_ERRORS) continue;
      const how =
        fill !== undefined
          ? `send a number, or null to fill it in with the training value (${fmt(fill)})`
          : "this model records no value to fill it in with";
      errors.push({
        path: `inputs.${i}.${f.name}`,
        message: present ? `“${f.name}” is blank: ${how}.` : `missing feature “${f.name}”: ${how}.`,
      });
    }
  });
  if (total === 0) return;
  const parts = [...byInstance.entries()]
    .slice(0, 5)
    .map(([i, names]) => `instance ${i}: missing or blank ${names.map((n) => `“${n}”`).join(", ")}`);
  const more = byInstance.size > 5 ? `; and ${byInstance.size - 5} more instances` : "";
  const detail = `${parts.join("; ")}${more}.`;
  throw new ValidationError(`${detail[0].toUpperCase()}${detail.slice(1)}`, errors);
}

type JsonSchema = Record<string, unknown>;

/**
 * The input schema as this check reads it: `null` stays allowed only for the columns the manifest
 * fills in (their description gives the value); every other field is a plain required value.
 */
export function requiredFieldsSchema(m: ModelManifest, schema: JsonSchema): JsonSchema {
  if (!isTabular(m) || typeof schema.properties !== "object" || schema.properties === null) return schema;
  const imputed = imputedValues(m);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, raw] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
    const feature = m.input_features.find((f) => f.name === name);
    const fill = feature?.type === "number" ? imputed.get(name) : undefined;
    if (fill !== undefined) {
      properties[name] = {
        ...raw,
        description: `Required; null when unknown, filled in with the training value ${fmt(fill)}.`,
      };
      continue;
    }
    const p: JsonSchema = { ...raw };
    if (Array.isArray(p.type)) {
      const types = p.type.filter((t) => t !== "null");
      p.type = types.length === 1 ? types[0] : types;
    }
    if (Array.isArray(p.enum)) p.enum = p.enum.filter((v) => v !== null);
    if (p.type === "string") p.minLength = 1;
    properties[name] = p;
  }
  return { ...schema, properties };
}
