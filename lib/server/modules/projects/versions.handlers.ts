import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import * as versions from "./project-versions";
import type * as r from "./versions.routes";

export const saveProjectVersion: RouteHandler<typeof r.saveProjectVersion, AppEnv> = async (c) => {
  const version = await versions.saveVersion(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").project_id,
    c.req.valid("json"),
  );
  return c.json(version, 201);
};

export const listProjectVersions: RouteHandler<typeof r.listProjectVersions, AppEnv> = async (c) => {
  const page = c.req.valid("query");
  const { items, total } = await versions.listVersions(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").project_id,
    page,
  );
  return c.json({ items, total, page: page.page, limit: page.limit }, 200);
};

export const compareProjectVersions: RouteHandler<typeof r.compareProjectVersions, AppEnv> = async (c) => {
  const { from, to } = c.req.valid("query");
  const diff = await versions.compareVersions(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").project_id,
    from,
    to,
  );
  return c.json(diff, 200);
};

export const getProjectVersion: RouteHandler<typeof r.getProjectVersion, AppEnv> = async (c) => {
  const { project_id, version_id } = c.req.valid("param");
  return c.json(await versions.getVersion(c.get("db"), currentUser(c).id, project_id, version_id), 200);
};

export const restoreProjectVersion: RouteHandler<typeof r.restoreProjectVersion, AppEnv> = async (c) => {
  const { project_id, version_id } = c.req.valid("param");
  return c.json(await versions.restoreVersion(c.get("db"), currentUser(c).id, project_id, version_id), 201);
};

export const deleteProjectVersion: RouteHandler<typeof r.deleteProjectVersion, AppEnv> = async (c) => {
  const { project_id, version_id } = c.req.valid("param");
  await versions.deleteVersion(c.get("db"), currentUser(c).id, project_id, version_id);
  return c.body(null, 204);
};

export const getLatestProjectVersion: RouteHandler<typeof r.getLatestProjectVersion, AppEnv> = async (c) => {
  return c.json(
    await versions.latestVersion(c.get("db"), currentUser(c).id, c.req.valid("param").project_id),
    200,
  );
};
