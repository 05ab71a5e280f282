import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { paged } from "../../http/paging";
import * as projects from "./projects";
import type * as r from "./projects.routes";

export const createProject: RouteHandler<typeof r.createProject, AppEnv> = async (c) => {
  const project = await projects.createProject(c.get("db"), currentUser(c).id, c.req.valid("json"));
  return c.json(project, 201);
};

export const listProjects: RouteHandler<typeof r.listProjects, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const { items, total } = await projects.listProjects(c.get("db"), currentUser(c).id, query);
  return c.json(paged(items, total, query), 200);
};

export const getProject: RouteHandler<typeof r.getProject, AppEnv> = async (c) => {
  return c.json(
    await projects.getProject(c.get("db"), currentUser(c).id, c.req.valid("param").project_id),
    200,
  );
};

export const updateProject: RouteHandler<typeof r.updateProject, AppEnv> = async (c) => {
  const updated = await projects.updateProject(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").project_id,
    c.req.valid("json"),
  );
  return c.json(updated, 200);
};

export const deleteProject: RouteHandler<typeof r.deleteProject, AppEnv> = async (c) => {
  await projects.deleteProject(c.get("db"), currentUser(c).id, c.req.valid("param").project_id);
  return c.body(null, 204);
};

export const duplicateProject: RouteHandler<typeof r.duplicateProject, AppEnv> = async (c) => {
  const copy = await projects.duplicateProject(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").project_id,
    c.req.valid("json").name,
  );
  return c.json(copy, 201);
};

export const bulkDeleteProjects: RouteHandler<typeof r.bulkDeleteProjects, AppEnv> = async (c) => {
  return c.json(
    await projects.bulkDeleteProjects(c.get("db"), currentUser(c).id, c.req.valid("json").ids),
    200,
  );
};
