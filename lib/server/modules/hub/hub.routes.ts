import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, problemSchema, security } from "../../http/openapi";
import { pagedSchema, pageQuerySchema } from "../../http/paging";
import { projectSchema } from "../projects/projects.schemas";
import * as s from "./hub.schemas";

const tags = ["Hub"];
const userCreds = ["api_key", "session"] as const;
/** Star, fork, review, create and owner actions: a personal key or a web session. */
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };
/** Public reads: no credential for public models; the owner's credential also shows drafts and private ones. */
const publicRead = {
  security: security([...userCreds], true),
  middleware: [credentials([...userCreds], { optional: true })],
};
/** Content routes: the signed link is the credential. */
const signed = { security: [{}], middleware: [credentials([...userCreds], { optional: true })] };
const base = "/api/v1/hub";
const model = `${base}/models/{model_id}`;
const params = { params: s.hubModelIdParams };

const summaryPage = pagedSchema(s.hubModelSummarySchema, "HubModelPage");

export const listHubModels = createRoute({
  method: "get",
  path: `${base}/models`,
  operationId: "listHubModels",
  tags,
  summary: "List hub models (filters and sorts; `q` searches too)",
  description:
    "Published public models, and your own private ones when signed in. `owner=<username>` lists one user's " +
    "models (with your drafts when it is you). Sorts: updated (default), trending (stars in the last 7 days), " +
    "downloads, stars, relevance (with `q`).",
  ...publicRead,
  request: { query: s.listHubModelsQuerySchema },
  responses: { 200: jsonContent(summaryPage, "A page of models"), ...errors(401, 422) },
});

export const searchHubModels = createRoute({
  method: "get",
  path: `${base}/models/search`,
  operationId: "searchHubModels",
  tags,
  summary: "Search hub models (PostgreSQL full-text search)",
  description:
    '`q` uses web-search syntax (words, "quoted phrases", `-excluded`, `or`) over name, tags, task, description ' +
    "and model card, ranked by relevance unless `sort` says otherwise; the same filters as the list.",
  ...publicRead,
  request: { query: s.searchHubModelsQuerySchema },
  responses: { 200: jsonContent(summaryPage, "A page of matching models"), ...errors(401, 422) },
});

export const listHubCategories = createRoute({
  method: "get",
  path: `${base}/categories`,
  operationId: "listHubCategories",
  tags,
  summary: "Categories of public models, with counts (most models first)",
  ...publicRead,
  responses: { 200: jsonContent(z.array(s.hubCategorySchema), "The categories"), ...errors(401) },
});

export const listFeaturedHubModels = createRoute({
  method: "get",
  path: `${base}/featured`,
  operationId: "listFeaturedHubModels",
  tags,
  summary: "Featured models (most starred first)",
  ...publicRead,
  request: { query: pageQuerySchema },
  responses: { 200: jsonContent(summaryPage, "A page of featured models"), ...errors(401, 422) },
});

export const listTrendingHubModels = createRoute({
  method: "get",
  path: `${base}/trending`,
  operationId: "listTrendingHubModels",
  tags,
  summary: "Trending models: most stars received in the last 7 days",
  ...publicRead,
  request: { query: pageQuerySchema },
  responses: { 200: jsonContent(summaryPage, "A page of trending models"), ...errors(401, 422) },
});

export const listStarredHubModels = createRoute({
  method: "get",
  path: `${base}/models/starred`,
  operationId: "listStarredHubModels",
  tags,
  summary: "Models you have starred (most recently starred first)",
  ...auth,
  request: { query: pageQuerySchema },
  responses: { 200: jsonContent(summaryPage, "A page of starred models"), ...errors(401, 403, 422) },
});

export const createHubModel = createRoute({
  method: "post",
  path: `${base}/models`,
  operationId: "createHubModel",
  tags,
  summary: "Create a hub model (a draft), or publish a training job",
  description:
    "Without `source_job_id`: a draft; upload its files, then finalize. With `source_job_id` (a succeeded " +
    "training job or fine-tuning run of yours): published at once with the job's artifact files and " +
    "manifest, architecture, metrics and a generated model card you can edit. `private` needs a paid plan (402).",
  ...auth,
  request: { body: jsonBody(s.createHubModelBodySchema) },
  responses: {
    201: {
      ...jsonContent(s.hubModelSchema, "The created model"),
      headers: { Location: { description: "The model's URL", schema: { type: "string" as const } } },
    },
    ...errors(400, 401, 402, 403, 404, 409, 422),
  },
});

export const getHubModel = createRoute({
  method: "get",
  path: model,
  operationId: "getHubModel",
  tags,
  summary: "Get a hub model, with its rendered card, rating and fork tree",
  description: "Reading a model is not a download: it does not change `downloads`.",
  ...publicRead,
  request: params,
  responses: { 200: jsonContent(s.hubModelSchema, "The model"), ...errors(401, 404) },
});

