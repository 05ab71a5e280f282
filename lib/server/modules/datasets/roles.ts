import type { ColumnRole, DatasetProfile, DatasetSchemaInfo, DatasetTask } from "../../db/schema/datasets";
import type { FieldError } from "../../errors";

/**
 * Column roles and the task they imply. Pure functions: validation of a role update and inference of
 * classification vs regression from the target column's type and number of distinct values.
 */

/** A numeric target with at most this many distinct values is taken for class labels. */
export const MAX_CLASSES_FOR_INTEGER_TARGET = 20;

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
): Record<string, ColumnRole> {
  const known = new Set(schema.columns.map((c) => c.name));
  const kept = Object.fromEntries(Object.entries(roles).filter(([c]) => known.has(c)));
  return Object.keys(kept).length > 0 ? kept : defaultRoles(schema);
}
