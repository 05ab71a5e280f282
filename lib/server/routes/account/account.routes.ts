import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, pathParam, security } from "../../http/openapi";

const tags = ["Account"];
const userCreds = ["api_key", "session"] as const;

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().openapi({ description: "First characters of the key, to tell keys apart" }),
    created_at: z.string().openapi({ format: "date-time" }),
    last_used_at: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("ApiKey");

export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().openapi({ description: "The secret key. Shown only in this response." }) })
  .openapi("CreatedApiKey");

export const apiKeyUsageSchema = z
  .object({
    key_id: z.string(),
    name: z.string(),
    prefix: z.string(),
    revoked: z.boolean(),
    last_used_at: z.string().nullable(),
    period_days: z.number().int(),
    total_requests: z.number().int(),
    total_errors: z.number().int(),
    daily: z.array(z.object({ date: z.string(), requests: z.number().int(), errors: z.number().int() })),
  })
  .openapi("ApiKeyUsage");

export const entitlementsSchema = z
  .object({
    plan: z.object({ id: z.enum(["free", "pro", "team"]), name: z.string() }),
    features: z.record(z.string(), z.boolean()),
    limits: z.record(z.string(), z.number()),
    monthly_credits: z.number(),
  })
  .openapi("Entitlements");

export const creditsSchema = z
  .object({
    balance: z.number().openapi({ description: "Credits available (sum of the ledger)" }),
    currency: z.literal("credits"),
    recent: z.array(
      z.object({
        id: z.string(),
        amount: z.number(),
        reason: z.string(),
        reference: z.string().nullable(),
        created_at: z.string(),
      }),
    ),
  })
  .openapi("Credits");

export const profileSchema = z
  .object({
    username: z.string(),
    display_name: z.string().nullable(),
    bio: z.string().nullable(),
    joined_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("UserProfile");

const keyIdParam = z.object({
  key_id: pathParam("key_id"),
});

export const createApiKey = createRoute({
  method: "post",
  path: "/api/v1/users/me/api-keys",
  operationId: "createApiKey",
  tags,
  summary: "Create a personal API key (web session only); the key is shown once",
  security: security(["session"]),
  middleware: [credentials(["session"])],
  request: {
    body: jsonBody(z.object({ name: z.string().trim().min(1).max(80) }).openapi("CreateApiKeyRequest")),
  },
  responses: { 201: jsonContent(createdApiKeySchema, "Created"), ...errors(400, 401, 402, 403, 422) },
});

export const listApiKeys = createRoute({
  method: "get",
  path: "/api/v1/users/me/api-keys",
  operationId: "listApiKeys",
  tags,
  summary: "List active personal API keys (web session only; no secrets)",
  security: security(["session"]),
  middleware: [credentials(["session"])],
  responses: { 200: jsonContent(z.object({ items: z.array(apiKeySchema) }), "Keys"), ...errors(401, 403) },
});

export const revokeApiKey = createRoute({
  method: "delete",
  path: "/api/v1/users/me/api-keys/{key_id}",
  operationId: "revokeApiKey",
  tags,
  summary: "Revoke a personal API key (web session only)",
  security: security(["session"]),
  middleware: [credentials(["session"])],
  request: { params: keyIdParam },
  responses: { 204: { description: "Revoked" }, ...errors(401, 403, 404) },
});

export const getApiKeyUsage = createRoute({
  method: "get",
  path: "/api/v1/users/me/api-keys/{key_id}/usage",
  operationId: "getApiKeyUsage",
  tags,
  summary: "Usage of one API key, per day",
  security: security([...userCreds]),
  middleware: [credentials([...userCreds])],
  request: {
    params: keyIdParam,
    query: z.object({
      days: z.coerce.number().int().min(1).max(90).default(30).openapi({ description: "Days back (1–90)" }),
    }),
  },
  responses: { 200: jsonContent(apiKeyUsageSchema, "Usage"), ...errors(401, 403, 404, 422) },
});

export const getEntitlements = createRoute({
  method: "get",
  path: "/api/v1/users/me/entitlements",
  operationId: "getEntitlements",
  tags,
  summary: "The plan's features and limits",
  security: security([...userCreds]),
  middleware: [credentials([...userCreds])],
  responses: { 200: jsonContent(entitlementsSchema, "Entitlements"), ...errors(401, 403) },
});

export const getCredits = createRoute({
  method: "get",
  path: "/api/v1/users/me/credits",
  operationId: "getCredits",
  tags,
  summary: "Credit balance and recent ledger entries",
  security: security([...userCreds]),
  middleware: [credentials([...userCreds])],
  responses: { 200: jsonContent(creditsSchema, "Credits"), ...errors(401, 403) },
});

export const getProfile = createRoute({
  method: "get",
  path: "/api/v1/users/{username}/profile",
  operationId: "getUserProfile",
  tags,
  summary: "Public profile of a user (no credential needed)",
  security: security([...userCreds], true),
  middleware: [credentials([...userCreds], { optional: true })],
  request: {
    params: z.object({
      username: pathParam("username"),
    }),
  },
  responses: { 200: jsonContent(profileSchema, "Profile"), ...errors(404) },
});