export const updateHubModel = createRoute({
  method: "put",
  path: model,
  operationId: "updateHubModel",
  tags,
  summary: "Update a hub model you own (only the fields given change)",
  ...auth,
  request: { ...params, body: jsonBody(s.updateHubModelBodySchema) },
  responses: { 200: jsonContent(s.hubModelSchema, "The model"), ...errors(400, 401, 402, 403, 404, 422) },
});

export const deleteHubModel = createRoute({
  method: "delete",
  path: model,
  operationId: "deleteHubModel",
  tags,
  summary: "Delete a hub model you own, with its files, versions, stars and reviews",
  description: "Its forks stay, with no parent.",
  ...auth,
  request: params,
  responses: { 204: { description: "Deleted" }, ...errors(401, 403, 404) },
});

export const finalizeHubModel = createRoute({
  method: "post",
  path: `${model}/finalize`,
  operationId: "finalizeHubModel",
  tags,
  summary: "Publish a draft once its files are uploaded (records version 1)",
  ...auth,
  request: params,
  responses: {
    200: jsonContent(s.hubModelSchema, "The published model"),
    ...errors(401, 403, 404, 409),
  },
});

export const uploadHubFile = createRoute({
  method: "post",
  path: `${model}/files`,
  operationId: "uploadHubFile",
  tags,
  summary: "Upload a file (streamed; a file at the same path is replaced)",
  description:
    "`multipart/form-data` with a `file` part (and an optional `path` field), or the raw bytes with " +
    "`?path=`. The SHA-256 is computed while the file streams into storage. Above the plan's " +
    "`hub_file_bytes` → 402 (before reading when Content-Length says so); above 550 MB → 413. The file " +
    "counts against the storage quota: 402 `storage-quota` (with the figures) when it would not fit.",
  ...auth,
  request: {
    ...params,
    query: s.uploadHubFileQuerySchema,
    body: {
      required: true,
      content: {
        "multipart/form-data": { schema: s.uploadHubFileFormSchema },
        "application/octet-stream": { schema: { type: "string" as const, format: "binary" } },
      },
    },
  },
  responses: {
    201: jsonContent(s.hubFileSchema, "The stored file"),
    200: jsonContent(s.hubFileSchema, "The file at that path, replaced"),
    ...errors(400, 401, 402, 403, 404, 413, 422),
  },
});

export const listHubFiles = createRoute({
  method: "get",
  path: `${model}/files`,
  operationId: "listHubFiles",
  tags,
  summary: "List a model's files (by path)",
  ...publicRead,
  request: { ...params, query: pageQuerySchema },
  responses: {
    200: jsonContent(pagedSchema(s.hubFileSchema, "HubFilePage"), "A page of files"),
    ...errors(401, 404, 422),
  },
});

export const getHubFileContent = createRoute({
  method: "get",
  path: `${model}/files/{file_id}/content`,
  operationId: "getHubFileContent",
  tags,
  summary: "Download one file with a signed link from /download (counts one download per link)",
  description:
    "No credential: the signed link is one. A tampered link → 403; an expired one → 410. Each fetch checks " +
    "again that the model exists and that the account that minted the link may still see it (else 404). " +
    "A link counts one download however often it is fetched. When the service stores files in an S3 " +
    "bucket (and presigned downloads are on), a valid fetch is answered with a 302 to a presigned URL of " +
    "the file itself, valid for at most a minute (never past the link's expiry): follow it (no credential; " +
    "it answers `Range` requests; to resume later, fetch the link again for a fresh one). Streamed, one " +
    "`Range: bytes=…` range is answered with 206 (`If-Range` with the file's ETag is honoured; several " +
    "ranges get the whole file), one starting past the end with 416.",
  ...signed,
  request: { params: s.hubFileParams, query: s.signedQuerySchema },
  responses: {
    200: {
      description: "The file's bytes, streamed",
      content: { "application/octet-stream": { schema: { type: "string" as const, format: "binary" } } },
    },
    206: {
      description: "The range asked for (`Content-Range` says which bytes of how many)",
      content: { "application/octet-stream": { schema: { type: "string" as const, format: "binary" } } },
    },
    302: {
      description: "File in an S3 bucket: `Location` is a presigned URL of the file (the fetch is counted)",
      headers: {
        Location: {
          required: true,
          description: "A presigned URL of the file in the object store (no credential; at most 60 s)",
          schema: { type: "string" as const, format: "uri" },
        },
      },
    },
    416: {
      description: "The range starts past the end of the file (`Content-Range: bytes */<size>`)",
      content: { "application/problem+json": { schema: problemSchema } },
    },
    ...errors(403, 404, 410),
  },
});

