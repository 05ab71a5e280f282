import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import { DomainError, type FieldError } from "../errors";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id: string;
  errors?: FieldError[];
}

const TYPE_BASE = "https://layerline.dev/problems/";

const SLUGS: Record<number, string> = {
  400: "bad-request",
  401: "unauthorized",
  402: "plan-limit",
  403: "forbidden",
  404: "not-found",
  405: "method-not-allowed",
  409: "conflict",
  413: "payload-too-large",
  415: "unsupported-media-type",
  422: "validation-failed",
  429: "rate-limited",
  500: "internal-error",
  503: "unavailable",
};

const TITLES: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  413: "Payload too large",
  415: "Unsupported media type",
  500: "Internal server error",
  503: "Service unavailable",
};

export function problemBody(
  status: number,
  detail: string,
  requestId: string,
  title?: string,
  errors?: FieldError[],
): Problem {
  return {
    type: TYPE_BASE + (SLUGS[status] ?? "error"),
    title: title ?? TITLES[status] ?? "Error",
    status,
    detail,
    request_id: requestId,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

export function problemResponse(
  c: Context,
  status: number,
  detail: string,
  opts: {
    title?: string;
    errors?: FieldError[];
    headers?: Record<string, string>;
    slug?: string;
    extensions?: Record<string, number | string>;
  } = {},
): Response {
  const requestId = (c.get("requestId") as string | undefined) ?? "";
  // Extension members first: they never replace a standard member.
  const body = { ...opts.extensions, ...problemBody(status, detail, requestId, opts.title, opts.errors) };
  if (opts.slug) body.type = TYPE_BASE + opts.slug;
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/problem+json", "X-Request-ID": requestId, ...opts.headers },
  });
}

export function zodFieldErrors(error: ZodError, prefix?: string): FieldError[] {
  return error.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].filter(Boolean).join("."),
    message: i.message,
  }));
}

/** The one place where thrown errors become responses. Unknown errors never leak details. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof DomainError) {
    return problemResponse(c, err.status, err.message, {
      title: err.title,
      errors: err.errors,
      headers: err.headers,
      slug: err.slug,
      extensions: err.extensions,
    });
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const detail =
      status === 400 ? "The request body could not be parsed." : err.message || "Request failed.";
    return problemResponse(c, status, detail);
  }
  console.error(`[${c.get("requestId") ?? "-"}] unhandled error`, err);
  return problemResponse(c, 500, "Something went wrong on our side. Quote the request id when reporting it.");
}
