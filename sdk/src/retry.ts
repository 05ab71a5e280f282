import { LayerlineNetworkError, parseRetryAfter } from "./errors";

export interface RetryOptions {
  /** Attempts in all, the first included (default 4). 1 turns retries off. */
  maxAttempts: number;
  /** The first backoff ceiling (default 250 ms); it doubles per attempt. */
  baseDelayMs: number;
  /** The largest backoff ceiling (default 8 s). */
  maxDelayMs: number;
  /** The longest `Retry-After` honoured (default 60 s); a longer one is returned to the caller. */
  maxRetryAfterMs: number;
  /** Random source in [0, 1) for the jitter (tests may pin it). */
  random: () => number;
  /** Called before each wait. */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  reason: string;
  method: string;
  url: string;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
};

/** Exponential backoff with full jitter: uniform in [0, min(max, base · 2^(attempt-1))). */
export function backoffDelay(
  attempt: number,
  opts: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random">,
) {
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(opts.random() * ceiling);
}

/** 429 and the transient 5xx statuses; 501 and 505 never get better by waiting. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/**
 * Whether a request may be sent again after a 5xx or a network error: safe methods always; POST
 * and PATCH only with an Idempotency-Key (the server replays the first outcome instead of acting
 * twice). A 429 is always retried: the server refused it before doing anything.
 */
export function isReplaySafe(request: Request): boolean {
  const m = request.method.toUpperCase();
  if (m === "GET" || m === "HEAD" || m === "PUT" || m === "DELETE" || m === "OPTIONS") return true;
  return request.headers.has("Idempotency-Key");
}

export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Fetches, rejecting with the signal's reason as soon as `signal` aborts (a response that arrives
 * later has its body cancelled). A Request's own signal is not enough: Node's fetch may drop the
 * link from a caller's signal to a Request built on it once that Request is garbage collected
 * (nodejs/undici#3644), and the abort is then never seen.
 */
export function fetchUnlessAborted(
  fetchImpl: (request: Request) => Promise<Response>,
  request: Request,
  signal: AbortSignal | null | undefined,
): Promise<Response> {
  if (!signal) return fetchImpl(request);
  if (signal.aborted) return Promise.reject(signal.reason);
  const pending = fetchImpl(request);
  return new Promise<Response>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      pending.then(
        (late) => late.body?.cancel().catch(() => {}),
        () => {},
      );
    };
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (response) => {
        signal.removeEventListener("abort", onAbort);
        resolve(response);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Sends a request, retrying on 429 (after `Retry-After` when given), retryable 5xx and network
 * errors. `makeRequest` builds a fresh Request per attempt (a body can be read once), so every
 * attempt carries the same headers, Idempotency-Key included.
 */
export async function fetchWithRetry(
  makeRequest: () => Request,
  fetchImpl: (request: Request) => Promise<Response>,
  opts: RetryOptions & { replaySafe?: boolean; signal?: AbortSignal | null },
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const request = makeRequest();
    const signal = opts.signal ?? request.signal;
    const last = attempt >= opts.maxAttempts;
    const replaySafe = opts.replaySafe ?? isReplaySafe(request);
    let response: Response;
    try {
      response = await fetchUnlessAborted(fetchImpl, request, signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      if (last || !replaySafe) {
        throw new LayerlineNetworkError(
          `${request.method} ${request.url} failed: ${err instanceof Error ? err.message : String(err)}`,
          err,
        );
      }
      const delayMs = backoffDelay(attempt, opts);
      opts.onRetry?.({ attempt, delayMs, reason: "network error", method: request.method, url: request.url });
      await sleep(delayMs, signal);
      continue;
    }
    if (last || !isRetryableStatus(response.status)) return response;
    if (response.status !== 429 && !replaySafe) return response;
    const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
    if (retryAfter !== null && retryAfter > opts.maxRetryAfterMs) return response;
    const delayMs = retryAfter ?? backoffDelay(attempt, opts);
    await response.body?.cancel().catch(() => {});
    opts.onRetry?.({
      attempt,
      delayMs,
      reason: `HTTP ${response.status}`,
      method: request.method,
      url: request.url,
    });
    await sleep(delayMs, signal);
  }
}
