import { createRouter } from "../../http/openapi";
import * as h from "./audits.handlers";
import * as r from "./audits.routes";

/** Audits (contract §4.11): the shared read is registered first so `/audits/shared/…` never reads as an id. */
export const auditsRouter = createRouter()
  .openapi(r.getSharedAudit, h.getSharedAudit)
  .openapi(r.listAudits, h.listAudits)
  .openapi(r.createAudit, h.createAudit)
  .openapi(r.getAudit, h.getAudit)
  .openapi(r.deleteAudit, h.deleteAudit)
  .openapi(r.addAuditStep, h.addAuditStep)
  .openapi(r.completeAudit, h.completeAudit)
  .openapi(r.getAuditReport, h.getAuditReport)
  .openapi(r.shareAudit, h.shareAudit)
  .openapi(r.revokeAuditShare, h.revokeAuditShare)
  .openapi(r.cancelAudit, h.cancelAudit)
  .openapi(r.createWorkloadDataset, h.createWorkloadDataset)
  .openapi(r.createCandidate, h.createCandidate)
  .openapi(r.listWorkloadCandidates, h.listWorkloadCandidates)
  .openapi(r.listCandidates, h.listCandidates)
  .openapi(r.getCandidate, h.getCandidate)
  .openapi(r.evaluateCandidate, h.evaluateCandidate)
  .openapi(r.deployCandidate, h.deployCandidate);
