import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import * as publicProjects from "./public-projects";
import type * as r from "./public-projects.routes";

export const listPublicProjects: RouteHandler<typeof r.listPublicProjects, AppEnv> = async (c) =>
  c.json(
    await publicProjects.listPublicProjects(c.get("db"), c.req.valid("param").username, c.req.valid("query")),
    200,
  );

export const getPublicProject: RouteHandler<typeof r.getPublicProject, AppEnv> = async (c) => {
  const { username, project_id } = c.req.valid("param");
  return c.json(await publicProjects.readPublicProject(c.get("db"), username, project_id), 200);
};

export const importPublicProject: RouteHandler<typeof r.importPublicProject, AppEnv> = async (c) => {
  const { username, project_id } = c.req.valid("param");
  const project = await publicProjects.importPublicProject(
    c.get("db"),
    currentUser(c).id,
    username,
    project_id,
    c.req.valid("json")?.name,
  );
  return c.json(project, 201);
};
