"use client";

import { ClipboardCheck, Gauge } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import type { TrainingJob } from "@/components/training/types";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { useJobEvaluations } from "@/lib/api/evaluations/queries";
import { mainFigure, splitLabel } from "@/lib/evaluations-ui/present";
import { formatAgo } from "@/lib/training-ui/durations";
import { EvaluateDialog } from "./evaluate-dialog";
import { EvaluationStateBadge } from "./evaluation-state-badge";
import { evaluationHref } from "./use-create-evaluation";

/**
 * The job's evaluations (newest first) and "Evaluate": shown once the job has a model to evaluate.
 * Unfinished evaluations are followed until they finish.
 */
export function EvaluationsCard({ job }: { job: TrainingJob }) {
  const ready = job.state === "succeeded" && job.artifact !== null;
  const list = useJobEvaluations(job.id, ready);
  const [open, setOpen] = useState(false);
  if (!ready) return null;
  const items = list.data?.items ?? [];
  const now = Date.now();
  return (
    <Card data-testid="evaluations-card">
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <ClipboardCheck aria-hidden className="h-4 w-4 text-muted" /> Evaluations
          </span>
        }
        description="The exported model measured on a dataset split, as a deployment would serve it."
        actions={
          <Button size="sm" onClick={() => setOpen(true)}>
            <Gauge aria-hidden className="h-4 w-4" /> Evaluate
          </Button>
        }
      />
      {list.isPending ? (
        <p className="px-5 py-4 text-sm text-muted">Loading…</p>
      ) : items.length === 0 ? (
        <p className="px-5 py-4 text-sm text-muted">
          No evaluation yet. Evaluate the model on its validation split, or on another split or dataset.
        </p>
      ) : (
        <ul className="divide-y divide-border text-sm" aria-label="Evaluations of this job">
          {items.map((e) => {
            const figure = mainFigure(e.metrics);
            const other = e.dataset_id !== job.dataset_id || e.dataset_version_id !== job.dataset_version_id;
            return (
              <li key={e.id} data-testid="evaluation-row">
                <Link
                  href={evaluationHref(e.id)}
                  className="flex items-center justify-between gap-3 px-5 py-2.5 hover:bg-panel-2/60"
                >
                  <span className="flex min-w-0 items-center gap-3">
                    <EvaluationStateBadge state={e.state} />
                    <span className="min-w-0 truncate">
                      <span className="font-medium">{splitLabel(e.split)}</span>
                      <span className="text-muted">
                        {" "}
                        · {other ? `${e.dataset_id} (${e.dataset_version_id})` : "the job's dataset"}
                      </span>
                    </span>
                  </span>
                  <span className="flex shrink-0 items-center gap-4">
                    {figure ? (
                      <span className="tabular-nums">
                        <span className="text-muted">{figure.label}</span>{" "}
                        <span className="font-mono font-medium">{figure.value}</span>
                      </span>
                    ) : null}
                    <time className="text-xs text-muted" dateTime={e.created_at}>
                      {formatAgo(e.created_at, now)}
                    </time>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      {open ? <EvaluateDialog job={job} open onClose={() => setOpen(false)} /> : null}
    </Card>
  );
}
