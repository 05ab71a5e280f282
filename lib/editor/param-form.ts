/**
 * Form fields generated from zod object schemas (layer params, training configuration):
 * what input to render for each field, its text, and parsing + validation of what the user types.
 */
import type { z } from "zod";
import { type LayerType, layerCatalog, type ParamField, paramFields, schemaFields } from "@/lib/ml";

export type { ParamField };
/** Field descriptions of any flat zod object schema (the training configuration form uses it). */
export { schemaFields };

export type ParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** Form fields of a layer type's params. */
export function layerFields(type: LayerType): ParamField[] {
  return paramFields(type);
}

/** "out_channels" → "Out channels". */
export function fieldLabel(name: string): string {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The text an input shows for a value (arrays as "1, 28, 28"; unset as ""). */
export function fieldText(field: ParamField, value: unknown): string {
  const v = value === undefined ? field.default : value;
  if (v === undefined || v === null) return "";
  if (Array.isArray(v)) return v.join(", ");
  return String(v);
}

/** "between 1 and 1024", "at least 1", "greater than 0 and at most 1"… for hints and messages. */
export function rangeText(field: ParamField): string | null {
  if (field.kind !== "int" && field.kind !== "number") return null;
  const lower =
    field.exclusiveMin !== undefined
      ? `greater than ${field.exclusiveMin}`
      : field.min !== undefined
        ? `at least ${field.min}`
        : null;
  const upper =
    field.exclusiveMax !== undefined
      ? `less than ${field.exclusiveMax}`
      : field.max !== undefined
        ? `at most ${field.max}`
        : null;
  if (
    field.min !== undefined &&
    field.max !== undefined &&
    field.exclusiveMin === undefined &&
    field.exclusiveMax === undefined
  ) {
    return `between ${field.min} and ${field.max}`;
  }
  return [lower, upper].filter(Boolean).join(" and ") || null;
}

function checkNumber(field: ParamField & { kind: "int" | "number" }, n: number): string | null {
  if (!Number.isFinite(n)) return "Enter a number";
  if (field.kind === "int" && !Number.isInteger(n)) return "Enter a whole number";
  const outside =
    (field.min !== undefined && n < field.min) ||
    (field.max !== undefined && n > field.max) ||
    (field.exclusiveMin !== undefined && n <= field.exclusiveMin) ||
    (field.exclusiveMax !== undefined && n >= field.exclusiveMax);
  return outside ? `Must be ${rangeText(field)}` : null;
}

/** Parses what the user typed into a field's value; syntax and ranges only (see `validateField`). */
export function parseFieldText(field: ParamField, text: string): ParseResult {
  const t = text.trim();
  if (field.kind === "boolean") return { ok: true, value: t === "true" };
  if (t === "") {
    if (field.optional) return { ok: true, value: undefined };
    return { ok: false, error: "Required" };
  }
  if (field.kind === "enum") {
    return field.options.includes(t)
      ? { ok: true, value: t }
      : { ok: false, error: "Pick one of the options" };
  }
  if (field.kind === "int" || field.kind === "number") {
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return { ok: false, error: "Enter a number" };
    const n = Number(t);
    const error = checkNumber(field, n);
    return error ? { ok: false, error } : { ok: true, value: n };
  }
  if (field.kind !== "int_array") return { ok: false, error: "Unsupported field" };
  const parts = t
    .replace(/^\[|\]$/g, "")
    .split(/[\s,]+/)
    .filter(Boolean);
  const items: number[] = [];
  for (const part of parts) {
    if (!/^[-+]?\d+$/.test(part)) return { ok: false, error: "Enter whole numbers separated by commas" };
    const n = Number(part);
    if (
      (field.itemMin !== undefined && n < field.itemMin) ||
      (field.itemMax !== undefined && n > field.itemMax)
    ) {
      const range =
        field.itemMin !== undefined && field.itemMax !== undefined
          ? `between ${field.itemMin} and ${field.itemMax}`
          : field.itemMin !== undefined
            ? `at least ${field.itemMin}`
            : `at most ${field.itemMax}`;
      return { ok: false, error: `Each dimension must be ${range}` };
    }
    items.push(n);
  }
  if (field.minItems !== undefined && items.length < field.minItems) {
    return {
      ok: false,
      error: `Enter at least ${field.minItems} dimension${field.minItems === 1 ? "" : "s"}`,
    };
  }
  if (field.maxItems !== undefined && items.length > field.maxItems) {
    return { ok: false, error: `Enter at most ${field.maxItems} dimensions` };
  }
  return { ok: true, value: items };
}

/** Parses and then checks the value against the field's own zod schema (custom rules included). */
export function validateField(schema: z.ZodObject, field: ParamField, text: string): ParseResult {
  const parsed = parseFieldText(field, text);
  if (!parsed.ok) return parsed;
  const fieldSchema = schema.shape[field.name] as z.ZodType | undefined;
  if (!fieldSchema) return parsed;
  const checked = fieldSchema.safeParse(parsed.value);
  if (checked.success) return parsed;
  return { ok: false, error: checked.error.issues[0]?.message ?? "Invalid value" };
}

/** Validation of one layer param as typed. */
export function validateLayerParam(type: LayerType, field: ParamField, text: string): ParseResult {
  return validateField(layerCatalog[type].paramsSchema, field, text);
}
