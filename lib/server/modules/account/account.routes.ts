import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, pathParam, security } from "../../http/openapi";
import {
  apiKeySchema,
  apiKeyUsageSchema,
  createdApiKeySchema,
  creditsSchema,
  entitlementsSchema,
  profileSchema,
} from "./account.schemas";

const tags = ["Account"];
const userCreds = ["api_key", "session"] as const;

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
