import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, problemSchema, security } from "../../http/openapi";
import { pagedSchema } from "../../http/paging";
import * as s from "./datasets.schemas";

const tags = ["Datasets"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };
const base = "/api/v1/datasets";

export const uploadDataset = createRoute({
  method: "post",
  path: `${base}/`,
  operationId: "uploadDataset",
  tags,
  summary: "Upload a dataset file (multipart), as a new dataset or a new version of one",
  description:
    "The trailing slash is part of the path. The file is streamed, hashed and profiled; its format is detected " +
    "from its content and name. With `dataset_id`, new content becomes the next version; content identical to an " +
    "existing version creates nothing and answers 200 with that version. 413 above 500 MB, 402 above the plan's " +
    "per-file limit or the storage quota.\n\n" +
    "Image ZIPs are read in these layouts: one folder per class (`cats/1.png`, `dogs/2.jpg`); the same inside " +
    "one top folder (`pets/cats/1.png`); or top-level `train/`, `validation/` (or `val/`) and `test/` folders " +
    "each holding class folders (`train/cats/1.png`), which become the version's explicit split. Images may " +
    "mix sizes, modes (grayscale, RGB, RGBA, palette) and formats (PNG, JPEG, WebP, GIF first frame, TIFF, " +
    "AVIF); files that cannot be decoded are listed by name in the profile (`images.corrupt`) and skipped. " +
    "Hidden files and `__MACOSX/` are ignored.",
  ...auth,
  request: { body: { required: true, content: { "multipart/form-data": { schema: s.uploadFormSchema } } } },
  responses: {
    201: jsonContent(s.uploadResultSchema, "Created (a new dataset or a new version)"),
    200: jsonContent(s.uploadResultSchema, "Identical content: the existing version"),
    ...errors(400, 401, 402, 403, 404, 413, 422),
  },
});

export const createDatasetFromUrl = createRoute({
  method: "post",
  path: `${base}/from-url`,
  operationId: "createDatasetFromUrl",
  tags,
  summary: "Fetch a dataset from an http(s) URL on the server (asynchronous)",
  description:
    "Answers 202 with a task to poll. Private, loopback, link-local and other non-public addresses are refused, " +
    "on the URL and on every redirect (at most 5). The same size limits as an upload apply.",
  ...auth,
  request: { body: jsonBody(s.fromUrlBodySchema) },
  responses: { 202: jsonContent(s.taskAcceptedSchema, "Accepted"), ...errors(400, 401, 403, 422) },
});

export const getDatasetTask = createRoute({
  method: "get",
  path: `${base}/tasks/{task_id}`,
  operationId: "getDatasetTask",
  tags,
  summary: "Poll a dataset task (URL fetch or PII scan)",
  ...auth,
  request: { params: s.taskIdParams },
  responses: { 200: jsonContent(s.taskSchemaOut, "The task"), ...errors(401, 403, 404) },
});

export const browseDatasets = createRoute({
  method: "get",
  path: `${base}/browse`,
  operationId: "browseDatasets",
  tags,
  summary: "Browse datasets: built-ins, the caller's own and public ones (plain array, skip/limit)",
  ...auth,
  request: { query: s.browseQuerySchema },
  responses: { 200: jsonContent(z.array(s.datasetSchema), "Datasets"), ...errors(401, 403, 422) },
});

export const getDatasetStorageQuota = createRoute({
  method: "get",
  path: `${base}/storage/quota`,
  operationId: "getDatasetStorageQuota",
  tags,
  summary: "The caller's storage quota: every byte stored, by kind, and the plan's limits",
  description:
    "One quota per plan counts datasets, training checkpoints, training artifact files, hub model files " +
    "and registry artifacts (`breakdown`). Uploads are held to it while they stream in: 402 problem " +
    "(`storage-quota`) with `used_bytes`, `limit_bytes` and `requested_bytes`. Deleting anything frees it.",
  ...auth,
  responses: { 200: jsonContent(s.quotaSchema, "Quota"), ...errors(401, 403) },
});

export const getDataset = createRoute({
  method: "get",
  path: `${base}/{dataset_id}`,
  operationId: "getDataset",
  tags,
  summary: "Get a dataset",
  ...auth,
  request: { params: s.datasetIdParams },
  responses: { 200: jsonContent(s.datasetSchema, "The dataset"), ...errors(401, 403, 404) },
});

