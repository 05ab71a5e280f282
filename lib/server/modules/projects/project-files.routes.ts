import { createRoute, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { DAG_MAX_BYTES } from "../../../ml/dag-format";
import { allowJsonBody } from "../../http/body-limit";
import { credentials } from "../../http/credentials";
import { errors, jsonContent, security } from "../../http/openapi";
import { problemResponse } from "../../http/problem";
import { MAX_THUMBNAIL_BYTES } from "./project-thumbnails";
import {
  dagFileDocSchema,
  dagUploadDocSchema,
  projectIdParams,
  projectSchema,
  thumbnailFormSchema,
  thumbnailSchema,
} from "./projects.schemas";

/** DAG import and thumbnails: the routes that take files. */

const tags = ["Projects"];
const userCreds = ["api_key", "session"] as const;

/** Multipart framing around the file. */
const FORM_OVERHEAD = 64 * 1024;

function limitBody(maxSize: number, detail: string) {
  return bodyLimit({ maxSize, onError: (c) => problemResponse(c, 413, detail) });
}

const dagBody = {
  required: false,
  description: "The DAG document as the JSON body, or as a file in the multipart field `file`",
  content: {
    "application/json": { schema: dagFileDocSchema },
    "multipart/form-data": { schema: dagUploadDocSchema },
  },
};

const dagMiddleware = [
  credentials([...userCreds]),
  limitBody(DAG_MAX_BYTES + FORM_OVERHEAD, "A DAG file can be at most 10 MB."),
  allowJsonBody(DAG_MAX_BYTES),
];

export const importDagAsProject = createRoute({
  method: "post",
  path: "/api/v1/projects/import-dag",
  operationId: "importProjectFromDag",
  tags,
  summary: "Create a project from a DAG file",
  description:
    "Send the DAG document as the JSON body, or upload it as the multipart field `file`. Problems in the document " +
    "answer 422 with one entry per problem in `errors` (paths such as `graph.nodes[3].params.out_channels`).",
  security: security([...userCreds]),
  middleware: dagMiddleware,
  request: { body: dagBody },
  responses: { 201: jsonContent(projectSchema, "Created"), ...errors(400, 401, 403, 413, 415, 422) },
});

export const importDagIntoProject = createRoute({
  method: "post",
  path: "/api/v1/projects/{project_id}/import-dag",
  operationId: "importDagIntoProject",
  tags,
  summary: "Replace a project's graph (and configuration, when the file has one) with a DAG file",
  description: "Same body as importProjectFromDag. Records no version; the project's name is kept.",
  security: security([...userCreds]),
  middleware: dagMiddleware,
  request: { params: projectIdParams, body: dagBody },
  responses: { 200: jsonContent(projectSchema, "Updated"), ...errors(400, 401, 403, 404, 413, 415, 422) },
});

export const uploadProjectThumbnail = createRoute({
  method: "post",
  path: "/api/v1/projects/{project_id}/thumbnail",
  operationId: "uploadProjectThumbnail",
  tags,
  summary: "Upload (or replace) the thumbnail: PNG, JPEG or WebP, at most 2 MB",
  description: "The image type is detected from the file's content, not from its declared type.",
  security: security([...userCreds]),
  middleware: [
    credentials([...userCreds]),
    limitBody(MAX_THUMBNAIL_BYTES + FORM_OVERHEAD, "A thumbnail can be at most 2 MB."),
  ],
  request: {
    params: projectIdParams,
    body: { required: true, content: { "multipart/form-data": { schema: thumbnailFormSchema } } },
  },
  responses: { 200: jsonContent(thumbnailSchema, "Stored"), ...errors(400, 401, 403, 404, 413, 415, 422) },
});

const imageBytes = { schema: z.string().openapi({ format: "binary" }) };

export const getProjectThumbnail = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}/thumbnail",
  operationId: "getProjectThumbnail",
  tags,
  summary: "The thumbnail image",
  security: security([...userCreds]),
  middleware: [credentials([...userCreds])],
  request: { params: projectIdParams },
  responses: {
    200: {
      description: "The image, with its Content-Type",
      content: { "image/png": imageBytes, "image/jpeg": imageBytes, "image/webp": imageBytes },
    },
    ...errors(401, 403, 404),
  },
});

export const getProjectPreview = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}/preview",
  operationId: "getProjectPreview",
  tags,
  summary: "The diagram drawn as an SVG image",
  description:
    "Drawn by the server from the current diagram, for projects that have no uploaded thumbnail yet " +
    "(made from a template, imported, or created through the API). An empty diagram is an empty image. " +
    "Answers 304 when `If-None-Match` carries the current `ETag`.",
  security: security([...userCreds]),
  middleware: [credentials([...userCreds])],
  request: { params: projectIdParams },
  responses: {
    200: {
      description: "The SVG image",
      content: { "image/svg+xml": { schema: z.string() } },
    },
    304: { description: "Not modified: the diagram has not changed since that ETag" },
    ...errors(401, 403, 404),
  },
});
