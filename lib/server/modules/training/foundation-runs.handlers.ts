import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import * as runs from "./foundation-runs";
import type * as r from "./foundation-runs.routes";

const runPath = (id: string) => `/api/v1/training/foundation-runs/${encodeURIComponent(id)}`;

export const createFoundationRun: RouteHandler<typeof r.createFoundationRun, AppEnv> = async (c) => {
  const run = await runs.createFoundationRun(c.get("db"), currentUser(c), c.req.valid("json"));
  return c.json(run, 201, { Location: runPath(run.id) });
};

export const getFoundationRun: RouteHandler<typeof r.getFoundationRun, AppEnv> = async (c) =>
  c.json(await runs.getFoundationRun(c.get("db"), currentUser(c).id, c.req.valid("param").run_id), 200);
