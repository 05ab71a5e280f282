import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonContent, security } from "../../http/openapi";
import {
  codegenProblemSchema,
  generatedCodeSchema,
  generateQuerySchema,
  projectIdParams,
  targetQuerySchema,
  taskAcceptedSchema,
  taskParams,
  taskSchema,
  validationSchema,
} from "./codegen.schemas";

const tags = ["Code generation"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };
const base = "/api/v1/projects/{project_id}";

/** 422 with one `errors` entry per node problem (node_id, port, code...). */
const invalidGraph = {
  422: {
    description:
      "The graph (or configuration) cannot be turned into code for this target; `errors` lists each problem",
    content: { "application/problem+json": { schema: codegenProblemSchema } },
  },
};

export const generateProjectCode = createRoute({
  method: "post",
  path: `${base}/generate-code`,
  operationId: "generateProjectCode",
  tags,
  summary: "Generate code for the project (files; or a task with async_mode=true)",
  description:
    "Answers 200 with the files, or with `async_mode=true` 202 with a task to poll at `status_url` " +
    "(its result is the same files). Generation is deterministic: the same graph and configuration give " +
    "byte-identical files. An invalid graph answers 422 with per-node errors.",
  ...auth,
  request: { params: projectIdParams, query: generateQuerySchema },
  responses: {
    200: jsonContent(generatedCodeSchema, "The generated files"),
    202: {
      description: "Generation queued; poll the task",
      headers: { Location: { description: "The task's status URL", schema: { type: "string" } } },
      content: { "application/json": { schema: taskAcceptedSchema } },
    },
    ...errors(401, 403, 404),
    ...invalidGraph,
  },
});

export const previewProjectCode = createRoute({
  method: "get",
  path: `${base}/code-preview`,
  operationId: "previewProjectCode",
  tags,
  summary: "Preview the generated files (no side effects)",
  ...auth,
  request: { params: projectIdParams, query: targetQuerySchema },
  responses: {
    200: jsonContent(generatedCodeSchema, "The files that generate-code would produce"),
    ...errors(401, 403, 404),
    ...invalidGraph,
  },
});

export const validateProjectCode = createRoute({
  method: "post",
  path: `${base}/validate`,
  operationId: "validateProjectCode",
  tags,
  summary: "Check that the project can generate code; lists per-node issues",
  description:
    "Always 200: `valid` is false when an issue has severity error. Uses the editor's rules plus those of " +
    "code generation for the target (default pytorch).",
  ...auth,
  request: { params: projectIdParams, query: targetQuerySchema },
  responses: {
    200: jsonContent(validationSchema, "The verdict and its issues"),
    ...errors(401, 403, 404, 422),
  },
});

export const getCodegenTask = createRoute({
  method: "get",
  path: `${base}/code-status/{task_id}`,
  operationId: "getCodegenTask",
  tags,
  summary: "Poll an asynchronous code generation task",
  ...auth,
  request: { params: taskParams },
  responses: {
    200: jsonContent(taskSchema, "The task (with the files once succeeded)"),
    ...errors(401, 403, 404),
  },
});

export const cancelCodegenTask = createRoute({
  method: "post",
  path: `${base}/code-status/{task_id}/cancel`,
  operationId: "cancelCodegenTask",
  tags,
  summary: "Cancel an asynchronous code generation task (409 once it has finished)",
  ...auth,
  request: { params: taskParams },
  responses: {
    200: jsonContent(taskSchema, "The task after the request: cancelled, or running until it stops"),
    ...errors(401, 403, 404, 409),
  },
});

const zipBytes = { schema: z.string().openapi({ format: "binary" }) };

export const downloadProjectCode = createRoute({
  method: "get",
  path: `${base}/download-code`,
  operationId: "downloadProjectCode",
  tags,
  summary: "Download the generated project as a ZIP (a folder <project-slug>-<target>/)",
  ...auth,
  request: { params: projectIdParams, query: targetQuerySchema },
  responses: {
    200: {
      description: "The ZIP archive, streamed",
      headers: {
        "Content-Disposition": {
          description: 'attachment; filename="<project-slug>-<target>.zip"',
          schema: { type: "string" },
        },
      },
      content: { "application/zip": zipBytes },
    },
    ...errors(401, 403, 404),
    ...invalidGraph,
  },
});