export const createHubDownloadLink = createRoute({
  method: "post",
  path: `${model}/download`,
  operationId: "createHubDownloadLink",
  tags,
  summary: "Get a signed download link for one file, or for the whole model as a ZIP",
  description:
    "The link needs no credential, is reusable and expires after 15 minutes. Minting a link is not a download.",
  ...publicRead,
  request: {
    ...params,
    body: { required: false, content: { "application/json": { schema: s.downloadBodySchema } } },
  },
  responses: { 200: jsonContent(s.downloadLinkSchema, "The signed link"), ...errors(400, 401, 404, 422) },
});

export const downloadAllHubFiles = createRoute({
  method: "get",
  path: `${model}/download-all`,
  operationId: "downloadAllHubFiles",
  tags,
  summary:
    "Download every file as a streamed ZIP with a signed link from /download (counts one download per link)",
  description:
    "No credential: the signed link is one. A tampered link → 403; an expired one → 410. Each fetch checks " +
    "again that the model exists and that the account that minted the link may still see it (else 404). " +
    "A link counts one download however often it is fetched.",
  ...signed,
  request: { ...params, query: s.signedQuerySchema },
  responses: {
    200: {
      description: "A ZIP archive, streamed",
      content: { "application/zip": { schema: { type: "string" as const, format: "binary" } } },
    },
    ...errors(403, 404, 410),
  },
});

export const starHubModel = createRoute({
  method: "post",
  path: `${model}/star`,
  operationId: "starHubModel",
  tags,
  summary: "Star a model (idempotent)",
  ...auth,
  request: params,
  responses: { 200: jsonContent(s.starStateSchema, "Starred"), ...errors(401, 403, 404, 409) },
});

export const unstarHubModel = createRoute({
  method: "delete",
  path: `${model}/star`,
  operationId: "unstarHubModel",
  tags,
  summary: "Remove your star (idempotent)",
  ...auth,
  request: params,
  responses: { 200: jsonContent(s.starStateSchema, "Not starred"), ...errors(401, 403, 404) },
});

export const forkHubModel = createRoute({
  method: "post",
  path: `${model}/fork`,
  operationId: "forkHubModel",
  tags,
  summary: "Fork a published model into your account (records its parent)",
  ...auth,
  request: {
    ...params,
    body: { required: false, content: { "application/json": { schema: s.forkBodySchema } } },
  },
  responses: {
    201: jsonContent(s.hubModelSchema, "The fork"),
    ...errors(400, 401, 402, 403, 404, 409, 422),
  },
});

export const listHubReviews = createRoute({
  method: "get",
  path: `${model}/reviews`,
  operationId: "listHubReviews",
  tags,
  summary: "List reviews (newest first)",
  ...publicRead,
  request: { ...params, query: pageQuerySchema },
  responses: {
    200: jsonContent(pagedSchema(s.hubReviewSchema, "HubReviewPage"), "A page of reviews"),
    ...errors(401, 404, 422),
  },
});

export const createHubReview = createRoute({
  method: "post",
  path: `${model}/reviews`,
  operationId: "createHubReview",
  tags,
  summary: "Review a model (one per user; never your own)",
  description: "A second review → 409; a review of your own model → 403.",
  ...auth,
  request: { ...params, body: jsonBody(s.createReviewBodySchema) },
  responses: {
    201: jsonContent(s.hubReviewSchema, "The review"),
    ...errors(400, 401, 403, 404, 409, 422),
  },
});

export const listHubVersions = createRoute({
  method: "get",
  path: `${model}/versions`,
  operationId: "listHubVersions",
  tags,
  summary: "List versions (newest first)",
  ...publicRead,
  request: { ...params, query: pageQuerySchema },
  responses: {
    200: jsonContent(pagedSchema(s.hubVersionSchema, "HubVersionPage"), "A page of versions"),
    ...errors(401, 404, 422),
  },
});

export const createHubVersion = createRoute({
  method: "post",
  path: `${model}/versions`,
  operationId: "createHubVersion",
  tags,
  summary: "Record the model's current files as a named version",
  ...auth,
  request: { ...params, body: jsonBody(s.createVersionBodySchema) },
  responses: {
    201: jsonContent(s.hubVersionSchema, "The version"),
    ...errors(400, 401, 403, 404, 409, 422),
  },
});

export const useHubModelInStudio = createRoute({
  method: "post",
  path: `${model}/use-in-studio`,
  operationId: "useHubModelInStudio",
  tags,
  summary: "Open the model's architecture in the studio as a new project of yours",
  description: "A model without an architecture (DAG) → 422 explaining why.",
  ...auth,
  request: params,
  responses: {
    201: {
      ...jsonContent(projectSchema, "The new project"),
      headers: { Location: { description: "The project's URL", schema: { type: "string" as const } } },
    },
    ...errors(401, 403, 404, 422),
  },
});
