import { createRoute } from "@hono/zod-openapi";
import { DAG_MAX_BYTES } from "../../../ml/dag-format";
import { allowJsonBody } from "../../http/body-limit";
import { credentials } from "../../http/credentials";
import { errors, jsonContent, security } from "../../http/openapi";
import { pageQuerySchema } from "../../http/paging";
import {
  compareQuerySchema,
  projectIdParams,
  restoreResultSchema,
  saveVersionBodySchema,
  versionComparisonSchema,
  versionPageSchema,
  versionParams,
  versionSchema,
} from "./projects.schemas";

const tags = ["Architecture versions"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };

export const saveProjectVersion = createRoute({
  method: "post",
  path: "/api/v1/projects/{project_id}/save",
  operationId: "saveProjectVersion",
  tags,
  summary: "Save the project's diagram and configuration as a new version",
  description:
    "A graph or configuration in the body first becomes the project's current state; then the current state " +
    "is recorded as the next version.",
  ...auth,
  middleware: [...auth.middleware, allowJsonBody(DAG_MAX_BYTES)],
  request: {
    params: projectIdParams,
    body: { required: false, content: { "application/json": { schema: saveVersionBodySchema } } },
  },
  responses: { 201: jsonContent(versionSchema, "The new version"), ...errors(400, 401, 403, 404, 422) },
});

export const listProjectVersions = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}/versions",
  operationId: "listProjectVersions",
  tags,
  summary: "List a project's versions, newest first",
  ...auth,
  request: { params: projectIdParams, query: pageQuerySchema },
  responses: { 200: jsonContent(versionPageSchema, "A page of versions"), ...errors(401, 403, 404, 422) },
});

export const compareProjectVersions = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}/versions/compare",
  operationId: "compareProjectVersions",
  tags,
  summary: "What changed between two versions: nodes, edges and configuration",
  ...auth,
  request: { params: projectIdParams, query: compareQuerySchema },
  responses: { 200: jsonContent(versionComparisonSchema, "The differences"), ...errors(401, 403, 404, 422) },
});

export const getProjectVersion = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}/versions/{version_id}",
  operationId: "getProjectVersion",
  tags,
  summary: "Get one version with its graph and configuration",
  ...auth,
  request: { params: versionParams },
  responses: { 200: jsonContent(versionSchema, "The version"), ...errors(401, 403, 404) },
});

export const restoreProjectVersion = createRoute({
  method: "post",
  path: "/api/v1/projects/{project_id}/restore/{version_id}",
  operationId: "restoreProjectVersion",
  tags,
  summary: "Make a version the project's current state, recorded as a new version",
  description: 'The new version carries the message "Restored version N".',
  ...auth,
  request: { params: versionParams },
  responses: {
    201: jsonContent(restoreResultSchema, "The project and the version recording the restore"),
    ...errors(401, 403, 404),
  },
});

export const deleteProjectVersion = createRoute({
  method: "delete",
  path: "/api/v1/projects/{project_id}/versions/{version_id}",
  operationId: "deleteProjectVersion",
  tags,
  summary: "Delete a version (the latest too); the project's current state is kept",
  ...auth,
  request: { params: versionParams },
  responses: { 204: { description: "Deleted" }, ...errors(401, 403, 404) },
});

export const getLatestProjectVersion = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}/latest",
  operationId: "getLatestProjectVersion",
  tags,
  summary: "The project's most recent version (404 when it has none)",
  ...auth,
  request: { params: projectIdParams },
  responses: { 200: jsonContent(versionSchema, "The latest version"), ...errors(401, 403, 404) },
});
