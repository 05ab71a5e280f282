"use client";

import Link from "next/link";
import { formatStat } from "@/lib/datasets-ui/format";
import { formatAgo, formatDuration, jobDurations } from "@/lib/training-ui/durations";
import { lowerIsBetter } from "@/lib/training-ui/series";
import { RUNTIME_LABELS } from "./runtime-picker";
import { StateBadge } from "./state-badge";
import type { TrainingJob } from "./types";

/** The metric a row shows: validation loss, else loss, else the first one reported. */
function headlineMetric(metrics: Record<string, number>): [string, number] | null {
  for (const name of ["val_loss", "loss", "val_accuracy", "accuracy"]) {
    if (metrics[name] !== undefined) return [name, metrics[name]];
  }
  const first = Object.entries(metrics).sort(
    ([a], [b]) => Number(lowerIsBetter(b)) - Number(lowerIsBetter(a)),
  )[0];
  return first ?? null;
}

function progressText(job: TrainingJob): string {
  const p = job.progress;
  if (!p) return job.state === "queued" ? (job.waiting_for_slot ? "Waiting for a slot" : "Starting…") : "–";
  return `Epoch ${p.epoch}/${p.epochs}`;
}

/** Jobs as a table with a checkbox per row (compare, delete). */
export function JobsTable({
  jobs,
  selected,
  onToggle,
  onToggleAll,
  now,
}: {
  jobs: TrainingJob[];
  selected: ReadonlySet<string>;
  onToggle: (job: TrainingJob) => void;
  onToggleAll: (on: boolean) => void;
  now: number;
}) {
  const all = jobs.length > 0 && jobs.every((j) => selected.has(j.id));
  const some = jobs.some((j) => selected.has(j.id));
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-panel">
      <table className="w-full min-w-[880px] table-fixed text-sm">
        <caption className="sr-only">Training jobs</caption>
        <colgroup>
          <col className="w-11" />
          <col />
          <col className="w-32" />
          <col className="w-40" />
          <col className="w-32" />
          <col className="w-36" />
          <col className="w-24" />
          <col className="w-28" />
        </colgroup>
        <thead>
          <tr className="border-b border-border bg-panel-2/60 text-left text-xs text-muted">
            <th scope="col" className="py-2 pl-4">
              <input
                type="checkbox"
                aria-label="Select every job on this page"
                checked={all}
                ref={(el) => {
                  if (el) el.indeterminate = some && !all;
                }}
                onChange={(e) => onToggleAll(e.target.checked)}
                className="h-4 w-4 accent-[var(--accent)]"
              />
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Job
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              State
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Progress
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Runtime
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Latest
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Duration
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Created
            </th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => {
            const metric = headlineMetric(job.metrics);
            const d = jobDurations(job, now);
            return (
              <tr
                key={job.id}
                className="border-t border-border first:border-t-0 hover:bg-panel-2/50"
                data-testid="job-row"
                aria-selected={selected.has(job.id)}
              >
                <td className="py-2.5 pl-4">
                  <input
                    type="checkbox"
                    aria-label={`Select ${job.name}`}
                    checked={selected.has(job.id)}
                    onChange={() => onToggle(job)}
                    className="h-4 w-4 accent-[var(--accent)]"
                  />
                </td>
                <td className="px-3 py-2.5">
                  <Link
                    href={`/training/${job.id}`}
                    className="block truncate font-medium text-fg hover:text-accent hover:underline"
                  >
                    {job.name}
                  </Link>
                  <span className="block truncate text-xs text-muted">{job.project_name}</span>
                </td>
                <td className="px-3 py-2.5">
                  <StateBadge state={job.state} cancelling={job.cancel_requested} />
                </td>
                <td className="px-3 py-2.5 text-muted tabular-nums">
                  <span className="block truncate whitespace-nowrap">{progressText(job)}</span>
                  {job.progress && job.state === "running" ? (
                    <span aria-hidden className="mt-1 block h-1 overflow-hidden rounded-full bg-panel-2">
                      <span
                        className="block h-full rounded-full bg-accent"
                        style={{
                          width: `${Math.min(100, (job.progress.epoch / Math.max(1, job.progress.epochs)) * 100)}%`,
                        }}
                      />
                    </span>
                  ) : null}
                </td>
                <td className="truncate px-3 py-2.5 text-muted">
                  {job.resolved_runtime ? RUNTIME_LABELS[job.resolved_runtime] : RUNTIME_LABELS[job.runtime]}
                </td>
                <td className="px-3 py-2.5 text-right">
                  {metric ? (
                    <span className="font-mono text-xs tabular-nums">
                      <span className="text-muted">{metric[0]}</span> {formatStat(metric[1])}
                    </span>
                  ) : (
                    <span className="text-muted">–</span>
                  )}
                </td>
                <td className="px-3 py-2.5 text-right text-muted tabular-nums">
                  {d.running === null ? "–" : formatDuration(d.running)}
                </td>
                <td className="px-4 py-2.5 text-right text-muted whitespace-nowrap">
                  <time dateTime={job.created_at} title={new Date(job.created_at).toLocaleString()}>
                    {formatAgo(job.created_at, now)}
                  </time>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