export const previewDataset = createRoute({
  method: "get",
  path: `${base}/{dataset_id}/preview`,
  operationId: "previewDataset",
  tags,
  summary: "First rows and the stored profile (statistics per column)",
  ...auth,
  request: { params: s.datasetIdParams, query: s.previewQuerySchema },
  responses: { 200: jsonContent(s.previewSchema, "Preview"), ...errors(401, 403, 404, 422) },
});

export const listDatasetRows = createRoute({
  method: "get",
  path: `${base}/{dataset_id}/rows`,
  operationId: "listDatasetRows",
  tags,
  summary: "A page of rows, in file order, at any offset (read on the server)",
  description:
    "Pages through a version without downloading it: `offset` and `limit` select rows in file order (the " +
    "order of the explicit splits' row indices), `columns` selects columns. Any offset is cheap: large " +
    "CSV, TSV and JSON Lines files are read from a columnar copy the server makes on first use. An offset " +
    "beyond the last row answers an empty page. 422 for an unknown column or a page that is too large.",
  ...auth,
  request: { params: s.datasetIdParams, query: s.rowsQuerySchema },
  responses: { 200: jsonContent(s.rowsPageSchema, "A page of rows"), ...errors(401, 403, 404, 422) },
});

export const updateDataset = createRoute({
  method: "put",
  path: `${base}/{dataset_id}`,
  operationId: "updateDataset",
  tags,
  summary: "Update a dataset's name, description or visibility",
  ...auth,
  request: { params: s.datasetIdParams, body: jsonBody(s.updateDatasetBodySchema) },
  responses: { 200: jsonContent(s.datasetSchema, "Updated"), ...errors(400, 401, 403, 404, 422) },
});

export const deleteDataset = createRoute({
  method: "delete",
  path: `${base}/{dataset_id}`,
  operationId: "deleteDataset",
  tags,
  summary: "Delete a dataset with all its versions and files",
  description: "409 while a job that uses the dataset is queued or running.",
  ...auth,
  request: { params: s.datasetIdParams },
  responses: { 204: { description: "Deleted" }, ...errors(401, 403, 404, 409) },
});

export const setDatasetRoles = createRoute({
  method: "patch",
  path: `${base}/{dataset_id}/roles`,
  operationId: "setDatasetRoles",
  tags,
  summary: "Set column roles; the task (classification or regression) follows from the target",
  description: "422 for unknown columns or more than one target.",
  ...auth,
  request: { params: s.datasetIdParams, body: jsonBody(s.rolesBodySchema) },
  responses: { 200: jsonContent(s.rolesResultSchema, "Roles"), ...errors(400, 401, 403, 404, 422) },
});

export const getDatasetMeta = createRoute({
  method: "get",
  path: `${base}/{dataset_id}/meta`,
  operationId: "getDatasetMeta",
  tags,
  summary: "Metadata with a short-lived (5 min), single-use signed download link",
  ...auth,
  request: { params: s.datasetIdParams },
  responses: { 200: jsonContent(s.metaSchema, "Metadata"), ...errors(401, 403, 404) },
});

const fileBytes = { schema: z.string().openapi({ format: "binary" }) };

export const downloadDataset = createRoute({
  method: "get",
  path: `${base}/{dataset_id}/download`,
  operationId: "downloadDataset",
  tags,
  summary: "Download the file, with a credential or with the signed link from /meta",
  description:
    "With `expires`, `nonce` and `sig` no credential is needed; such a link works once: a reused or expired " +
    "link answers 410, a tampered one 403. When the service stores files in an S3 bucket (and presigned " +
    "downloads are on), a valid link is used up and answered with a 302 to a presigned URL of the file " +
    "itself, valid for at most a minute (never past the link's expiry): follow it (it needs no credential; " +
    "it answers `Range` requests and names the file in `Content-Disposition`). With a credential, the " +
    "file is always streamed.",
  security: security([...userCreds], true),
  middleware: [credentials([...userCreds], { optional: true })],
  request: { params: s.datasetIdParams, query: s.downloadQuerySchema },
  responses: {
    200: {
      description: "The file",
      content: { "application/octet-stream": fileBytes, "text/csv": fileBytes, "application/zip": fileBytes },
    },
    302: {
      description:
        "Signed link, file in an S3 bucket: the link is used up; `Location` is a presigned URL of the file",
      headers: {
        Location: {
          required: true,
          description: "A presigned URL of the file in the object store (no credential; at most 60 s)",
          schema: { type: "string" as const, format: "uri" },
        },
      },
    },
    410: {
      description: "The signed link was already used or has expired",
      content: { "application/problem+json": { schema: problemSchema } },
    },
    ...errors(401, 403, 404),
  },
});

