import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, security } from "../../http/openapi";
import { evaluationListSchema } from "../evaluations/evaluations.schemas";
import {
  aliasParams,
  aliasSchema,
  artifactParams,
  createModelBodySchema,
  initiateArtifactBodySchema,
  initiateArtifactResponseSchema,
  lineageSchema,
  modelArtifactSchema,
  modelIdParams,
  modelVersionSchema,
  pushVersionBodySchema,
  registeredModelSchema,
  setAliasBodySchema,
  taskContractParams,
  taskContractSchema,
  updateModelBodySchema,
  uploadQuerySchema,
  uploadReceiptSchema,
  versionIdParams,
} from "./registry.schemas";

const tags = ["Model registry"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };
const models = "/api/v1/models";
const versions = "/api/v1/model-versions";
const binary = { schema: z.string().openapi({ format: "binary" }) };

export const createRegisteredModel = createRoute({
  method: "post",
  path: models,
  operationId: "createRegisteredModel",
  tags,
  summary: "Create a model entry",
  description: "Names are unique per account (a taken name answers 409).",
  ...auth,
  request: { body: jsonBody(createModelBodySchema) },
  responses: {
    201: {
      ...jsonContent(registeredModelSchema, "The new entry"),
      headers: { Location: { description: "The entry's URL", schema: { type: "string" as const } } },
    },
    ...errors(400, 401, 403, 409, 422),
  },
});

export const listRegisteredModels = createRoute({
  method: "get",
  path: models,
  operationId: "listRegisteredModels",
  tags,
  summary: "List your model entries (a plain array, most recently updated first)",
  ...auth,
  responses: {
    200: jsonContent(z.array(registeredModelSchema), "Your entries"),
    ...errors(401, 403),
  },
});

export const getRegisteredModel = createRoute({
  method: "get",
  path: `${models}/{model_id}`,
  operationId: "getRegisteredModel",
  tags,
  summary: "Get a model entry",
  ...auth,
  request: { params: modelIdParams },
  responses: { 200: jsonContent(registeredModelSchema, "The entry"), ...errors(401, 403, 404) },
});

export const updateRegisteredModel = createRoute({
  method: "patch",
  path: `${models}/{model_id}`,
  operationId: "updateRegisteredModel",
  tags,
  summary: "Update a model entry (name, description, task, tags)",
  ...auth,
  request: { params: modelIdParams, body: jsonBody(updateModelBodySchema) },
  responses: {
    200: jsonContent(registeredModelSchema, "The updated entry"),
    ...errors(400, 401, 403, 404, 409, 422),
  },
});

export const deleteRegisteredModel = createRoute({
  method: "delete",
  path: `${models}/{model_id}`,
  operationId: "deleteRegisteredModel",
  tags,
  summary: "Delete a model entry with its versions, artifacts and aliases",
  description: "Refused (409) while a deployment serves one of its versions.",
  ...auth,
  request: { params: modelIdParams },
  responses: { 204: { description: "Deleted" }, ...errors(401, 403, 404, 409) },
});

export const pushModelVersion = createRoute({
  method: "post",
  path: `${models}/{model_id}/versions`,
  operationId: "pushModelVersion",
  tags,
  summary: "Push a new version, from a succeeded job or run, or bare",
  description:
    "With `job_id` (a succeeded training job or fine-tuning run; else 409) the job's model files and " +
    "manifest.json become the version's artifacts, complete at once: finalize right away. Without it " +
    "the version is bare: upload its artifacts (`artifacts:initiate`, PUT, `complete`), then finalize. " +
    "A declared `task_contract` is checked against manifest.json at finalize. The copied files count " +
    "against the storage quota (402 `storage-quota`).",
  ...auth,
  request: { params: modelIdParams, body: jsonBody(pushVersionBodySchema) },
  responses: {
    201: {
      ...jsonContent(modelVersionSchema, "The new pending version"),
      headers: { Location: { description: "The version's URL", schema: { type: "string" as const } } },
    },
    ...errors(400, 401, 402, 403, 404, 409, 422),
  },
});

export const listModelVersions = createRoute({
  method: "get",
  path: `${models}/{model_id}/versions`,
  operationId: "listModelVersions",
  tags,
  summary: "List a model's versions, newest first",
  ...auth,
  request: { params: modelIdParams },
  responses: {
    200: jsonContent(z.array(modelVersionSchema), "The versions, newest first"),
    ...errors(401, 403, 404),
  },
});

