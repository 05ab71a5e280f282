/**
 * The role editor's logic: role choices, validation, the task a set of roles implies (the same rule
 * as the server's, so the editor can show it before saving) and the PATCH body for the changes.
 */

export const ROLES = ["feature", "target", "id", "text", "image", "ignored"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  feature: "Feature",
  target: "Target",
  id: "Identifier",
  text: "Text",
  image: "Image",
  ignored: "Ignored",
};

export const ROLE_HINTS: Record<Role, string> = {
  feature: "An input of the model",
  target: "What the model predicts",
  id: "Identifies a row; not used for training",
  text: "Free text, tokenised for language models",
  image: "An image (path or pixels)",
  ignored: "Left out of training",
};

export type ColumnType = "integer" | "float" | "boolean" | "string" | "date" | "datetime" | "other";

export interface RoleColumn {
  name: string;
  type: ColumnType;
  /** Distinct non-missing values, from the profile. */
  distinct?: number;
  /** Missing values, from the profile. */
  missing?: number;
}

export type RoleMap = Record<string, Role>;

/** A numeric target with at most this many distinct values is taken for class labels (as on the server). */
export const MAX_CLASSES_FOR_INTEGER_TARGET = 20;

export type Task = "classification" | "regression" | "image_classification" | "language_modeling";

export function inferTask(format: string, columns: readonly RoleColumn[], roles: RoleMap): Task | null {
  if (format === "image_zip") return "image_classification";
  if (format === "text") return "language_modeling";
  const target = Object.entries(roles).find(([, r]) => r === "target")?.[0];
  if (!target) return null;
  const column = columns.find((c) => c.name === target);
  if (!column) return null;
  const distinct = column.distinct ?? Number.POSITIVE_INFINITY;
  switch (column.type) {
    case "string":
    case "boolean":
      return "classification";
    case "integer":
      return distinct <= MAX_CLASSES_FOR_INTEGER_TARGET ? "classification" : "regression";
    case "float":
      return distinct <= 2 ? "classification" : "regression";
    default:
      return null;
  }
}

export interface RoleIssue {
  severity: "error" | "warning";
  message: string;
  column?: string;
}

/** Errors block saving (the server would refuse them); warnings are advice. */
export function validateRoles(format: string, columns: readonly RoleColumn[], roles: RoleMap): RoleIssue[] {
  const issues: RoleIssue[] = [];
  const known = new Set(columns.map((c) => c.name));
  for (const col of Object.keys(roles)) {
    if (!known.has(col)) issues.push({ severity: "error", message: `Unknown column "${col}".`, column: col });
  }
  const targets = Object.entries(roles)
    .filter(([, r]) => r === "target")
    .map(([c]) => c);
  if (targets.length > 1) {
    issues.push({
      severity: "error",
      message: `Only one column can be the target (now ${targets.map((t) => `“${t}”`).join(", ")}).`,
    });
  }
  if (format === "text" || format === "image_zip") return issues;
  if (targets.length === 0) {
    issues.push({
      severity: "warning",
      message: "No target yet: choose the column the model should predict.",
    });
  }
  const features = Object.values(roles).filter((r) => r === "feature" || r === "text" || r === "image");
  if (targets.length === 1 && features.length === 0) {
    issues.push({ severity: "warning", message: "No feature columns: the model would have no inputs." });
  }
  const target = columns.find((c) => c.name === targets[0]);
  if (target && (target.missing ?? 0) > 0) {
    issues.push({
      severity: "warning",
      message: `The target “${target.name}” has ${target.missing} missing value${target.missing === 1 ? "" : "s"}; those rows cannot be used for training.`,
      column: target.name,
    });
  }
  if (target && (target.type === "date" || target.type === "datetime" || target.type === "other")) {
    issues.push({
      severity: "warning",
      message: `A ${target.type} column cannot be predicted directly; no task follows from it.`,
      column: target.name,
    });
  }
  return issues;
}

/** The PATCH body for the difference between saved and edited roles (null clears a role). */
export function rolesPatch(
  saved: RoleMap,
  edited: Partial<Record<string, Role | null>>,
): Record<string, Role | null> {
  const patch: Record<string, Role | null> = {};
  for (const [col, role] of Object.entries(edited)) {
    const next = role ?? null;
    if ((saved[col] ?? null) !== next) patch[col] = next;
  }
  return patch;
}

/** Suggested roles for columns without one: features, except an "id"-like column. */
export function suggestRoles(columns: readonly RoleColumn[], roles: RoleMap): RoleMap {
  const out: RoleMap = { ...roles };
  for (const c of columns) {
    if (out[c.name]) continue;
    out[c.name] = /^(id|.*_id|uuid|index)$/i.test(c.name) ? "id" : "feature";
  }
  return out;
}
