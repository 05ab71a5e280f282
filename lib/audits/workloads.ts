/**
 * Groups calls into workloads: one per model and task. A model's calls are classification when
 * their outputs are few distinct short strings (at most MAX_CLASSES, each at most MAX_LABEL_CHARS,
 * and each label seen at least twice on average); otherwise generation. A `task` declared on the
 * calls wins over the guess.
 */
import type { AuditTask, LoggedCall, WorkloadGroup } from "./types";

export const MAX_CLASSES = 20;
export const MAX_LABEL_CHARS = 40;

const normalizeLabel = (s: string) => s.trim();

/** The task the outputs suggest. */
export function detectTask(outputs: readonly string[]): AuditTask {
  if (outputs.length === 0) return "generation";
  const distinct = new Set(outputs.map(normalizeLabel));
  const short = [...distinct].every((o) => o.length > 0 && o.length <= MAX_LABEL_CHARS && !o.includes("\n"));
  return short && distinct.size >= 2 && distinct.size <= MAX_CLASSES && outputs.length >= distinct.size * 2
    ? "classification"
    : "generation";
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "model"
  );
}

export function groupWorkloads(calls: readonly LoggedCall[]): WorkloadGroup[] {
  const byModel = new Map<string, LoggedCall[]>();
  for (const c of calls) {
    const list = byModel.get(c.model) ?? [];
    list.push(c);
    byModel.set(c.model, list);
  }
  const out: WorkloadGroup[] = [];
  for (const [model, list] of [...byModel.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const declared = new Map<AuditTask | null, LoggedCall[]>();
    for (const c of list) {
      const l = declared.get(c.task) ?? [];
      l.push(c);
      declared.set(c.task, l);
    }
    for (const [declaredTask, group] of declared) {
      const t = declaredTask ?? detectTask(group.map((c) => c.output));
      const labels =
        t === "classification" ? [...new Set(group.map((c) => normalizeLabel(c.output)))].sort() : null;
      out.push({ name: `${slug(model)}-${t}`, model, task: t, calls: group, labels });
    }
  }
  // Two groups of one model and the same task (one declared, one guessed) are merged.
  const merged = new Map<string, WorkloadGroup>();
  for (const w of out) {
    const prev = merged.get(w.name);
    if (!prev) merged.set(w.name, w);
    else {
      const calls2 = [...prev.calls, ...w.calls];
      merged.set(w.name, {
        ...prev,
        calls: calls2,
        labels: prev.labels ? [...new Set(calls2.map((c) => normalizeLabel(c.output)))].sort() : null,
      });
    }
  }
  return [...merged.values()];
}

/**
 * Which calls are held out for evaluation: a seeded, order-independent choice of about `fraction`
 * of the calls (at least one, and at least one left to train on when there are two or more).
 */
export function holdoutMask(count: number, fraction = 0.2, seed = 42): boolean[] {
  const scored = Array.from({ length: count }, (_, i) => ({ i, r: hash01(i, seed) }));
  scored.sort((a, b) => a.r - b.r || a.i - b.i);
  const n = count < 2 ? 0 : Math.min(count - 1, Math.max(1, Math.round(count * fraction)));
  const mask = new Array<boolean>(count).fill(false);
  for (const { i } of scored.slice(0, n)) mask[i] = true;
  return mask;
}

/** A deterministic number in [0, 1) from an index and a seed (a 32-bit integer hash). */
export function hash01(i: number, seed: number): number {
  let h = (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(seed + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 0x100000000;
}