export const listDatasetVersions = createRoute({
  method: "get",
  path: `${base}/{dataset_id}/versions`,
  operationId: "listDatasetVersions",
  tags,
  summary: "List a dataset's versions, newest first",
  ...auth,
  request: { params: s.datasetIdParams, query: s.versionsQuerySchema },
  responses: {
    200: jsonContent(pagedSchema(s.versionSchema, "DatasetVersionPage"), "Versions"),
    ...errors(401, 403, 404, 422),
  },
});

export const getDatasetVersion = createRoute({
  method: "get",
  path: `${base}/{dataset_id}/versions/{version_id}`,
  operationId: "getDatasetVersion",
  tags,
  summary: "One version: row count, schema, profile, content hash, PII report, splits",
  ...auth,
  request: { params: s.versionParams },
  responses: { 200: jsonContent(s.versionSchema, "The version"), ...errors(401, 403, 404) },
});

export const scanDatasetVersionForPii = createRoute({
  method: "post",
  path: `${base}/{dataset_id}/versions/{version_id}/pii-scan`,
  operationId: "scanDatasetVersionForPii",
  tags,
  summary: "Scan every cell of a version for personal data (asynchronous)",
  description:
    "Looks for e-mail addresses, phone numbers, payment cards (Luhn), IBANs (mod 97), US social security numbers, " +
    "IP addresses and person names in name columns. The report is stored on the version.",
  ...auth,
  request: { params: s.versionParams },
  responses: { 202: jsonContent(s.taskAcceptedSchema, "Accepted"), ...errors(401, 403, 404) },
});

export const setDatasetVersionSplits = createRoute({
  method: "post",
  path: `${base}/{dataset_id}/versions/{version_id}/splits/explicit`,
  operationId: "setDatasetVersionSplits",
  tags,
  summary: "Split a version with explicit row membership",
  ...auth,
  request: { params: s.versionParams, body: jsonBody(s.splitsBodySchema) },
  responses: { 200: jsonContent(s.splitsResultSchema, "Stored"), ...errors(400, 401, 403, 404, 422) },
});

// ---------------------------------------------------------------------------------------------------
// Datasets linked to a project (contract §4.2)

const projectTags = ["Projects"];

export const linkProjectDataset = createRoute({
  method: "post",
  path: "/api/v1/projects/{project_id}/datasets",
  operationId: "linkProjectDataset",
  tags: projectTags,
  summary: "Link a dataset (the caller's, a public one or a built-in) to a project",
  ...auth,
  request: { params: s.projectIdParams, body: jsonBody(s.linkBodySchema) },
  responses: {
    201: jsonContent(s.linkedDatasetSchema, "Linked"),
    200: jsonContent(s.linkedDatasetSchema, "Already linked"),
    ...errors(400, 401, 403, 404, 422),
  },
});

export const listProjectDatasets = createRoute({
  method: "get",
  path: "/api/v1/projects/{project_id}/datasets",
  operationId: "listProjectDatasets",
  tags: projectTags,
  summary: "Datasets linked to a project (plain array, skip/limit)",
  ...auth,
  request: { params: s.projectIdParams, query: s.projectLinksQuerySchema },
  responses: {
    200: jsonContent(z.array(s.linkedDatasetSchema), "Linked datasets"),
    ...errors(401, 403, 404, 422),
  },
});

export const unlinkProjectDataset = createRoute({
  method: "delete",
  path: "/api/v1/projects/{project_id}/datasets/{dataset_id}",
  operationId: "unlinkProjectDataset",
  tags: projectTags,
  summary: "Unlink a dataset from a project (the dataset itself is kept)",
  ...auth,
  request: { params: s.projectDatasetParams },
  responses: { 204: { description: "Unlinked" }, ...errors(401, 403, 404) },
});
