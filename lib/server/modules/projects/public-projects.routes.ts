import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonContent, pathParam, security } from "../../http/openapi";
import { pagedSchema, pageQuerySchema } from "../../http/paging";
import {
  importSharedBodySchema,
  projectSchema,
  publicProjectSchema,
  publicProjectSummarySchema,
} from "./projects.schemas";

const tags = ["Projects"];
const userCreds = ["api_key", "session"] as const;
const anyone = {
  security: security([...userCreds], true),
  middleware: [credentials([...userCreds], { optional: true })],
};
const usernameParams = z.object({ username: pathParam("username") });
const publicProjectParams = usernameParams.extend({ project_id: pathParam("project_id") });

export const listPublicProjects = createRoute({
  method: "get",
  path: "/api/v1/users/{username}/projects",
  operationId: "listPublicProjects",
  tags,
  summary: "A user's public projects (no credential needed)",
  description:
    "The projects the user made public (`visibility: public`), most recently updated first. An unknown user " +
    "is a 404.",
  ...anyone,
  request: { params: usernameParams, query: pageQuerySchema },
  responses: {
    200: jsonContent(pagedSchema(publicProjectSummarySchema, "PublicProjectPage"), "Public projects"),
    ...errors(404, 422),
  },
});

export const getPublicProject = createRoute({
  method: "get",
  path: "/api/v1/users/{username}/projects/{project_id}",
  operationId: "getPublicProject",
  tags,
  summary: "Read a public project (no credential needed)",
  description: "Its diagram, configuration and analysis. A private or unknown project is a 404.",
  ...anyone,
  request: { params: publicProjectParams },
  responses: { 200: jsonContent(publicProjectSchema, "The public project"), ...errors(404) },
});

export const importPublicProject = createRoute({
  method: "post",
  path: "/api/v1/users/{username}/projects/{project_id}/import",
  operationId: "importPublicProject",
  tags,
  summary: "Copy a public project into a new (private) project of the caller",
  security: security([...userCreds]),
  middleware: [credentials([...userCreds])],
  request: {
    params: publicProjectParams,
    body: { required: false, content: { "application/json": { schema: importSharedBodySchema } } },
  },
  responses: { 201: jsonContent(projectSchema, "The new project"), ...errors(400, 401, 403, 404, 422) },
});
