import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { paged } from "../../http/paging";
import * as shares from "./project-shares";
import type * as r from "./shares.routes";

export const createProjectShare: RouteHandler<typeof r.createProjectShare, AppEnv> = async (c) => {
  return c.json(
    await shares.createShare(c.get("db"), currentUser(c).id, c.req.valid("param").project_id),
    201,
  );
};

export const listProjectShares: RouteHandler<typeof r.listProjectShares, AppEnv> = async (c) => {
  const page = c.req.valid("query");
  const { items, total } = await shares.listShares(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").project_id,
    page,
  );
  return c.json(paged(items, total, page), 200);
};

export const revokeProjectShare: RouteHandler<typeof r.revokeProjectShare, AppEnv> = async (c) => {
  const { project_id, share_id } = c.req.valid("param");
  await shares.revokeShare(c.get("db"), currentUser(c).id, project_id, share_id);
  return c.body(null, 204);
};

export const getSharedProject: RouteHandler<typeof r.getSharedProject, AppEnv> = async (c) => {
  const shared = await shares.readSharedProject(c.get("db"), c.req.valid("param").token);
  c.header("Cache-Control", "no-store");
  return c.json(shared, 200);
};

export const importSharedProject: RouteHandler<typeof r.importSharedProject, AppEnv> = async (c) => {
  const project = await shares.importSharedProject(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").token,
    c.req.valid("json").name,
  );
  return c.json(project, 201);
};
