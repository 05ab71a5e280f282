import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import * as codegen from "./codegen";
import type * as r from "./codegen.routes";

export const generateProjectCode: RouteHandler<typeof r.generateProjectCode, AppEnv> = async (c) => {
  const { project_id } = c.req.valid("param");
  const { target, async_mode } = c.req.valid("query");
  const userId = currentUser(c).id;
  if (!async_mode)
    return c.json(await codegen.generateProjectCode(c.get("db"), userId, project_id, target), 200);
  const task = await codegen.startCodegenTask(c.get("db"), userId, project_id, target);
  const statusUrl = `/api/v1/projects/${encodeURIComponent(project_id)}/code-status/${task.task_id}`;
  return c.json({ task_id: task.task_id, status_url: statusUrl, state: task.state }, 202, {
    Location: statusUrl,
  });
};

export const previewProjectCode: RouteHandler<typeof r.previewProjectCode, AppEnv> = async (c) => {
  const { project_id } = c.req.valid("param");
  const { target } = c.req.valid("query");
  return c.json(await codegen.generateProjectCode(c.get("db"), currentUser(c).id, project_id, target), 200);
};

export const validateProjectCode: RouteHandler<typeof r.validateProjectCode, AppEnv> = async (c) => {
  const { project_id } = c.req.valid("param");
  const { target } = c.req.valid("query");
  return c.json(await codegen.validateProjectCode(c.get("db"), currentUser(c).id, project_id, target), 200);
};

export const getCodegenTask: RouteHandler<typeof r.getCodegenTask, AppEnv> = async (c) => {
  const { project_id, task_id } = c.req.valid("param");
  return c.json(await codegen.getCodegenTask(c.get("db"), currentUser(c).id, project_id, task_id), 200);
};

export const cancelCodegenTask: RouteHandler<typeof r.cancelCodegenTask, AppEnv> = async (c) => {
  const { project_id, task_id } = c.req.valid("param");
  return c.json(await codegen.cancelCodegenTask(c.get("db"), currentUser(c).id, project_id, task_id), 200);
};

export const downloadProjectCode: RouteHandler<typeof r.downloadProjectCode, AppEnv> = async (c) => {
  const { project_id } = c.req.valid("param");
  const { target } = c.req.valid("query");
  const zip = await codegen.projectCodeZip(c.get("db"), currentUser(c).id, project_id, target);
  return c.body(zip.stream, 200, {
    "Content-Type": "application/zip",
    "Content-Disposition": `attachment; filename="${zip.filename}"`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
};
