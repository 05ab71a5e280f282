import type { RouteHandler, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { deploymentCaller } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import type { predictBodySchema } from "./deployments.schemas";
import * as inference from "./inference";
import type * as r from "./inference.routes";

/** predict and batch: the same call, with up to 100 or up to 10,000 instances (the routes' schemas). */
async function predictInstances(c: Context<AppEnv>, deploymentId: string, inputs: unknown[]) {
  c.set("inferenceInstances", inputs.length);
  return inference.predict(c.get("db"), deploymentCaller(c), deploymentId, inputs);
}

/**
 * predict's JSON body. The route also declares a multipart body (pictures, answered by
 * inference-form.ts before validation), which hides the JSON body's type from the route's input.
 */
function predictJson(c: Context<AppEnv>): z.output<typeof predictBodySchema> {
  return c.req.valid("json" as never);
}

export const predict: RouteHandler<typeof r.predict, AppEnv> = async (c) =>
  c.json(await predictInstances(c, c.req.valid("param").deployment_id, predictJson(c).inputs), 200);

export const batchPredict: RouteHandler<typeof r.batchPredict, AppEnv> = async (c) =>
  c.json(await predictInstances(c, c.req.valid("param").deployment_id, c.req.valid("json").inputs), 200);

export const getInferenceSchema: RouteHandler<typeof r.getInferenceSchema, AppEnv> = async (c) =>
  c.json(
    await inference.inferenceSchema(c.get("db"), deploymentCaller(c), c.req.valid("param").deployment_id),
    200,
  );

export const getInferenceHealth: RouteHandler<typeof r.getInferenceHealth, AppEnv> = async (c) =>
  c.json(
    await inference.inferenceHealth(c.get("db"), deploymentCaller(c), c.req.valid("param").deployment_id),
    200,
  );
