/**
 * Response schemas of the account area (API keys, usage, plan, credits, profile): shared by the routes
 * (the OpenAPI document) and the account services.
 */
import { z } from "@hono/zod-openapi";

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
