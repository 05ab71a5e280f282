/** The configuration table of the compare page: every field of every job, differing rows flagged. */

export interface ComparedJob {
  id: string;
  /** Flat fields shown as rows: the training configuration and the job's setup. */
  fields: Record<string, string | number | boolean | null>;
}

export interface DiffRow {
  field: string;
  values: (string | number | boolean | null)[];
  /** Whether the jobs do not all agree on this field. */
  differs: boolean;
}

/**
 * One row per field (in first-seen order), each with every job's value (null where a job lacks the
 * field) and whether they differ. With `onlyDiffering`, the rows that agree are left out.
 */
export function configDiff(jobs: readonly ComparedJob[], onlyDiffering = false): DiffRow[] {
  const fields: string[] = [];
  const seen = new Set<string>();
  for (const job of jobs)
    for (const f of Object.keys(job.fields))
      if (!seen.has(f)) {
        seen.add(f);
        fields.push(f);
      }
  const rows = fields.map((field) => {
    const values = jobs.map((j) => (field in j.fields ? j.fields[field] : null));
    const differs = values.some((v) => !Object.is(v, values[0]));
    return { field, values, differs };
  });
  return onlyDiffering ? rows.filter((r) => r.differs) : rows;
}

/** Distinct line colours for up to 12 jobs, mid tones that read on the light and the dark panel. */
export const COMPARE_COLORS = [
  "#6366f1",
  "#f43f5e",
  "#10b981",
  "#f59e0b",
  "#06b6d4",
  "#a855f7",
  "#84cc16",
  "#ec4899",
  "#3b82f6",
  "#f97316",
  "#14b8a6",
  "#eab308",
] as const;

/** The colour of the i-th compared job and whether its line is dashed (past the palette's length). */
export function compareStyle(index: number): { color: string; dashed: boolean } {
  return {
    color: COMPARE_COLORS[index % COMPARE_COLORS.length],
    dashed: Math.floor(index / COMPARE_COLORS.length) % 2 === 1,
  };
}

/** `?ids=a,b,c` → ["a", "b", "c"]: trimmed, without blanks or repeats, at most `max`. */
export function parseIds(param: string | null | undefined, max = 20): string[] {
  if (!param) return [];
  const ids: string[] = [];
  for (const raw of param.split(",")) {
    const id = raw.trim();
    if (id && !ids.includes(id)) ids.push(id);
    if (ids.length >= max) break;
  }
  return ids;
}
