import type { Schemas } from "@/lib/api/client";

export type Audit = Schemas["Audit"];
export type AuditReport = Schemas["AuditReport"];
export type AuditCandidate = Schemas["AuditCandidate"];
export type ReportWorkload = AuditReport["workloads"][number];
export type ReportCandidate = ReportWorkload["candidates"][number];
