"use client";

import Link from "next/link";
import { EvaluationStateBadge } from "@/components/evaluations/evaluation-state-badge";
import { errorMessage } from "@/components/training/error-message";
import { useNow } from "@/components/training/use-now";
import { Alert } from "@/components/ui/alert";
import { useVersionEvaluations } from "@/lib/api/evaluations/queries";
import { splitLabel } from "@/lib/evaluations-ui/present";
import { formatAgo } from "@/lib/training-ui/durations";
import { formatMetricValue, keyMetrics, metricLabel } from "./format";
import type { ModelVersion } from "./types";

/** Evaluations of the version's job, with their key figures, each opening its evaluation page. */
export function EvaluationsTab({ version }: { version: ModelVersion }) {
  const now = useNow(false);
  // Same polling as the job's evaluations card: every second while one has not finished.
  const list = useVersionEvaluations(version.id);
  if (list.error) return <Alert>{errorMessage(list.error)}</Alert>;
  if (!list.data) return <p className="text-sm text-muted">Loading…</p>;
  const items = list.data.items;
  if (items.length === 0)
    return (
      <p className="text-sm text-muted">
        No evaluation yet.{" "}
        {version.job_id ? (
          <>
            Evaluate the model from its{" "}
            <Link
              href={`/training/${encodeURIComponent(version.job_id)}`}
              className="text-accent hover:underline"
            >
              job's page
            </Link>
            ; the results appear here.
          </>
        ) : (
          "A version of uploaded files has no job to evaluate."
        )}
      </p>
    );
  return (
    <ul className="divide-y divide-border rounded-md border border-border text-sm" aria-label="Evaluations">
      {items.map((e) => {
        const figures = keyMetrics(
          Object.fromEntries(Object.entries(e.metrics).filter(([k]) => k !== "rows")),
          3,
        );
        return (
          <li key={e.id} data-testid="version-evaluation">
            <Link
              href={`/training/evaluations/${encodeURIComponent(e.id)}`}
              className="flex flex-wrap items-center justify-between gap-3 px-4 py-2.5 hover:bg-panel-2/60"
            >
              <span className="flex min-w-0 items-center gap-3">
                <EvaluationStateBadge state={e.state} />
                <span className="font-medium">{splitLabel(e.split)}</span>
                <span className="truncate text-muted">
                  {e.dataset_id} · {e.metrics.rows ?? "–"} rows
                </span>
              </span>
              <span className="flex shrink-0 items-center gap-4 tabular-nums">
                {figures.map(([k, v]) => (
                  <span key={k}>
                    <span className="text-muted">{metricLabel(k)}</span>{" "}
                    <span className="font-mono font-medium">{formatMetricValue(k, v)}</span>
                  </span>
                ))}
                <time className="text-xs text-muted" dateTime={e.created_at}>
                  {formatAgo(e.created_at, now)}
                </time>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
