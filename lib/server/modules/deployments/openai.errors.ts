/**
 * Errors of the `/v1` routes in OpenAI's shape, `{"error": {message, type, param, code}}`, instead of
 * problem details: the router's own error handler and validation hook (the official clients parse
 * this shape). Domain errors keep their status (a validation 422 becomes OpenAI's 400) and headers
 * (Retry-After, WWW-Authenticate); unknown errors never leak details.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import { DomainError } from "../../errors";

const TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "invalid_request_error",
  413: "invalid_request_error",
  429: "rate_limit_error",
  503: "server_error",
};

const CODES: Record<number, string> = {
  401: "invalid_api_key",
  403: "insufficient_permissions",
  413: "request_too_large",
  429: "rate_limit_exceeded",
  503: "deployment_unavailable",
};

export function openAIErrorResponse(
  c: Context,
  status: number,
  message: string,
  opts: { code?: string | null; param?: string | null; headers?: Record<string, string> } = {},
): Response {
  const body = {
    error: {
      message,
      type: TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error"),
      param: opts.param ?? null,
      code: opts.code ?? CODES[status] ?? null,
    },
  };
  const requestId = (c.get("requestId") as string | undefined) ?? "";
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "X-Request-ID": requestId, ...opts.headers },
  });
}

export function handleOpenAIError(err: Error, c: Context): Response {
  if (err instanceof DomainError) {
    const status = err.status === 422 ? 400 : err.status;
    return openAIErrorResponse(c, status, err.message, {
      code: err.slug ?? null,
      param: err.errors?.[0]?.path ?? null,
      headers: err.headers,
    });
  }
  if (err instanceof HTTPException) {
    const message =
      err.status === 400 ? "The request body is not valid JSON." : err.message || "Request failed.";
    return openAIErrorResponse(c, err.status, message);
  }
  console.error(`[${c.get("requestId") ?? "-"}] unhandled /v1 error`, err);
  return openAIErrorResponse(
    c,
    500,
    "Something went wrong on our side. Quote the X-Request-ID when reporting it.",
  );
}

/** A request that fails its zod schema: 400 naming the first bad parameter. */
export function openAIValidationResponse(c: Context, error: ZodError): Response {
  const issue = error.issues[0];
  const param = issue ? issue.path.map(String).join(".") : null;
  const message = issue
    ? `Invalid ${param ? `'${param}'` : "request"}: ${issue.message}`
    : "Invalid request.";
  return openAIErrorResponse(c, 400, message, { param: param || null, code: "invalid_value" });
}
