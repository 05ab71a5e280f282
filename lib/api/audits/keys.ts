/** Query keys of the audits area. */

export const AUDITS_PATH = "/api/v1/audits";
export const REPORT_PATH = "/api/v1/audits/{audit_id}/report";

/** Prefix keys for invalidation. */
export const auditKeys = {
  list: ["get", AUDITS_PATH] as const,
  reports: ["get", REPORT_PATH] as const,
};
