/**
 * The configuration form of the Train dialog, generated from the same zod schema as the editor's
 * training form (lib/ml), with the job's own bounds (decisions "Training": seed and weight decay are
 * bounded for a job), live validation of what the user types, and the server's per-field errors.
 */
import { z } from "zod";
import { parseFieldText, validateField } from "@/lib/editor/param-form";
import { type ParamField, schemaFields, type TrainingConfig, trainingConfigSchema } from "@/lib/ml";

export const jobConfigFormSchema = trainingConfigSchema.extend({
  weight_decay: z.number().min(0).max(1).default(0).describe("L2 penalty / decoupled weight decay (AdamW)"),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(42)
    .describe("Random seed for weights init, shuffling and the validation split"),
});

/** The plain fields; the image settings (resize, augmentation) have their own panel for image datasets. */
export const CONFIG_FIELDS: ParamField[] = schemaFields(jobConfigFormSchema).filter(
  (f) => f.name !== "resize",
);

export type ConfigTexts = Record<string, string>;

/** The form's starting text: the project's configuration (defaults where it has none). */
export function initialTexts(config: Partial<TrainingConfig> | undefined): ConfigTexts {
  const parsed = jobConfigFormSchema.safeParse(config ?? {});
  const values: Record<string, unknown> = parsed.success ? parsed.data : jobConfigFormSchema.parse({});
  const texts: ConfigTexts = {};
  for (const f of CONFIG_FIELDS) {
    const v = values[f.name];
    texts[f.name] = v === undefined || v === null ? "" : String(v);
  }
  return texts;
}

/** Each field's message for what is typed now (only the invalid fields have one). */
export function validateTexts(texts: ConfigTexts): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of CONFIG_FIELDS) {
    const r = validateField(jobConfigFormSchema, f, texts[f.name] ?? "");
    if (!r.ok) errors[f.name] = r.error;
  }
  return errors;
}

/** The configuration to send, or null while a field is invalid. */
export function configFromTexts(texts: ConfigTexts): TrainingConfig | null {
  const values: Record<string, unknown> = {};
  for (const f of CONFIG_FIELDS) {
    const r = parseFieldText(f, texts[f.name] ?? "");
    if (!r.ok) return null;
    if (r.value !== undefined) values[f.name] = r.value;
  }
  const parsed = jobConfigFormSchema.safeParse(values);
  return parsed.success ? parsed.data : null;
}

/**
 * A 422's `errors[]` split into per-field messages (`body.config.epochs` → `epochs`, `body.dataset_id`
 * → `dataset_id`) and the rest (graph problems and anything else), shown above the form.
 */
export function splitServerErrors(errors: readonly { path: string; message: string }[] | undefined): {
  fields: Record<string, string>;
  other: string[];
} {
  const fields: Record<string, string> = {};
  const other: string[] = [];
  for (const e of errors ?? []) {
    const m = /^body\.(?:config\.)?([a-z_]+)$/.exec(e.path);
    if (m && !fields[m[1]]) fields[m[1]] = e.message;
    else other.push(e.path ? `${e.path}: ${e.message}` : e.message);
  }
  return { fields, other };
}
