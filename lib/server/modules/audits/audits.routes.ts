import { createRoute, z } from "@hono/zod-openapi";
import { allowJsonBody } from "../../http/body-limit";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, security } from "../../http/openapi";
import {
  auditIdParams,
  auditPageSchema,
  auditSchema,
  cancelResultSchema,
  candidateListSchema,
  candidateParams,
  candidateSchema,
  completeBodySchema,
  createAuditBodySchema,
  createCandidateBodySchema,
  datasetResultSchema,
  deployResultSchema,
  listAuditsQuerySchema,
  reportSchema,
  shareResultSchema,
  stepBodySchema,
  stepSchema,
  tokenParams,
  workloadParams,
} from "./audits.schemas";

const tags = ["Audits"];
const userCreds = ["api_key", "session"] as const;
/** JSON body cap of a published audit (http/body-limit.ts): up to 20 workloads of 20,000 logged calls. */
const AUDIT_JSON_BYTES = 128 * 1024 * 1024;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };
const base = "/api/v1/audits";
const one = `${base}/{audit_id}`;

export const getSharedAudit = createRoute({
  method: "get",
  path: `${base}/shared/{token}`,
  operationId: "getSharedAudit",
  tags,
  summary: "Read a shared audit's report (no credential needed)",
  description:
    "The report of the audit the share token (`las_…`) opens, without the owner's private data: no run " +
    "or dataset ids, no keys, and examples of calls only when the audit was published with " +
    "`publish_inputs: true`. A revoked or unknown token → 404.",
  security: [],
  request: { params: tokenParams },
  responses: { 200: jsonContent(reportSchema, "The shared report"), ...errors(404) },
});

export const listAudits = createRoute({
  method: "get",
  path: base,
  operationId: "listAudits",
  tags,
  summary: "List the caller's audits, newest first",
  ...auth,
  request: { query: listAuditsQuerySchema },
  responses: { 200: jsonContent(auditPageSchema, "A page of audits"), ...errors(401, 403, 422) },
});

export const createAudit = createRoute({
  method: "post",
  path: base,
  operationId: "createAudit",
  tags,
  summary: "Publish an audit (used by `layerline audit`)",
  description:
    "Records the workloads and their logged calls; the audit starts `running`. Each workload's calls " +
    "are split into training and held-out calls (a seeded 20% unless calls say `holdout`). States: " +
    "running → completed | failed | cancelled.",
  ...auth,
  middleware: [...auth.middleware, allowJsonBody(AUDIT_JSON_BYTES)],
  request: { body: jsonBody(createAuditBodySchema) },
  responses: { 201: jsonContent(auditSchema, "The audit, running"), ...errors(400, 401, 403, 422) },
});

export const getAudit = createRoute({
  method: "get",
  path: one,
  operationId: "getAudit",
  tags,
  summary: "Get an audit",
  ...auth,
  request: { params: auditIdParams },
  responses: { 200: jsonContent(auditSchema, "The audit"), ...errors(401, 403, 404) },
});

export const deleteAudit = createRoute({
  method: "delete",
  path: one,
  operationId: "deleteAudit",
  tags,
  summary: "Delete the audit and everything it created",
  description:
    "Cancels its runs, then deletes its deployments, the model versions pushed from its runs, the runs " +
    "(checkpoints and artifacts) and their projects, the workloads' datasets and the audit. A run whose " +
    "worker is still stopping after 20 s → 409 (try again).",
  ...auth,
  request: { params: auditIdParams },
  responses: { 204: { description: "Deleted" }, ...errors(401, 403, 404, 409) },
});

export const addAuditStep = createRoute({
  method: "post",
  path: `${one}/steps`,
  operationId: "addAuditStep",
  tags,
  summary: "Record a step of the audit (used by `layerline audit`)",
  ...auth,
  request: { params: auditIdParams, body: jsonBody(stepBodySchema) },
  responses: { 201: jsonContent(stepSchema, "The step"), ...errors(400, 401, 403, 404, 422) },
});

export const completeAudit = createRoute({
  method: "post",
  path: `${one}/complete`,
  operationId: "completeAudit",
  tags,
  summary: "Complete the audit with its summary (running → completed, or failed)",
  ...auth,
  request: { params: auditIdParams, body: jsonBody(completeBodySchema) },
  responses: { 200: jsonContent(auditSchema, "The audit"), ...errors(400, 401, 403, 404, 409, 422) },
});

export const getAuditReport = createRoute({
  method: "get",
  path: `${one}/report`,
  operationId: "getAuditReport",
  tags,
  summary: "The report: per workload today's cost and latency against each candidate",
  ...auth,
  request: { params: auditIdParams },
  responses: { 200: jsonContent(reportSchema, "The report"), ...errors(401, 403, 404) },
});