export const setModelAlias = createRoute({
  method: "put",
  path: `${models}/{model_id}/aliases/{alias}`,
  operationId: "setModelAlias",
  tags,
  summary: "Point an alias (e.g. `champion`) at a finalized version, creating or moving it",
  description:
    "One alias names one version of its model; moving it is atomic (concurrent moves leave it on " +
    "exactly one version). Only a finalized version can carry an alias (else 409). `latest` and " +
    "version-like names (`v1`) are reserved. Deployments that follow the alias (POST " +
    "/deployments/from-model-version with `model_id` and `alias`) get a new revision serving the new " +
    "version, listed in `deployments_updated`.",
  ...auth,
  request: { params: aliasParams, body: jsonBody(setAliasBodySchema) },
  responses: {
    200: jsonContent(aliasSchema, "The alias and the version it now points at"),
    ...errors(400, 401, 403, 404, 409, 422),
  },
});

export const getModelAlias = createRoute({
  method: "get",
  path: `${models}/{model_id}/aliases/{alias}`,
  operationId: "getModelAlias",
  tags,
  summary: "The version an alias points at",
  ...auth,
  request: { params: aliasParams },
  responses: { 200: jsonContent(modelVersionSchema, "The aliased version"), ...errors(401, 403, 404, 422) },
});

export const deleteModelAlias = createRoute({
  method: "delete",
  path: `${models}/{model_id}/aliases/{alias}`,
  operationId: "deleteModelAlias",
  tags,
  summary: "Remove an alias",
  ...auth,
  request: { params: aliasParams },
  responses: { 204: { description: "Removed" }, ...errors(401, 403, 404, 422) },
});

export const getModelVersion = createRoute({
  method: "get",
  path: `${versions}/{version_id}`,
  operationId: "getModelVersion",
  tags,
  summary: "Get a model version",
  ...auth,
  request: { params: versionIdParams },
  responses: { 200: jsonContent(modelVersionSchema, "The version"), ...errors(401, 403, 404) },
});

export const getModelVersionLineage = createRoute({
  method: "get",
  path: `${versions}/{version_id}/lineage`,
  operationId: "getModelVersionLineage",
  tags,
  summary: "The version's lineage graph",
  description:
    "Dataset → dataset version (with its split) → architecture version → job or run (and its base " +
    "model) → best checkpoint → this version → the deployment revisions serving it and their " +
    "deployments. Every node carries the path of its studio page.",
  ...auth,
  request: { params: versionIdParams },
  responses: { 200: jsonContent(lineageSchema, "Nodes and edges"), ...errors(401, 403, 404) },
});

export const listModelVersionEvaluations = createRoute({
  method: "get",
  path: `${versions}/{version_id}/evaluations`,
  operationId: "listModelVersionEvaluations",
  tags,
  summary: "Evaluation results of the version (its job's evaluations, newest first)",
  ...auth,
  request: { params: versionIdParams },
  responses: { 200: jsonContent(evaluationListSchema, "The evaluations"), ...errors(401, 403, 404) },
});

export const initiateModelArtifact = createRoute({
  method: "post",
  path: `${versions}/{version_id}/artifacts:initiate`,
  operationId: "initiateModelArtifact",
  tags,
  summary: "Start an artifact upload: the response gives the URL, the method and the headers",
  description:
    "Declare the file's name, size and SHA-256. Send its bytes to `upload.url` with `upload.method` " +
    "and `upload.headers` (the URL is signed and expires at `expires_at`; it needs no other " +
    "credential), then call `…/complete`. With `direct_upload: true` and files stored in an S3 bucket, " +
    "the URL is a presigned one of the bucket itself (`upload.direct`); `complete` then reads the stored " +
    "bytes back to check them. A pending artifact of the same name is replaced; a " +
    "complete one answers 409, as does a finalized version. A declared size that does not fit the " +
    "storage quota → 402 (`storage-quota`, with the figures).",
  ...auth,
  request: { params: versionIdParams, body: jsonBody(initiateArtifactBodySchema) },
  responses: {
    201: jsonContent(initiateArtifactResponseSchema, "Where and how to send the bytes"),
    ...errors(400, 401, 402, 403, 404, 409, 422),
  },
});

