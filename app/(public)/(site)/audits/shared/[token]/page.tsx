import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AuditReportView } from "@/components/audits/audit-report-view";
import { pct, usd } from "@/components/audits/format";
import { serverApi } from "@/lib/api/server-client";
import { LayerlineError } from "@/sdk/src/errors";

async function load(token: string) {
  const api = await serverApi();
  try {
    const r = await api.GET("/api/v1/audits/shared/{token}", { params: { path: { token } } });
    return r.data ?? null;
  } catch (err) {
    if (err instanceof LayerlineError && err.status === 404) return null;
    throw err;
  }
}

export default async function SharedAuditPage({ params }: { params: Promise<{ token: string }> }) {
  const report = await load((await params).token);
  if (!report) notFound();
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <AuditReportView report={report} owner={false} />
    </div>
  );
}

export async function generateMetadata({
  params,
}: {
  params: Promise<{ token: string }>;
}): Promise<Metadata> {
  const report = await load((await params).token).catch(() => null);
  if (!report) return { title: "Shared audit", robots: { index: false } };
  const t = report.totals;
  const description =
    `${t.calls} calls audited: ${usd(t.current_cost_per_1k)} per 1k calls today, ` +
    `${usd(t.best_cost_per_1k)} with the best candidates (${pct(t.savings_percent)} savings).`;
  const title = `${report.audit.name}: audit report`;
  return {
    title,
    description,
    robots: { index: false },
    openGraph: { title, description, type: "article" },
    twitter: { card: "summary", title, description },
  };
}
