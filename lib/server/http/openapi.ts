import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, CredentialKind } from "./env";
import { problemResponse, zodFieldErrors } from "./problem";

export const problemSchema = z
  .object({
    type: z.string().openapi({ example: "https://layerline.dev/problems/validation-failed" }),
    title: z.string().openapi({ example: "Validation failed" }),
    status: z.number().int().openapi({ example: 422 }),
    detail: z.string(),
    request_id: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    used_bytes: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Storage quota problems: bytes the account stores" }),
    limit_bytes: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Size problems (402 storage-quota, 413): the limit that was reached" }),
    requested_bytes: z.number().int().optional().openapi({
      description:
        "Size problems: the declared size, or the bytes received when an undeclared upload was stopped",
    }),
  })
  .openapi("Problem", { description: "RFC 9457 problem details" });

const ERROR_TEXT: Record<number, string> = {
  400: "Malformed request body",
  401: "Missing, unknown, revoked or expired credential",
  402: "The plan's limit is reached",
  403: "Credential of the wrong kind, or action not allowed",
  404: "Not found (or not yours)",
  409: "Conflict with the resource's state",
  413: "Payload too large",
  422: "Validation failed",
  429: "Rate limited; see Retry-After",
};

/** Problem-details response entries for a route's error statuses. */
export function errors(...statuses: number[]) {
  const out: Record<
    number,
    { description: string; content: { "application/problem+json": { schema: typeof problemSchema } } }
  > = {};
  for (const s of [...statuses, 429]) {
    out[s] = {
      description: ERROR_TEXT[s] ?? "Error",
      content: { "application/problem+json": { schema: problemSchema } },
    };
  }
  return out;
}

export function jsonContent<T extends z.ZodTypeAny>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

export function jsonBody<T extends z.ZodTypeAny>(schema: T) {
  return { required: true, content: { "application/json": { schema } } };
}

const SCHEME_OF: Record<CredentialKind, string> = {
  api_key: "personalApiKey",
  session: "webSession",
  deployment_key: "deploymentKey",
  stream_token: "streamToken",
  upload_token: "uploadToken",
};

/** OpenAPI `security` for a set of accepted credentials (empty object entry = no credential). */
export function security(kinds: CredentialKind[], optional = false) {
  const list: Record<string, string[]>[] = kinds.map((k) => ({ [SCHEME_OF[k]]: [] }));
  if (optional) list.push({});
  return list;
}

export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        return problemResponse(c, 422, "The request did not pass validation.", {
          title: "Validation failed",
          errors: zodFieldErrors(result.error, result.target === "json" ? "body" : result.target),
        });
      }
    },
  });
}

export function registerSecuritySchemes(app: OpenAPIHono<AppEnv>) {
  const r = app.openAPIRegistry;
  r.registerComponent("securitySchemes", "personalApiKey", {
    type: "http",
    scheme: "bearer",
    description: "Personal API key (`lk_…`), created on the Account page. Shown once.",
  });
  r.registerComponent("securitySchemes", "webSession", {
    type: "apiKey",
    in: "cookie",
    name: "layerline_session",
    description:
      "Web session cookie set by POST /api/auth/login. Unsafe methods need a same-origin Origin header.",
  });
  r.registerComponent("securitySchemes", "deploymentKey", {
    type: "http",
    scheme: "bearer",
    description: "Deployment key (`ldk_…`), returned once at deployment creation or key rotation.",
  });
  r.registerComponent("securitySchemes", "streamToken", {
    type: "apiKey",
    in: "query",
    name: "token",
    description:
      "Short-lived stream token (`lst_…`) from a stream-access-token route; also accepted as Bearer.",
  });
  r.registerComponent("securitySchemes", "uploadToken", {
    type: "http",
    scheme: "bearer",
    description: "Upload token (`lut_…`) bound to one training job, from its stream-token route.",
  });
}

/** A path parameter holding an opaque id (1–`max` characters), documented under its name. */
export function pathParam(name: string, opts: { max?: number; example?: string; description?: string } = {}) {
  return z
    .string()
    .min(1)
    .max(opts.max ?? 64)
    .openapi({
      param: { name, in: "path", ...(opts.description ? { description: opts.description } : {}) },
      ...(opts.example ? { example: opts.example } : {}),
    });
}

/** The optional Idempotency-Key request header of create routes (checked by the idempotency middleware). */
export const idempotencyKeyHeaders = z.object({
  "Idempotency-Key": z.string().max(255).optional().openapi({
    description: "Retry-safe key, 1–255 visible ASCII: a retry with the same key and body replays",
  }),
});

type OpenApiConfig = Parameters<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>[0];
type OpenApiDocument = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;

/**
 * The app's OpenAPI 3.1 document, as served and dumped. The generator renders `.nullable()` on a
 * registered (`$ref`) schema as `allOf: [{$ref}, {type: ["object", "null"]}]`, which no `null`
 * satisfies (the `$ref` branch still requires an object): every such member is rewritten here to
 * `anyOf: [{$ref}, {type: "null"}]`, so the fix holds for every current and future nullable reference.
 */
export function openApiDocument(app: OpenAPIHono<AppEnv>, config: OpenApiConfig): OpenApiDocument {
  return credentialResponses(bodyLimitResponses(nullableRefs(app.getOpenAPI31Document(config))));
}

/**
 * Operations that read a credential (their `security` names a scheme, even when a credential is
 * optional) document what the credentials middleware answers: 401 for an unknown, revoked or expired
 * one, 403 for a credential of a kind the route does not accept (or a cross-site session request).
 */
function credentialResponses(doc: OpenApiDocument): OpenApiDocument {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, OperationLike>)) {
      if (!op?.responses || !op.security?.some((s) => Object.keys(s).length > 0)) continue;
      for (const status of [401, 403]) {
        if (String(status) in op.responses) continue;
        Object.assign(op.responses, { [status]: problemRef(status) });
      }
    }
  }
  return doc;
}

interface OperationLike {
  requestBody?: unknown;
  security?: Record<string, string[]>[];
  responses?: object;
}

function problemRef(status: number) {
  return {
    description: ERROR_TEXT[status],
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
  };
}

/**
 * Every request body passes the app-wide size limit (counted while streaming) before its route sees
 * it: each operation that takes a body documents the 413 problem it may answer.
 */
function bodyLimitResponses(doc: OpenApiDocument): OpenApiDocument {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, OperationLike>)) {
      if (!op?.requestBody || !op.responses || "413" in op.responses) continue;
      Object.assign(op.responses, { 413: problemRef(413) });
    }
  }
  return doc;
}

/** Rewrites every `allOf: [{$ref}, {type: [..., "null"], ...}]` in `node` (in place) to a nullable `anyOf`. */
export function nullableRefs<T>(node: T): T {
  if (Array.isArray(node)) {
    for (const item of node) nullableRefs(item);
    return node;
  }
  if (!node || typeof node !== "object") return node;
  const obj = node as Record<string, unknown>;
  for (const value of Object.values(obj)) nullableRefs(value);
  const allOf = obj.allOf;
  if (!Array.isArray(allOf) || allOf.length !== 2) return node;
  const [ref, extra] = allOf as [Record<string, unknown>, Record<string, unknown>];
  if (typeof ref?.$ref !== "string" || !Array.isArray(extra?.type) || !extra.type.includes("null"))
    return node;
  const { type: _type, ...annotations } = extra;
  delete obj.allOf;
  Object.assign(obj, annotations, { anyOf: [ref, { type: "null" }] });
  return node;
}