export const uploadModelArtifact = createRoute({
  method: "put",
  path: `${versions}/{version_id}/artifacts/{artifact_id}/upload`,
  operationId: "uploadModelArtifact",
  tags,
  summary: "Send an artifact's bytes (the signed URL from artifacts:initiate)",
  description:
    "Streamed to storage. More bytes than declared → 413; more than the owner's storage quota leaves → " +
    "402 (`storage-quota`); an expired link → 410; a tampered one → " +
    "403. A retry replaces the previous bytes until the artifact is complete (then 409).",
  security: [],
  request: {
    params: artifactParams,
    query: uploadQuerySchema,
    body: { required: true, content: { "application/octet-stream": binary } },
  },
  responses: {
    200: jsonContent(uploadReceiptSchema, "What was received"),
    ...errors(402, 403, 404, 409, 410, 413),
  },
});

export const completeModelArtifact = createRoute({
  method: "post",
  path: `${versions}/{version_id}/artifacts/{artifact_id}/complete`,
  operationId: "completeModelArtifact",
  tags,
  summary: "Mark an artifact upload complete (its size and SHA-256 are checked)",
  description:
    "422 when the received bytes differ from the declared size or SHA-256 (the artifact stays " +
    "pending: upload again); 409 when nothing was uploaded yet. After a direct upload the stored object " +
    "is read back and checked here: refused bytes are deleted (upload them again), and bytes that do not " +
    "fit the storage quota → 402 (`storage-quota`).",
  ...auth,
  request: { params: artifactParams },
  responses: {
    200: jsonContent(modelArtifactSchema, "The complete artifact"),
    ...errors(401, 402, 403, 404, 409, 422),
  },
});

export const finalizeModelVersion = createRoute({
  method: "post",
  path: `${versions}/{version_id}/finalize`,
  operationId: "finalizeModelVersion",
  tags,
  summary: "Finalize a version once its artifacts are uploaded (then it is immutable)",
  description:
    "409 while the version has no artifact or any is incomplete, or when it is already finalized; " +
    "422 when a declared task contract is not met by its manifest.json.",
  ...auth,
  request: { params: versionIdParams },
  responses: {
    200: jsonContent(modelVersionSchema, "The ready version"),
    ...errors(401, 403, 404, 409, 422),
  },
});

export const listModelArtifacts = createRoute({
  method: "get",
  path: `${versions}/{version_id}/artifacts`,
  operationId: "listModelArtifacts",
  tags,
  summary: "List a version's artifacts with their sizes and SHA-256",
  ...auth,
  request: { params: versionIdParams },
  responses: {
    200: jsonContent(z.array(modelArtifactSchema), "The artifacts, by name"),
    ...errors(401, 403, 404),
  },
});

export const downloadModelArtifact = createRoute({
  method: "get",
  path: `${versions}/{version_id}/artifacts/{artifact_id}/download`,
  operationId: "downloadModelArtifact",
  tags,
  summary: "Download one complete artifact (streamed)",
  ...auth,
  request: { params: artifactParams },
  responses: {
    200: {
      description: "The file's bytes, served with the content type declared when it was uploaded",
      headers: {
        "Content-Disposition": { description: "attachment; filename=…", schema: { type: "string" as const } },
        "Repr-Digest": {
          description: "sha-256 of the bytes (RFC 9530)",
          schema: { type: "string" as const },
        },
      },
      content: { "*/*": binary },
    },
    ...errors(401, 403, 404, 409),
  },
});

export const listTaskContracts = createRoute({
  method: "get",
  path: "/api/v1/task-contracts",
  operationId: "listTaskContracts",
  tags,
  summary: "List the built-in task contracts",
  ...auth,
  responses: { 200: jsonContent(z.array(taskContractSchema), "The contracts"), ...errors(401, 403) },
});

export const getTaskContract = createRoute({
  method: "get",
  path: "/api/v1/task-contracts/{key}/versions/{version}",
  operationId: "getTaskContract",
  tags,
  summary: "Get a task contract definition (JSON Schemas of one input and one output)",
  ...auth,
  request: { params: taskContractParams },
  responses: { 200: jsonContent(taskContractSchema, "The contract"), ...errors(401, 403, 404, 422) },
});
