import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import * as deployments from "./deployments";
import type * as r from "./deployments.routes";

export const createDeployment: RouteHandler<typeof r.createDeployment, AppEnv> = async (c) => {
  const d = await deployments.createDeployment(c.get("db"), currentUser(c).id, c.req.valid("json"));
  return c.json(d, 201, { Location: `/api/v1/deployments/${encodeURIComponent(d.id)}` });
};

export const deployModelVersion: RouteHandler<typeof r.deployModelVersion, AppEnv> = async (c) => {
  const d = await deployments.deployModelVersion(c.get("db"), currentUser(c).id, c.req.valid("json"));
  return c.json(d, 201, { Location: `/api/v1/deployments/${encodeURIComponent(d.id)}` });
};

export const listDeployments: RouteHandler<typeof r.listDeployments, AppEnv> = async (c) =>
  c.json(await deployments.listDeployments(c.get("db"), currentUser(c).id, c.req.valid("query")), 200);

export const getDeployment: RouteHandler<typeof r.getDeployment, AppEnv> = async (c) =>
  c.json(
    await deployments.getDeployment(c.get("db"), currentUser(c).id, c.req.valid("param").deployment_id),
    200,
  );

export const updateDeployment: RouteHandler<typeof r.updateDeployment, AppEnv> = async (c) =>
  c.json(
    await deployments.updateDeployment(
      c.get("db"),
      currentUser(c).id,
      c.req.valid("param").deployment_id,
      c.req.valid("json"),
    ),
    200,
  );

export const deleteDeployment: RouteHandler<typeof r.deleteDeployment, AppEnv> = async (c) => {
  await deployments.deleteDeployment(c.get("db"), currentUser(c).id, c.req.valid("param").deployment_id);
  return c.body(null, 204);
};

export const rotateDeploymentKey: RouteHandler<typeof r.rotateDeploymentKey, AppEnv> = async (c) =>
  c.json(
    await deployments.rotateKey(c.get("db"), currentUser(c).id, c.req.valid("param").deployment_id),
    200,
  );

export const pauseDeployment: RouteHandler<typeof r.pauseDeployment, AppEnv> = async (c) =>
  c.json(
    await deployments.setPaused(c.get("db"), currentUser(c).id, c.req.valid("param").deployment_id, true),
    200,
  );

export const resumeDeployment: RouteHandler<typeof r.resumeDeployment, AppEnv> = async (c) =>
  c.json(
    await deployments.setPaused(c.get("db"), currentUser(c).id, c.req.valid("param").deployment_id, false),
    200,
  );

export const listDeploymentRevisions: RouteHandler<typeof r.listDeploymentRevisions, AppEnv> = async (c) =>
  c.json(
    await deployments.listRevisions(c.get("db"), currentUser(c).id, c.req.valid("param").deployment_id),
    200,
  );

export const getDeploymentHealth: RouteHandler<typeof r.getDeploymentHealth, AppEnv> = async (c) =>
  c.json(
    await deployments.deploymentHealth(c.get("db"), currentUser(c).id, c.req.valid("param").deployment_id),
    200,
  );
