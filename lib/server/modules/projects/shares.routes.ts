import { createRoute } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonContent, security } from "../../http/openapi";
import { pagedSchema, pageQuerySchema } from "../../http/paging";
import {
  createdShareSchema,
  importSharedBodySchema,
  projectIdParams,
  projectSchema,
  sharedProjectSchema,
  shareParams,
  shareSchema,
  tokenParams,
} from "./projects.schemas";

const tags = ["Projects"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };

export const createProjectShare = createRoute({
  method: "post",
  path: "/api/v1/projects/{project_id}/share",
  operationId: "createProjectShare",
  tags,
  summary: "Create a share link; its token is shown only in this response",
  ...auth,
  request: { params: projectIdParams },
  responses: { 201: jsonContent(createdShareSchema, "Created"), ...errors(401, 403, 404) },
});

export const listProjectShares = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}/shares",
  operationId: "listProjectShares",
  tags,
  summary: "List a project's share links, revoked ones included (no tokens)",
  ...auth,
  request: { params: projectIdParams, query: pageQuerySchema },
  responses: {
    200: jsonContent(pagedSchema(shareSchema, "ProjectSharePage"), "A page of share links"),
    ...errors(401, 403, 404, 422),
  },
});

export const revokeProjectShare = createRoute({
  method: "delete",
  path: "/api/v1/projects/{project_id}/shares/{share_id}",
  operationId: "revokeProjectShare",
  tags,
  summary: "Revoke a share link; its token stops working at once",
  ...auth,
  request: { params: shareParams },
  responses: { 204: { description: "Revoked" }, ...errors(401, 403, 404) },
});

export const getSharedProject = createRoute({
  method: "get",
  path: "/api/v1/shared/{token}",
  operationId: "getSharedProject",
  tags,
  summary: "Read a shared project (no credential needed)",
  security: security([...userCreds], true),
  middleware: [credentials([...userCreds], { optional: true })],
  request: { params: tokenParams },
  responses: { 200: jsonContent(sharedProjectSchema, "The shared project"), ...errors(404) },
});

export const importSharedProject = createRoute({
  method: "post",
  path: "/api/v1/shared/{token}/import",
  operationId: "importSharedProject",
  tags,
  summary: "Copy a shared project (graph, configuration, thumbnail) into a new project of the caller",
  ...auth,
  request: {
    params: tokenParams,
    body: { required: false, content: { "application/json": { schema: importSharedBodySchema } } },
  },
  responses: { 201: jsonContent(projectSchema, "The new project"), ...errors(400, 401, 403, 404, 422) },
});
