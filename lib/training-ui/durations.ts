/** Durations of training jobs for people: "42 s", "3 min 5 s", "2 h 10 min", "3 d 4 h". */

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

interface Timed {
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const time = (iso: string | null): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

/**
 * How long a job waited in the queue and has run (so far, for an unfinished job), in ms; null for a
 * phase that has not begun. A job cancelled while queued never ran: its wait ends when it finished.
 */
export function jobDurations(job: Timed, now: number): { queued: number | null; running: number | null } {
  const created = time(job.created_at);
  const started = time(job.started_at);
  const finished = time(job.finished_at);
  const queuedEnd = started ?? finished ?? now;
  return {
    queued: created === null ? null : Math.max(0, queuedEnd - created),
    running: started === null ? null : Math.max(0, (finished ?? now) - started),
  };
}

/** "just now", "5 min ago", "3 h ago", "2 d ago" (and "in 4 min" for a time ahead of `now`). */
export function formatAgo(iso: string, now: number): string {
  const t = time(iso);
  if (t === null) return "–";
  const diff = now - t;
  if (Math.abs(diff) < 45_000) return "just now";
  const text = formatDuration(Math.abs(diff)).replace(/ (\d+) (s|min|h)$/, "");
  return diff > 0 ? `${text} ago` : `in ${text}`;
}
