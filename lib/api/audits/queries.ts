/** Read hooks of the audits area. */
import { $api } from "@/lib/api/client";
import type { Data, QueryParams, ReadOptions } from "@/lib/api/read-options";
import { AUDITS_PATH, REPORT_PATH } from "./keys";

export function useAudits(
  query: QueryParams<typeof AUDITS_PATH>,
  options?: ReadOptions<Data<typeof AUDITS_PATH>>,
) {
  return $api.useQuery("get", AUDITS_PATH, { params: { query } }, options);
}

export function useAuditReport(auditId: string, options?: ReadOptions<Data<typeof REPORT_PATH>>) {
  return $api.useQuery("get", REPORT_PATH, { params: { path: { audit_id: auditId } } }, options);
}
