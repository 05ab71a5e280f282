import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import type * as r from "./catalog.routes";
import { getBaseModel, listCatalog } from "./views";

export const listFoundationCatalog: RouteHandler<typeof r.listFoundationCatalog, AppEnv> = async (c) =>
  c.json(await listCatalog(c.get("db"), currentUser(c).id, c.req.valid("query")), 200);

export const getFoundationCatalogModel: RouteHandler<typeof r.getFoundationCatalogModel, AppEnv> = async (
  c,
) => c.json(await getBaseModel(c.get("db"), currentUser(c).id, c.req.valid("param").base_model_id), 200);
