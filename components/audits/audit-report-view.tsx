"use client";

import type { ReactNode } from "react";
import { Card, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { AuditStateBadge } from "./audit-state-badge";
import { CandidatesTable } from "./candidates-table";
import { pct, usd } from "./format";
import { SavingsChart, WorkloadCharts } from "./report-charts";
import { StepsTimeline } from "./steps-timeline";
import type { AuditReport, ReportWorkload } from "./types";

function Tile({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-md border border-border bg-panel px-4 py-3">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 font-mono text-xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * An audit's report: totals, savings per workload, then per workload the charts (quality against
 * cost, latency distributions) and the candidates; the steps timeline and the cost model. The same
 * view serves the owner's page (with actions and run links) and the public shared page.
 */
export function AuditReportView({
  report,
  owner,
  actions,
  workloadActions,
}: {
  report: AuditReport;
  owner: boolean;
  actions?: ReactNode;
  workloadActions?: (w: ReportWorkload) => ReactNode;
}) {
  const t = report.totals;
  const summaryText = typeof report.audit.summary?.text === "string" ? report.audit.summary.text : null;
  return (
    <div className="max-w-6xl space-y-6">
      <PageHeader
        title={report.audit.name}
        badges={<AuditStateBadge state={report.audit.state} />}
        description={
          <>
            <p>
              Audit of {report.audit.source || "logged calls"} ·{" "}
              {new Date(report.audit.created_at).toLocaleString("en-GB")}
            </p>
            {summaryText ? <p className="mt-2 text-fg">{summaryText}</p> : null}
          </>
        }
        actions={actions}
      />

      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Tile label="Calls audited" value={String(t.calls)} />
        <Tile label="Today, per 1k calls" value={usd(t.current_cost_per_1k)} />
        <Tile label="With the best candidates" value={usd(t.best_cost_per_1k)} />
        <Tile label="Savings" value={pct(t.savings_percent)} testId="audit-savings" />
      </dl>

      {report.workloads.length > 1 ? (
        <Card>
          <CardHeader
            title="Savings per workload"
            description="The recommended candidate of each workload against today's cost"
          />
          <div className="p-3">
            <SavingsChart workloads={report.workloads} />
          </div>
        </Card>
      ) : null}

      {report.workloads.map((w) => (
        <section key={w.id} className="space-y-3" aria-labelledby={`wl-${w.id}`}>
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div>
              <h2 id={`wl-${w.id}`} className="text-lg font-semibold">
                {w.name}
              </h2>
              <p className="text-sm text-muted">
                {w.model} · {w.task}
                {w.labels ? ` · ${w.labels.length} labels: ${w.labels.join(", ")}` : ""}
              </p>
            </div>
            {workloadActions ? workloadActions(w) : null}
          </div>
          <WorkloadCharts workload={w} />
          <Card>
            <CandidatesTable workload={w} linkRuns={owner} />
          </Card>
          {w.candidates.some((c) => c.examples.length > 0) ? (
            <details className="rounded-lg border border-border bg-panel px-5 py-3 text-sm">
              <summary className="cursor-pointer font-medium">Examples of held-out calls</summary>
              <ul className="mt-2 space-y-2">
                {w.candidates
                  .flatMap((c) => c.examples.map((e) => ({ ...e, c: c.recipe_id })))
                  .slice(0, 8)
                  .map((e, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: examples have no id and never reorder
                    <li key={i} className="rounded-md bg-panel-2/60 px-3 py-2">
                      <p className="truncate">{e.input}</p>
                      <p className="text-xs text-muted">
                        logged <span className="font-mono">{e.expected}</span> · {e.c}{" "}
                        <span className="font-mono">{e.predicted}</span>
                      </p>
                    </li>
                  ))}
              </ul>
            </details>
          ) : null}
        </section>
      ))}

      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader title="Steps" />
          <StepsTimeline steps={report.steps} />
        </Card>
        <Card>
          <CardHeader title="How this is measured" />
          <p className="px-5 py-4 text-sm text-muted">{report.cost_model}</p>
        </Card>
      </div>
    </div>
  );
}
