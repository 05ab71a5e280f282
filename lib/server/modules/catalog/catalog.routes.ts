import { createRoute } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonContent, security } from "../../http/openapi";
import { baseModelListSchema, baseModelParams, baseModelSchema, catalogQuerySchema } from "./catalog.schemas";

const tags = ["Base models"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };

export const listFoundationCatalog = createRoute({
  method: "get",
  path: "/api/v1/foundation-catalog",
  operationId: "listFoundationCatalog",
  tags,
  summary: "List curated base models for fine-tuning",
  description:
    "Models pretrained offline from data shipped with the service (reproducibly, seeded): architecture, " +
    "parameter count, input and output, licence, training data with attribution, measured held-out figures " +
    "and the SHA-256 of the weights. `task` filters. `source=registry` lists your own registry versions that " +
    "can be base models instead, described the same way.",
  ...auth,
  request: { query: catalogQuerySchema },
  responses: { 200: jsonContent(baseModelListSchema, "The base models"), ...errors(401, 403, 422) },
});

export const getFoundationCatalogModel = createRoute({
  method: "get",
  path: "/api/v1/foundation-catalog/{base_model_id}",
  operationId: "getFoundationCatalogModel",
  tags,
  summary: "Get one base model",
  description:
    "A base model of the catalog, or one of your registry model versions (mv_…) or a hub model you can see " +
    "(hub_…) described as a base model: its architecture, head, labels or vocabulary, and figures. 409 when " +
    "that version or hub model carries no PyTorch weights (weights.pt) or no architecture.",
  ...auth,
  request: { params: baseModelParams },
  responses: { 200: jsonContent(baseModelSchema, "The base model"), ...errors(401, 403, 404, 409, 422) },
});
