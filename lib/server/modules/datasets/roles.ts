import type { ColumnRole, DatasetProfile, DatasetSchemaInfo, DatasetTask } from "../../db/schema/datasets";
import type { FieldError } from "../../errors";

/**
 * Column roles and the task they imply. Pure functions: validation of a role update and inference of
 * classification vs regression from the target column's type and number of distinct values.
 */

/** A numeric target with at most this many distinct values is taken for class labels. */
export const MAX_CLASSES_FOR_INTEGER_TARGET = 20;

/**
 * Column names that usually hold what is predicted (compared without case, spaces or underscores),
 * the strongest first: a "label" column wins over a "y" column.
 */
const TARGET_NAMES = [
  "label",
  "labels",
  "target",
  "class",
  "classes",
  "y",
  "outcome",
  "species",
  "category",
  "diagnosis",
  "variety",
  "survived",
  "churn",
  "default",
  "result",
  "quality",
  "grade",
  // Regression targets as public datasets name them (house prices, sales, ratings).
  "price",
  "saleprice",
  "sales",
  "revenue",
  "rating",
];
const ID_NAME = /^(id|uuid|key|index|row|rowid)$|[_ -]id$|Id$/;
/** A string column with more distinct values than this is no category a model can use. */
const MAX_GUESSED_CATEGORIES = 100;

/**
 * A string column too varied to be a category a model learns from: more than MAX_GUESSED_CATEGORIES
 * values, or (with 20 rows or more) a distinct value in at least half of them (names, e-mails, free
 * text): one-hot encoding it would mostly learn rows by heart.
 */
function nearUnique(distinct: number, present: number): boolean {
  return distinct > MAX_GUESSED_CATEGORIES || (present >= 20 && distinct >= present / 2);
}

const squash = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");

/**
 * A first guess of every column's role, as AutoTrain makes one: the target is a column named like
 * one (label, target, class, y, outcome, species…), else the last column with few distinct values
 * (2–20, not a float); identifiers (named like an id and unique) are ids; dates, free text and
 * near-unique strings are ignored (a model cannot use them as they are); every other column is a
 * feature. The user changes any of it in one click; nothing is guessed for a column already set.
 */
export function guessRoles(schema: DatasetSchemaInfo, profile: DatasetProfile): Record<string, ColumnRole> {
  if (schema.format === "image_zip" || schema.format === "text") return defaultRoles(schema);
  const stats = new Map(profile.columns.map((c) => [c.name, c] as const));
  const rows = profile.row_count;
  const fewValues = (name: string) => {
    const d = stats.get(name)?.distinct ?? 0;
    return d >= 2 && d <= MAX_CLASSES_FOR_INTEGER_TARGET;
  };
  const usable = schema.columns.filter((c) => c.type !== "other");
  const rank = (name: string) => {
    const i = TARGET_NAMES.indexOf(squash(name));
    return i < 0 ? Number.POSITIVE_INFINITY : i;
  };
  const byName = usable
    .filter((c) => rank(c.name) < Number.POSITIVE_INFINITY && (stats.get(c.name)?.distinct ?? 0) >= 2)
    .sort((a, b) => rank(a.name) - rank(b.name))[0];
  const byValues = [...usable]
    .reverse()
    .find((c) => (c.type === "string" || c.type === "integer" || c.type === "boolean") && fewValues(c.name));
  const target = byName ?? byValues ?? null;
  const roles: Record<string, ColumnRole> = {};
  for (const c of schema.columns) {
    if (c.name === target?.name) {
      roles[c.name] = "target";
      continue;
    }
    const s = stats.get(c.name);
    const unique = rows > 0 && (s?.distinct ?? 0) >= rows - (s?.missing ?? 0) && rows > 1;
    if (ID_NAME.test(c.name) && unique && c.type !== "float") roles[c.name] = "id";
    else if (c.type === "date" || c.type === "datetime" || c.type === "other") roles[c.name] = "ignored";
    else if (c.type === "string" && nearUnique(s?.distinct ?? 0, rows - (s?.missing ?? 0)))
      roles[c.name] = "ignored";
    else roles[c.name] = "feature";
  }
  return roles;
}

export function defaultRoles(schema: DatasetSchemaInfo): Record<string, ColumnRole> {
  if (schema.format === "image_zip") return { image: "image", label: "target" };
  if (schema.format === "text") return { text: "text" };
  return {};
}

export function inferTask(
  schema: DatasetSchemaInfo,
  profile: DatasetProfile,
  roles: Record<string, ColumnRole>,
): DatasetTask | null {
  if (schema.format === "image_zip") return "image_classification";
  if (schema.format === "text") return "language_modeling";
  const target = Object.entries(roles).find(([, r]) => r === "target")?.[0];
  if (!target) return null;
  const column = schema.columns.find((c) => c.name === target);
  const stats = profile.columns.find((c) => c.name === target);
  if (!column) return null;
  switch (column.type) {
    case "string":
    case "boolean":
      return "classification";
    case "integer":
      return (stats?.distinct ?? Number.POSITIVE_INFINITY) <= MAX_CLASSES_FOR_INTEGER_TARGET
        ? "classification"
        : "regression";
    case "float":
      return (stats?.distinct ?? Number.POSITIVE_INFINITY) <= 2 ? "classification" : "regression";
    default:
      return null;
  }
}

/**
 * Applies a role update (`null` clears a column's role) to the current roles; returns the new roles or
 * the field errors: unknown columns, and more than one target.
 */
export function applyRoleUpdate(
  schema: DatasetSchemaInfo,
  current: Record<string, ColumnRole>,
  update: Record<string, ColumnRole | null>,
): { roles: Record<string, ColumnRole>; errors: FieldError[] } {
  const known = new Set(schema.columns.map((c) => c.name));
  const errors: FieldError[] = [];
  const roles: Record<string, ColumnRole> = {};
  for (const [col, role] of Object.entries(current)) if (known.has(col)) roles[col] = role;
  for (const [col, role] of Object.entries(update)) {
    if (!known.has(col)) {
      errors.push({ path: `roles.${col}`, message: `Unknown column "${col}".` });
      continue;
    }
    if (role === null) delete roles[col];
    else roles[col] = role;
  }
  const targets = Object.entries(roles).filter(([, r]) => r === "target");
  if (targets.length > 1) {
    errors.push({
      path: "roles",
      message: `Only one column can be the target (got ${targets.map(([c]) => `"${c}"`).join(", ")}).`,
    });
  }
  return { roles, errors };
}

/** Roles carried over to a new version: those whose column still exists. */
export function carryOverRoles(
  schema: DatasetSchemaInfo,
  roles: Record<string, ColumnRole>,
  profile?: DatasetProfile,
): Record<string, ColumnRole> {
  const known = new Set(schema.columns.map((c) => c.name));
  const kept = Object.fromEntries(Object.entries(roles).filter(([c]) => known.has(c)));
  if (Object.keys(kept).length > 0) return kept;
  return profile ? guessRoles(schema, profile) : defaultRoles(schema);
}
