import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { createRouter, jsonContent } from "./openapi";

const healthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    database: z.object({
      status: z.enum(["up", "down"]),
      kind: z.string(),
      latency_ms: z.number().nullable(),
    }),
    uptime_s: z.number(),
  })
  .openapi("Health");

const route = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  tags: ["Health"],
  summary: "Public health check (no credential)",
  security: [],
  responses: {
    200: jsonContent(healthSchema, "Healthy"),
    503: jsonContent(healthSchema, "The database cannot be queried"),
  },
});

const started = Date.now();

export const healthRouter = createRouter().openapi(route, async (c) => {
  const kind = process.env.DATABASE_URL ? "postgresql" : "embedded";
  const t0 = performance.now();
  let up = false;
  try {
    await c.get("db").execute(sql`select 1`);
    up = true;
  } catch {
    up = false;
  }
  const body = {
    status: up ? ("ok" as const) : ("degraded" as const),
    version: process.env.npm_package_version ?? "0.1.0",
    database: {
      status: up ? ("up" as const) : ("down" as const),
      kind,
      latency_ms: up ? Math.round((performance.now() - t0) * 100) / 100 : null,
    },
    uptime_s: Math.round((Date.now() - started) / 1000),
  };
  return c.json(body, up ? 200 : 503);
});
