import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import * as audits from "./audits";
import type * as r from "./audits.routes";
import * as candidates from "./candidates";
import * as report from "./report";

const auditPath = (id: string) => `/api/v1/audits/${encodeURIComponent(id)}`;

export const getSharedAudit: RouteHandler<typeof r.getSharedAudit, AppEnv> = async (c) => {
  const shared = await report.sharedAuditReport(c.get("db"), c.req.valid("param").token);
  c.header("Cache-Control", "no-store");
  return c.json(shared, 200);
};

export const listAudits: RouteHandler<typeof r.listAudits, AppEnv> = async (c) =>
  c.json(await audits.listAudits(c.get("db"), currentUser(c).id, c.req.valid("query")), 200);

export const createAudit: RouteHandler<typeof r.createAudit, AppEnv> = async (c) => {
  const a = await audits.createAudit(c.get("db"), currentUser(c), c.req.valid("json"));
  return c.json(a, 201, { Location: auditPath(a.id) });
};

export const getAudit: RouteHandler<typeof r.getAudit, AppEnv> = async (c) =>
  c.json(await audits.getAudit(c.get("db"), currentUser(c).id, c.req.valid("param").audit_id), 200);

export const deleteAudit: RouteHandler<typeof r.deleteAudit, AppEnv> = async (c) => {
  await audits.deleteAudit(c.get("db"), currentUser(c).id, c.req.valid("param").audit_id);
  return c.body(null, 204);
};

export const addAuditStep: RouteHandler<typeof r.addAuditStep, AppEnv> = async (c) =>
  c.json(
    await audits.addStep(c.get("db"), currentUser(c).id, c.req.valid("param").audit_id, c.req.valid("json")),
    201,
  );

export const completeAudit: RouteHandler<typeof r.completeAudit, AppEnv> = async (c) =>
  c.json(
    await audits.completeAudit(
      c.get("db"),
      currentUser(c).id,
      c.req.valid("param").audit_id,
      c.req.valid("json"),
    ),
    200,
  );

export const getAuditReport: RouteHandler<typeof r.getAuditReport, AppEnv> = async (c) =>
  c.json(await report.auditReport(c.get("db"), currentUser(c).id, c.req.valid("param").audit_id), 200);

export const shareAudit: RouteHandler<typeof r.shareAudit, AppEnv> = async (c) => {
  const origin = new URL(c.req.url).origin;
  return c.json(
    await audits.shareAudit(c.get("db"), currentUser(c).id, c.req.valid("param").audit_id, origin),
    201,
  );
};

export const revokeAuditShare: RouteHandler<typeof r.revokeAuditShare, AppEnv> = async (c) => {
  await audits.revokeShare(c.get("db"), currentUser(c).id, c.req.valid("param").audit_id);
  return c.body(null, 204);
};

export const cancelAudit: RouteHandler<typeof r.cancelAudit, AppEnv> = async (c) =>
  c.json(await audits.cancelAudit(c.get("db"), currentUser(c).id, c.req.valid("param").audit_id), 200);

export const createWorkloadDataset: RouteHandler<typeof r.createWorkloadDataset, AppEnv> = async (c) => {
  const { audit_id, workload_id } = c.req.valid("param");
  const body = (c.req.valid("json") ?? {}) as { base_model_id?: string };
  const result = await candidates.ensureWorkloadDataset(
    c.get("db"),
    currentUser(c),
    audit_id,
    workload_id,
    body.base_model_id,
  );
  return result.created ? c.json(result, 201) : c.json(result, 200);
};

export const createCandidate: RouteHandler<typeof r.createCandidate, AppEnv> = async (c) => {
  const { audit_id, workload_id } = c.req.valid("param");
  const cand = await candidates.createCandidate(
    c.get("db"),
    currentUser(c),
    audit_id,
    workload_id,
    c.req.valid("json"),
  );
  return c.json(cand, 201, { Location: `${auditPath(audit_id)}/candidates/${encodeURIComponent(cand.id)}` });
};

export const listWorkloadCandidates: RouteHandler<typeof r.listWorkloadCandidates, AppEnv> = async (c) => {
  const { audit_id, workload_id } = c.req.valid("param");
  return c.json(await candidates.listCandidates(c.get("db"), currentUser(c).id, audit_id, workload_id), 200);
};

export const listCandidates: RouteHandler<typeof r.listCandidates, AppEnv> = async (c) =>
  c.json(await candidates.listCandidates(c.get("db"), currentUser(c).id, c.req.valid("param").audit_id), 200);

export const getCandidate: RouteHandler<typeof r.getCandidate, AppEnv> = async (c) => {
  const { audit_id, candidate_id } = c.req.valid("param");
  return c.json(await candidates.getCandidate(c.get("db"), currentUser(c).id, audit_id, candidate_id), 200);
};

export const evaluateCandidate: RouteHandler<typeof r.evaluateCandidate, AppEnv> = async (c) => {
  const { audit_id, candidate_id } = c.req.valid("param");
  return c.json(
    await candidates.evaluateCandidate(c.get("db"), currentUser(c).id, audit_id, candidate_id),
    200,
  );
};

export const deployCandidate: RouteHandler<typeof r.deployCandidate, AppEnv> = async (c) => {
  const { audit_id, candidate_id } = c.req.valid("param");
  return c.json(
    await candidates.deployCandidate(c.get("db"), currentUser(c).id, audit_id, candidate_id),
    201,
  );
};
