/**
 * A bounded undo/redo stack of immutable snapshots. Callers record the state *before* a change;
 * changes that share a coalescing key within `windowMs` (typing in one field) make one entry.
 */
export interface History<T> {
  past: T[];
  future: T[];
  lastKey: string | null;
  lastAt: number;
}

export interface RecordOptions {
  /** Changes with the same key in quick succession are undone together. */
  key?: string;
  now?: number;
  limit?: number;
  windowMs?: number;
}

export const HISTORY_LIMIT = 100;
const COALESCE_MS = 1000;

export function emptyHistory<T>(): History<T> {
  return { past: [], future: [], lastKey: null, lastAt: 0 };
}

/** Records `before` (the state about to be changed) and clears the redo stack. */
export function record<T>(history: History<T>, before: T, options: RecordOptions = {}): History<T> {
  const now = options.now ?? Date.now();
  const key = options.key ?? null;
  if (
    key !== null &&
    key === history.lastKey &&
    now - history.lastAt < (options.windowMs ?? COALESCE_MS) &&
    history.past.length > 0
  ) {
    return { ...history, future: [], lastAt: now };
  }
  const limit = options.limit ?? HISTORY_LIMIT;
  const past = [...history.past, before];
  if (past.length > limit) past.splice(0, past.length - limit);
  return { past, future: [], lastKey: key, lastAt: now };
}

export function canUndo<T>(history: History<T>): boolean {
  return history.past.length > 0;
}

export function canRedo<T>(history: History<T>): boolean {
  return history.future.length > 0;
}

/** Steps back: returns the state to show and the new history, or null when there is nothing to undo. */
export function undo<T>(history: History<T>, current: T): { history: History<T>; state: T } | null {
  if (history.past.length === 0) return null;
  const state = history.past[history.past.length - 1];
  return {
    state,
    history: {
      past: history.past.slice(0, -1),
      future: [current, ...history.future],
      lastKey: null,
      lastAt: 0,
    },
  };
}

export function redo<T>(history: History<T>, current: T): { history: History<T>; state: T } | null {
  if (history.future.length === 0) return null;
  const [state, ...future] = history.future;
  return {
    state,
    history: { past: [...history.past, current], future, lastKey: null, lastAt: 0 },
  };
}
