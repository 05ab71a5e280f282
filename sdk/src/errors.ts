import type { components } from "../../lib/api/schema";

export type Problem = components["schemas"]["Problem"];
export type FieldError = NonNullable<Problem["errors"]>[number];

/**
 * A failed API call, carrying the RFC 9457 problem body the server returned. The one error type for
 * API problems: the SDK throws it, and so does the studio's client (lib/api/client.ts imports it from
 * here; this file imports nothing but types, so the SDK stays self-contained).
 */
export class LayerlineError extends Error {
  readonly status: number;
  /** The problem body as the server sent it (null when it was not JSON). */
  readonly problem: Partial<Problem> | null;
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  readonly errors: FieldError[];
  /** The server's request id (body `request_id`, else the `X-Request-ID` header). */
  readonly requestId: string | null;
  /** Seconds the server asked to wait (429/503 `Retry-After`), if any. */
  readonly retryAfterMs: number | null;

  constructor(
    status: number,
    problem: Partial<Problem> | null,
    requestId: string | null,
    retryAfterMs: number | null,
  ) {
    const detail = problem?.detail ?? `Request failed with status ${status}`;
    super(detail);
    this.name = "LayerlineError";
    this.status = status;
    this.problem = problem;
    this.title = problem?.title ?? `HTTP ${status}`;
    this.detail = detail;
    this.type = problem?.type ?? "about:blank";
    this.errors = Array.isArray(problem?.errors) ? problem.errors : [];
    this.requestId = problem?.request_id ?? requestId;
    this.retryAfterMs = retryAfterMs;
  }

  /** The message for one field (`body.name` or `name`), if the server reported one. */
  fieldError(field: string): string | undefined {
    return this.errors.find((e) => e.path === `body.${field}` || e.path === field)?.message;
  }

  get isAuth(): boolean {
    return this.status === 401 || this.status === 403;
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }

  /** Reads a problem body from a failed response (never throws). */
  static async from(response: Response): Promise<LayerlineError> {
    let problem: Partial<Problem> | null = null;
    try {
      const text = await response.text();
      const parsed: unknown = text ? JSON.parse(text) : null;
      if (parsed && typeof parsed === "object") problem = parsed as Partial<Problem>;
    } catch {
      problem = null;
    }
    return new LayerlineError(
      response.status,
      problem,
      response.headers.get("X-Request-ID"),
      parseRetryAfter(response.headers.get("Retry-After")),
    );
  }
}

/** The request never got a response (connection refused, reset, DNS, timeout) after every attempt. */
export class LayerlineNetworkError extends Error {
  constructor(
    message: string,
    readonly cause: unknown,
  ) {
    super(message);
    this.name = "LayerlineNetworkError";
  }
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
