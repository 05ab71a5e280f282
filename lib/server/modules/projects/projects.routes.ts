import { createRoute } from "@hono/zod-openapi";
import { DAG_MAX_BYTES } from "../../../ml/dag-format";
import { allowJsonBody } from "../../http/body-limit";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, security } from "../../http/openapi";
import { pagedSchema } from "../../http/paging";
import {
  bulkDeleteBodySchema,
  bulkDeleteResultSchema,
  createProjectBodySchema,
  duplicateBodySchema,
  listProjectsQuerySchema,
  projectIdParams,
  projectSchema,
  projectSummarySchema,
  updateProjectBodySchema,
} from "./projects.schemas";

const tags = ["Projects"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };

export const createProject = createRoute({
  method: "post",
  path: "/api/v1/projects",
  operationId: "createProject",
  tags,
  summary: "Create a project: empty, from a template or graph, or sized to a dataset",
  ...auth,
  middleware: [...auth.middleware, allowJsonBody(DAG_MAX_BYTES)],
  request: { body: jsonBody(createProjectBodySchema) },
  responses: {
    201: jsonContent(projectSchema, "Created"),
    ...errors(400, 401, 403, 404, 422),
  },
});

export const listProjects = createRoute({
  method: "get",
  path: "/api/v1/projects",
  operationId: "listProjects",
  tags,
  summary: "List the caller's projects",
  ...auth,
  request: { query: listProjectsQuerySchema },
  responses: {
    200: jsonContent(pagedSchema(projectSummarySchema, "ProjectPage"), "A page of projects"),
    ...errors(401, 403, 422),
  },
});

export const getProject = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}",
  operationId: "getProject",
  tags,
  summary: "Get a project with its graph, configuration and an analysis summary",
  ...auth,
  request: { params: projectIdParams },
  responses: { 200: jsonContent(projectSchema, "The project"), ...errors(401, 403, 404) },
});

export const updateProject = createRoute({
  method: "put",
  path: "/api/v1/projects/{project_id}",
  operationId: "updateProject",
  tags,
  summary: "Update a project's name, description, graph or configuration (autosave; records no version)",
  ...auth,
  middleware: [...auth.middleware, allowJsonBody(DAG_MAX_BYTES)],
  request: { params: projectIdParams, body: jsonBody(updateProjectBodySchema) },
  responses: { 200: jsonContent(projectSchema, "Updated"), ...errors(400, 401, 403, 404, 422) },
});

export const deleteProject = createRoute({
  method: "delete",
  path: "/api/v1/projects/{project_id}",
  operationId: "deleteProject",
  tags,
  summary: "Delete a project with its versions, share links and thumbnail",
  ...auth,
  request: { params: projectIdParams },
  responses: { 204: { description: "Deleted" }, ...errors(401, 403, 404) },
});

export const duplicateProject = createRoute({
  method: "post",
  path: "/api/v1/projects/{project_id}/duplicate",
  operationId: "duplicateProject",
  tags,
  summary:
    "Copy a project's graph, configuration, description and thumbnail into a new project (not its versions or shares)",
  ...auth,
  request: {
    params: projectIdParams,
    body: { required: false, content: { "application/json": { schema: duplicateBodySchema } } },
  },
  responses: { 201: jsonContent(projectSchema, "The copy"), ...errors(400, 401, 403, 404, 422) },
});

export const bulkDeleteProjects = createRoute({
  method: "post",
  path: "/api/v1/projects/bulk-delete",
  operationId: "bulkDeleteProjects",
  tags,
  summary: "Delete 1 to 100 projects; ids that cannot be deleted are reported in `failed`",
  ...auth,
  request: { body: jsonBody(bulkDeleteBodySchema) },
  responses: {
    200: jsonContent(bulkDeleteResultSchema, "What was deleted and what was not"),
    ...errors(400, 401, 403, 422),
  },
});
