import { AuditReportPage } from "@/components/audits/audit-report-page";

export const metadata = { title: "Audit report" };

export default async function AuditRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AuditReportPage auditId={id} />;
}