export const shareAudit = createRoute({
  method: "post",
  path: `${one}/share`,
  operationId: "shareAudit",
  tags,
  summary: "Create a share link (replaces any previous one; the token is shown once)",
  ...auth,
  request: { params: auditIdParams },
  responses: { 201: jsonContent(shareResultSchema, "The share link"), ...errors(401, 403, 404) },
});

export const revokeAuditShare = createRoute({
  method: "delete",
  path: `${one}/share`,
  operationId: "revokeAuditShare",
  tags,
  summary: "Revoke the share link",
  ...auth,
  request: { params: auditIdParams },
  responses: { 204: { description: "Revoked" }, ...errors(401, 403, 404) },
});

export const cancelAudit = createRoute({
  method: "post",
  path: `${one}/cancel`,
  operationId: "cancelAudit",
  tags,
  summary: "Cancel the audit's runs and pause its deployments",
  description: "A running audit becomes `cancelled`; a finished one keeps its state.",
  ...auth,
  request: { params: auditIdParams },
  responses: { 200: jsonContent(cancelResultSchema, "What was stopped"), ...errors(401, 403, 404) },
});

export const createWorkloadDataset = createRoute({
  method: "post",
  path: `${one}/workloads/{workload_id}/dataset`,
  operationId: "createAuditWorkloadDataset",
  tags,
  summary: "Make the workload's training calls a dataset (once; later calls return it)",
  description:
    "Classification: a CSV of hashed text features (`f00`…) and the logged output as `label` (the target). " +
    "Generation: a text of `<input>\\n<output>\\n\\n` records.",
  ...auth,
  request: {
    params: workloadParams,
    body: {
      required: false,
      content: {
        "application/json": {
          schema: z.object({ base_model_id: z.string().min(1).max(100).optional() }).strict(),
        },
      },
    },
  },
  responses: {
    200: jsonContent(datasetResultSchema, "The existing dataset"),
    201: jsonContent(datasetResultSchema, "The dataset, created"),
    ...errors(401, 402, 403, 404, 413, 422),
  },
});

export const createCandidate = createRoute({
  method: "post",
  path: `${one}/workloads/{workload_id}/candidates`,
  operationId: "createAuditCandidate",
  tags,
  summary: "Retrain a workload with a recipe and a base model (starts a fine-tuning run)",
  ...auth,
  request: { params: workloadParams, body: jsonBody(createCandidateBodySchema) },
  responses: {
    201: jsonContent(candidateSchema, "The candidate with its run"),
    ...errors(400, 401, 402, 403, 404, 409, 422),
  },
});

export const listWorkloadCandidates = createRoute({
  method: "get",
  path: `${one}/workloads/{workload_id}/candidates`,
  operationId: "listAuditWorkloadCandidates",
  tags,
  summary: "A workload's candidates",
  ...auth,
  request: { params: workloadParams },
  responses: { 200: jsonContent(candidateListSchema, "The candidates"), ...errors(401, 403, 404) },
});

export const listCandidates = createRoute({
  method: "get",
  path: `${one}/candidates`,
  operationId: "listAuditCandidates",
  tags,
  summary: "Every candidate of the audit",
  ...auth,
  request: { params: auditIdParams },
  responses: { 200: jsonContent(candidateListSchema, "The candidates"), ...errors(401, 403, 404) },
});

export const getCandidate = createRoute({
  method: "get",
  path: `${one}/candidates/{candidate_id}`,
  operationId: "getAuditCandidate",
  tags,
  summary: "Get a candidate",
  ...auth,
  request: { params: candidateParams },
  responses: { 200: jsonContent(candidateSchema, "The candidate"), ...errors(401, 403, 404) },
});

export const evaluateCandidate = createRoute({
  method: "post",
  path: `${one}/candidates/{candidate_id}/evaluate`,
  operationId: "evaluateAuditCandidate",
  tags,
  summary: "Measure the candidate on the workload's held-out calls",
  description:
    "Runs the trained model on the held-out calls (at most 300), one call at a time: quality is accuracy " +
    "(classification) or mean character-level normalised Levenshtein similarity (generation) against the " +
    "logged outputs; latency is measured per call; the cost per 1,000 calls is the mean CPU time × " +
    "AUDIT_CPU_SECOND_USD plus AUDIT_PER_CALL_USD. A run that has not succeeded → 409.",
  ...auth,
  request: { params: candidateParams },
  responses: { 200: jsonContent(candidateSchema, "The evaluated candidate"), ...errors(401, 403, 404, 409) },
});

export const deployCandidate = createRoute({
  method: "post",
  path: `${one}/candidates/{candidate_id}/deploy`,
  operationId: "deployAuditCandidate",
  tags,
  summary: "Deploy the candidate's run (the deployment belongs to the audit)",
  ...auth,
  request: { params: candidateParams },
  responses: {
    201: jsonContent(deployResultSchema, "The deployment and its key, shown once"),
    ...errors(401, 403, 404, 409),
  },
});
