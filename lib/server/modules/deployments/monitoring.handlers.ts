import type { RouteHandler } from "@hono/zod-openapi";
import { NotFoundError } from "../../errors";
import { deploymentEventStream } from "../../events/deployment-stream";
import { lastEventIdFrom } from "../../events/sse";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { mintStreamToken } from "../account/training-tokens";
import { getDeployment } from "./deployments";
import { deploymentLogs, deploymentMetrics } from "./monitoring";
import type * as r from "./monitoring.routes";

export const getDeploymentMetrics: RouteHandler<typeof r.getDeploymentMetrics, AppEnv> = async (c) => {
  const d = await getDeployment(c.get("db"), currentUser(c).id, c.req.valid("param").deployment_id);
  return c.json(await deploymentMetrics(c.get("db"), d.id, c.req.valid("query").window), 200);
};

export const getDeploymentLogs: RouteHandler<typeof r.getDeploymentLogs, AppEnv> = async (c) => {
  const d = await getDeployment(c.get("db"), currentUser(c).id, c.req.valid("param").deployment_id);
  return c.json(await deploymentLogs(c.get("db"), d.id, c.req.valid("query")), 200);
};

export const createDeploymentStreamAccessToken: RouteHandler<
  typeof r.createDeploymentStreamAccessToken,
  AppEnv
> = async (c) => {
  const user = currentUser(c);
  const d = await getDeployment(c.get("db"), user.id, c.req.valid("param").deployment_id);
  const { token, expiresAt } = await mintStreamToken(c.get("db"), user.id, d.id);
  const stream_url = `/api/v1/deployments/${encodeURIComponent(d.id)}/stream?token=${token}`;
  return c.json({ token, expires_at: expiresAt.toISOString(), stream_url }, 201);
};

export const streamDeployment: RouteHandler<typeof r.streamDeployment, AppEnv> = async (c) => {
  const { deployment_id } = c.req.valid("param");
  const caller = c.get("caller");
  if (caller.kind !== "stream_token" || caller.subject !== deployment_id)
    throw new NotFoundError("Deployment");
  // Still there and still the token owner's.
  await getDeployment(c.get("db"), caller.ownerId, deployment_id);
  return deploymentEventStream(c.get("db"), deployment_id, {
    lastEventId: lastEventIdFrom(c.req.raw),
    signal: c.req.raw.signal,
  }) as never;
};
