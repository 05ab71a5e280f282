import type { RouteHandler } from "@hono/zod-openapi";
import { NotFoundError } from "../../errors";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { planOf } from "../../plans";
import type * as r from "./account.routes";
import { findUserByUsername } from "./accounts";
import * as keys from "./api-keys";
import { creditSummary } from "./credits";

export const createApiKey: RouteHandler<typeof r.createApiKey, AppEnv> = async (c) => {
  const created = await keys.createApiKey(c.get("db"), currentUser(c), c.req.valid("json").name);
  return c.json(created, 201);
};

export const listApiKeys: RouteHandler<typeof r.listApiKeys, AppEnv> = async (c) => {
  return c.json({ items: await keys.listApiKeys(c.get("db"), currentUser(c).id) }, 200);
};

export const revokeApiKey: RouteHandler<typeof r.revokeApiKey, AppEnv> = async (c) => {
  await keys.revokeApiKey(c.get("db"), currentUser(c).id, c.req.valid("param").key_id);
  return c.body(null, 204);
};

export const getApiKeyUsage: RouteHandler<typeof r.getApiKeyUsage, AppEnv> = async (c) => {
  const usage = await keys.apiKeyUsageView(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").key_id,
    c.req.valid("query").days,
  );
  return c.json(usage, 200);
};

export const getEntitlements: RouteHandler<typeof r.getEntitlements, AppEnv> = async (c) => {
  const plan = planOf(currentUser(c).plan);
  return c.json(
    {
      plan: { id: plan.id, name: plan.name },
      features: plan.features,
      limits: plan.limits,
      monthly_credits: plan.monthly_credits,
    },
    200,
  );
};

export const getCredits: RouteHandler<typeof r.getCredits, AppEnv> = async (c) => {
  const { balance, recent } = await creditSummary(c.get("db"), currentUser(c).id);
  return c.json({ balance, currency: "credits" as const, recent }, 200);
};

export const getProfile: RouteHandler<typeof r.getProfile, AppEnv> = async (c) => {
  const user = await findUserByUsername(c.get("db"), c.req.valid("param").username);
  if (!user) throw new NotFoundError("User");
  return c.json(
    {
      username: user.username,
      display_name: user.displayName,
      bio: user.bio,
      joined_at: user.createdAt.toISOString(),
    },
    200,
  );
};
