import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/env";
import * as inference from "./inference";
import { ownerCaller } from "./inference-owner";
import type * as r from "./inference-owner.routes";

export const predictAsOwner: RouteHandler<typeof r.predictAsOwner, AppEnv> = async (c) => {
  const id = c.req.valid("param").deployment_id;
  const caller = await ownerCaller(c, id);
  const { inputs } = c.req.valid("json");
  c.set("inferenceInstances", inputs.length);
  return c.json(await inference.predict(c.get("db"), caller, id, inputs), 200);
};

export const getInferenceSchemaAsOwner: RouteHandler<typeof r.getInferenceSchemaAsOwner, AppEnv> = async (
  c,
) => {
  const id = c.req.valid("param").deployment_id;
  return c.json(await inference.inferenceSchema(c.get("db"), await ownerCaller(c, id), id), 200);
};
