import type { Schemas } from "@/lib/api/client";

export type Audit = Schemas["Audit"];
export type AuditReport = Schemas["AuditReport"];
export type AuditCandidate = Schemas["AuditCandidate"];
export type ReportWorkload = AuditReport["workloads"][number];
export type ReportCandidate = ReportWorkload["candidates"][number];

export const AUDITS_PATH = "/api/v1/audits";
export const AUDIT_PATH = "/api/v1/audits/{audit_id}";
export const REPORT_PATH = "/api/v1/audits/{audit_id}/report";
export const CANDIDATES_PATH = "/api/v1/audits/{audit_id}/candidates";
