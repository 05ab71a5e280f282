/**
 * The try-it form, generated from a deployment's input JSON Schema (GET …/schema): one field per
 * property (a number input, a select for an enum, a text area for free text), prefilled from the
 * schema's example; and the instance built back from the form's values.
 */

export type FormField =
  | { kind: "number"; name: string; nullable: boolean; description?: string }
  | { kind: "enum"; name: string; options: string[]; nullable: boolean }
  | { kind: "text"; name: string; nullable: boolean; multiline: boolean; description?: string };

export type FormValues = Record<string, string>;

/** Fields the form can show, or null when the schema is not an object of scalars (then: raw JSON). */
export function formFields(schema: Record<string, unknown>): FormField[] | null {
  if (schema.type !== "object" || !isRecord(schema.properties)) return null;
  const fields: FormField[] = [];
  const entries = Object.entries(schema.properties);
  for (const [name, raw] of entries) {
    if (!isRecord(raw)) return null;
    const types = Array.isArray(raw.type) ? raw.type : [raw.type];
    const nullable = types.includes("null");
    if (Array.isArray(raw.enum)) {
      const options = raw.enum.filter((v): v is string => typeof v === "string");
      fields.push({ kind: "enum", name, options, nullable: nullable || raw.enum.includes(null) });
    } else if (types.includes("number") || types.includes("integer")) {
      const description = typeof raw.description === "string" ? raw.description : undefined;
      fields.push(
        description ? { kind: "number", name, nullable, description } : { kind: "number", name, nullable },
      );
    } else if (types.includes("string")) {
      fields.push({
        kind: "text",
        name,
        nullable,
        // A model's only, required text (a language model's prompt) gets a text area.
        multiline: entries.length === 1 && !nullable,
        description: typeof raw.description === "string" ? raw.description : undefined,
      });
    } else {
      return null;
    }
  }
  return fields;
}

/** A language model's schema: one required text property (`{<text field>: "…"}`). */
export function textFieldOf(schema: Record<string, unknown>): string | null {
  const fields = formFields(schema);
  if (fields?.length !== 1) return null;
  const f = fields[0];
  return f.kind === "text" && f.multiline ? f.name : null;
}

/** The form's values for an example instance. */
export function valuesFromInstance(fields: readonly FormField[], instance: unknown): FormValues {
  const src = isRecord(instance) ? instance : {};
  const values: FormValues = {};
  for (const f of fields) {
    const v = src[f.name];
    values[f.name] = v === null || v === undefined ? "" : String(v);
  }
  return values;
}

/**
 * The instance the form's values describe: numbers as numbers; a field marked unknown as null (only
 * where the schema allows null: the model fills it in as training did); a blank field left out, so
 * the server names it as missing. A value that is not a number is sent as typed, so the server's 422
 * names the field.
 */
export function instanceFromValues(
  fields: readonly FormField[],
  values: FormValues,
  unknown: readonly string[] = [],
): Record<string, unknown> {
  const instance: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.name] ?? "";
    if (f.nullable && unknown.includes(f.name)) {
      instance[f.name] = null;
    } else if (f.kind === "number") {
      const trimmed = raw.trim();
      const n = Number(trimmed);
      if (trimmed !== "") instance[f.name] = Number.isFinite(n) ? n : raw;
    } else if (f.kind === "enum") {
      // A nullable select's “(unknown)” option is a choice, not a blank.
      if (raw !== "") instance[f.name] = raw;
      else if (f.nullable) instance[f.name] = null;
    } else if (raw !== "" || f.multiline) {
      instance[f.name] = raw;
    }
  }
  return instance;
}

/** The nullable fields an instance sends as null (shown as “unknown” in the form). */
export function unknownFromInstance(fields: readonly FormField[], instance: unknown): string[] {
  const src = isRecord(instance) ? instance : {};
  return fields.filter((f) => f.nullable && f.kind !== "enum" && src[f.name] === null).map((f) => f.name);
}

/**
 * The fields the form cannot send: blank and not marked unknown. Every field of a model's instance
 * is required (the server refuses a missing one with a 422); a language model's text may be empty.
 */
export function missingFields(
  fields: readonly FormField[],
  values: FormValues,
  unknown: readonly string[] = [],
): string[] {
  return fields
    .filter((f) => {
      if ((values[f.name] ?? "").trim() !== "") return false;
      if (f.kind === "enum") return !f.nullable;
      if (f.kind === "text" && f.multiline) return false;
      return !(f.nullable && unknown.includes(f.name));
    })
    .map((f) => f.name);
}

/**
 * The fields sent as unknown (null): the model fills them in as training did (a number with the
 * training mean), so the answer does not rest on them; the console says so.
 */
export function unknownFields(
  fields: readonly FormField[],
  values: FormValues,
  unknown: readonly string[] = [],
): string[] {
  return fields
    .filter(
      (f) =>
        f.nullable &&
        (unknown.includes(f.name) || (f.kind === "enum" && (values[f.name] ?? "").trim() === "")),
    )
    .map((f) => f.name);
}

/** Parses the raw JSON editor's text as a predict body (`{"inputs": [...]}`) or says what is wrong. */
export function parseRawBody(text: string): { ok: true; inputs: unknown[] } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!isRecord(json) || !Array.isArray(json.inputs))
    return { ok: false, error: 'The body must be an object with an "inputs" array.' };
  if (json.inputs.length === 0) return { ok: false, error: '"inputs" needs at least one instance.' };
  return { ok: true, inputs: json.inputs };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
