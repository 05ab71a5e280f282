/**
 * Deployment keys checked in the last moment: an inference request whose key was checked less than
 * KEY_CACHE_MS ago (default 250 ms) reuses that read of its deployment and current revision instead
 * of querying again. Every change made by this process (pause, resume, rotate, update, delete)
 * empties the cache at once, so this process never serves a stale state; another server process
 * sees the change within KEY_CACHE_MS (documented on the routes). A read that raced a change is not
 * cached (the generation counter moved while it ran). Unknown keys are never cached.
 */
const KEY_CACHE_MS = Number(process.env.LAYERLINE_KEY_CACHE_MS ?? 250);
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  expires: number;
}

interface CacheState {
  entries: Map<string, Entry<unknown>>;
  generation: number;
}

const g = globalThis as unknown as { __layerlineKeyCache?: CacheState };
if (!g.__layerlineKeyCache) g.__layerlineKeyCache = { entries: new Map(), generation: 0 };
const state: CacheState = g.__layerlineKeyCache;

export const KEY_CACHE_WINDOW_MS = KEY_CACHE_MS;

/** The value cached for `digest`, else `load()`'s (cached when found and no change happened meanwhile). */
export async function cachedKey<T>(digest: string, load: () => Promise<T | null>): Promise<T | null> {
  const now = Date.now();
  const hit = state.entries.get(digest);
  if (hit && hit.expires > now) return hit.value as T;
  if (hit) state.entries.delete(digest);
  const generation = state.generation;
  const value = await load();
  if (value !== null && KEY_CACHE_MS > 0 && generation === state.generation) {
    if (state.entries.size >= MAX_ENTRIES) state.entries.clear();
    state.entries.set(digest, { value, expires: now + KEY_CACHE_MS });
  }
  return value;
}

/** Forgets every cached key (a deployment changed in this process). */
export function forgetKeys(): void {
  state.generation += 1;
  state.entries.clear();
}
