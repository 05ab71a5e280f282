"use client";

import { keepPreviousData } from "@tanstack/react-query";
import { ClipboardCheck } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { ProblemAlert } from "@/components/deployments/problem-alert";
import { useNow } from "@/components/training/use-now";
import { EmptyState } from "@/components/ui/empty-state";
import { LIST_ROW, ListTable } from "@/components/ui/list-table";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { useAudits } from "@/lib/api/audits/queries";
import { formatAgo } from "@/lib/training-ui/durations";
import { AuditHowTo } from "./audit-how-to";
import { AuditStateBadge } from "./audit-state-badge";
import { pct } from "./format";

const PAGE_SIZE = 25;

/** /audits: the account's audits with their state, workloads and best savings. */
export function AuditsPage() {
  const [page, setPage] = useState(1);
  const now = useNow(false);
  const list = useAudits(
    { page, limit: PAGE_SIZE },
    { placeholderData: keepPreviousData, refetchInterval: 5000 },
  );
  const data = list.data;
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Audits"
        description="What a job done by a hosted model costs today, against small models trained on its own calls: quality, latency and cost side by side"
      />
      {list.isPending ? (
        <p className="py-16 text-center text-sm text-muted" role="status">
          Loading audits…
        </p>
      ) : list.isError ? (
        <ProblemAlert error={list.error} />
      ) : data && data.total === 0 ? (
        <div className="space-y-6">
          <EmptyState icon={ClipboardCheck} title="No audits yet">
            Publish your app's logged calls to a hosted model and Layerline trains smaller candidates on them;
            the report (quality, latency and cost per 1,000 calls) appears here. Start with the example below.
          </EmptyState>
          <AuditHowTo />
        </div>
      ) : data ? (
        <div className="space-y-6">
          <div className="space-y-3">
            <ListTable
              caption="Audits"
              columns={[
                { header: "Audit" },
                { header: "State", width: "w-28" },
                { header: "Workloads", width: "w-72" },
                {
                  header: "Best savings",
                  width: "w-28",
                  align: "right",
                  title: "The best candidate's savings on its workload",
                },
                { header: "Created", width: "w-32", align: "right" },
              ]}
            >
              {data.items.map((a) => (
                <tr key={a.id} className={LIST_ROW} data-testid="audit-row">
                  <td className="px-4 py-2.5">
                    <Link
                      href={`/audits/${a.id}`}
                      className="block truncate font-medium text-fg hover:text-accent hover:underline"
                    >
                      {a.name}
                    </Link>
                    <span className="block truncate text-xs text-muted">{a.source || "–"}</span>
                  </td>
                  <td className="px-3 py-2.5">
                    <AuditStateBadge state={a.state} />
                  </td>
                  <td className="px-3 py-2.5">
                    <span className="block truncate" title={a.workloads.map((w) => w.name).join(", ")}>
                      {a.workloads.length} · {a.workloads.map((w) => `${w.model} (${w.task})`).join(", ")}
                    </span>
                    <span className="block text-xs text-muted">
                      {a.workloads.reduce((s, w) => s + w.current.calls, 0)} calls · {a.candidate_count}{" "}
                      candidate
                      {a.candidate_count === 1 ? "" : "s"}
                    </span>
                  </td>
                  <td className="px-3 py-2.5 text-right font-mono tabular-nums">
                    {pct(a.best_savings_percent)}
                  </td>
                  <td className="whitespace-nowrap px-4 py-2.5 text-right text-muted">
                    <time dateTime={a.created_at} title={new Date(a.created_at).toLocaleString()}>
                      {formatAgo(a.created_at, now)}
                    </time>
                  </td>
                </tr>
              ))}
            </ListTable>
            <Pager data={data} noun="audit" onPage={setPage} />
          </div>
          <details className="group">
            <summary className="cursor-pointer text-sm font-medium text-accent">
              How audits work, and another one
            </summary>
            <div className="mt-3">
              <AuditHowTo />
            </div>
          </details>
        </div>
      ) : null}
    </div>
  );
}
