/** The log tail of a training job: live lines merged into the cached ones, filtered as the view is. */

export type LogLevel = "debug" | "info" | "warning" | "error";
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warning", "error"];

export interface LogLineFields {
  id: number;
  level: LogLevel;
  message: string;
}

export interface LogFilter {
  /** This level and above; undefined for every level. */
  level?: LogLevel;
  /** Lines containing this text, ignoring case. */
  q?: string;
}

/** Whether a line passes the view's filter (as the server filters GET …/logs). */
export function matchesLogFilter(line: LogLineFields, filter: LogFilter): boolean {
  if (filter.level && LOG_LEVELS.indexOf(line.level) < LOG_LEVELS.indexOf(filter.level)) return false;
  if (filter.q && !line.message.toLowerCase().includes(filter.q.toLowerCase())) return false;
  return true;
}

/**
 * Appends the live lines that pass the filter and are newer than the cached ones (ids increase; a
 * line already held is never added twice), keeping the newest `max`. Returns `lines` itself when
 * nothing was added.
 */
export function appendLogLines<L extends LogLineFields>(
  lines: readonly L[],
  incoming: readonly L[],
  filter: LogFilter,
  max: number,
): readonly L[] {
  let lastId = lines.length > 0 ? lines[lines.length - 1].id : Number.NEGATIVE_INFINITY;
  const added: L[] = [];
  for (const line of incoming) {
    if (line.id <= lastId || !matchesLogFilter(line, filter)) continue;
    added.push(line);
    lastId = line.id;
  }
  if (added.length === 0) return lines;
  const all = [...lines, ...added];
  return all.length > max ? all.slice(all.length - max) : all;
}

/**
 * Whether a scrolled log view sits at its bottom (within `slack` pixels): it follows new lines then,
 * and stops following once the user scrolls up.
 */
export function isAtBottom(
  el: { scrollTop: number; scrollHeight: number; clientHeight: number },
  slack = 24,
) {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= slack;
}

/** Which page of GET …/logs holds the last `limit` lines, from the total. */
export function lastPage(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}
