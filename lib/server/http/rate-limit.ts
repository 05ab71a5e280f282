import { RateLimitedError } from "../errors";

/**
 * Fixed-window request counter per caller (API key, session user, deployment or client address),
 * in process memory. Limits come from the caller's plan; RATE_LIMIT_PER_MINUTE overrides them all
 * (operators, tests). With several server processes each keeps its own window.
 */
interface Window {
  start: number;
  count: number;
}

const WINDOW_MS = 60_000;
const store = globalThis as unknown as { __rateWindows?: Map<string, Window> };

function windows(): Map<string, Window> {
  store.__rateWindows ??= new Map();
  return store.__rateWindows;
}

export function effectiveLimit(planLimit: number): number {
  const override = Number(process.env.RATE_LIMIT_PER_MINUTE);
  return Number.isFinite(override) && override > 0 ? override : planLimit;
}

export function consumeRateLimit(bucket: string, limitPerMinute: number, now = Date.now()): void {
  const map = windows();
  let w = map.get(bucket);
  if (!w || now - w.start >= WINDOW_MS) {
    w = { start: now, count: 0 };
    map.set(bucket, w);
    if (map.size > 50_000) {
      for (const [k, v] of map) if (now - v.start >= WINDOW_MS) map.delete(k);
    }
  }
  w.count += 1;
  if (w.count > limitPerMinute) {
    throw new RateLimitedError(Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000)));
  }
}

export function resetRateLimits(): void {
  windows().clear();
}
