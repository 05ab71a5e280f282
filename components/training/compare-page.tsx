"use client";

import { useQueries } from "@tanstack/react-query";
import { GitCompareArrows, Plus, X } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useId, useMemo, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { jobQuery, metricsQuery, summaryQuery } from "@/lib/api/training/keys";
import { useJobs } from "@/lib/api/training/queries";
import { formatStat } from "@/lib/datasets-ui/format";
import { fieldLabel } from "@/lib/editor/param-form";
import { describeAugmentation } from "@/lib/ml/graph-types";
import { compareStyle, configDiff, parseIds } from "@/lib/training-ui/config-diff";
import { formatDuration, jobDurations } from "@/lib/training-ui/durations";
import { chartRows, lowerIsBetter, type XAxisKey } from "@/lib/training-ui/series";
import { isActive, stateLabel } from "@/lib/training-ui/states";
import { useChartColors } from "./chart-colors";
import { compactInputClass } from "./inputs";
import { MAX_COMPARE } from "./jobs-page";
import { MetricChart } from "./metric-chart";
import { ChartControls } from "./metrics-panel";
import { RUNTIME_LABELS } from "./runtime-picker";
import { StateBadge } from "./state-badge";
import type { TrainingJob } from "./types";

/** While a compared job is still training, its numbers are read again this often. */
const LIVE_MS = 5000;

function preferredMetric(names: string[]): string {
  for (const n of ["val_loss", "loss", "val_accuracy", "accuracy"]) if (names.includes(n)) return n;
  return names[0] ?? "";
}

function setupFields(job: TrainingJob, metric: string, finalValue: number | undefined, now: number) {
  const d = jobDurations(job, now);
  const fields: Record<string, string | number | boolean | null> = {
    Project: job.project_name,
    Dataset: job.dataset_id,
    Runtime: job.resolved_runtime ? RUNTIME_LABELS[job.resolved_runtime] : RUNTIME_LABELS[job.runtime],
    Strategy: job.strategy,
  };
  for (const [k, v] of Object.entries(job.config))
    fields[fieldLabel(k)] = typeof v === "object" && v !== null ? describeAugmentation(v) : v;
  fields.State = stateLabel(job.state);
  if (metric) fields[`Last ${metric}`] = finalValue === undefined ? null : formatStat(finalValue);
  fields["Run time"] = d.running === null ? null : formatDuration(d.running);
  return fields;
}

/** /training/compare?ids=a,b,c: one metric of every job overlaid, and how their setups differ. */
export function ComparePage() {
  const router = useRouter();
  const params = useSearchParams();
  const ids = useMemo(() => parseIds(params.get("ids"), MAX_COMPARE), [params]);
  const colors = useChartColors();
  const [x, setX] = useState<XAxisKey>("epoch");
  const [smoothing, setSmoothing] = useState(0);
  const [logScale, setLogScale] = useState(false);
  const [picked, setPicked] = useState("");
  const [onlyDiff, setOnlyDiff] = useState(false);
  const metricId = useId();
  const addId = useId();

  const jobs = useQueries({
    queries: ids.map((id) => ({
      ...jobQuery(id),
      refetchInterval: (q: { state: { data?: TrainingJob } }) =>
        q.state.data && isActive(q.state.data.state) ? LIVE_MS : false,
    })),
  });
  const loaded = jobs.map((j) => j.data).filter((j): j is TrainingJob => j !== undefined);
  const anyActive = loaded.some((j) => isActive(j.state));
  const summaries = useQueries({
    queries: ids.map((id) => ({
      ...summaryQuery(id),
      refetchInterval: anyActive ? LIVE_MS : (false as const),
    })),
  });
  const names = useMemo(
    () => [...new Set(summaries.flatMap((s) => s.data?.series.map((m) => m.name) ?? []))].sort(),
    [summaries],
  );
  const metric = picked && names.includes(picked) ? picked : preferredMetric(names);
  const series = useQueries({
    queries: ids.map((id, i) => ({
      ...metricsQuery(id, null, metric),
      enabled: metric !== "",
      refetchInterval: jobs[i]?.data && isActive(jobs[i].data.state) ? LIVE_MS : (false as const),
    })),
  });
  const recent = useJobs({ limit: 50 });
  const now = Date.now();

  const lines = ids.map((id, i) => {
    const job = jobs[i]?.data;
    const style = compareStyle(i);
    return {
      key: `job${i}`,
      label: job?.name ?? id,
      color: style.color,
      dashed: style.dashed,
      points: series[i]?.data?.items ?? [],
    };
  });
  const hasEpochs = lines.some((l) => l.points.some((p) => p.epoch !== null));
  const axis: XAxisKey = hasEpochs ? x : "step";
  const rows = chartRows(lines, axis, smoothing);

  const compared = ids.map((id, i) => {
    const job = jobs[i]?.data;
    const last = summaries[i]?.data?.series.find((s) => s.name === metric)?.last;
    return { id, fields: job ? setupFields(job, metric, last, now) : {} };
  });
  const diff = configDiff(compared, onlyDiff);
  const best = (() => {
    const values = compared.map((_, i) => summaries[i]?.data?.series.find((s) => s.name === metric)?.last);
    const finite = values.filter((v): v is number => v !== undefined);
    if (finite.length < 2) return null;
    const target = lowerIsBetter(metric) ? Math.min(...finite) : Math.max(...finite);
    return values.indexOf(target);
  })();

  const setIds = (next: string[]) =>
    router.replace(`/training/compare?ids=${next.map(encodeURIComponent).join(",")}`, { scroll: false });
  const addable = (recent.data?.items ?? []).filter((j) => !ids.includes(j.id));

  return (
    <div className="max-w-7xl">
      <PageHeader
        title="Compare jobs"
        crumbs={[{ href: "/training", label: "Training" }]}
        current="Compare"
        description="One metric of every job on the same axes, and the settings in which they differ."
        actions={
          ids.length < MAX_COMPARE && addable.length > 0 ? (
            <>
              <label htmlFor={addId} className="sr-only">
                Add a job
              </label>
              <Plus aria-hidden className="h-4 w-4 text-muted" />
              <select
                id={addId}
                value=""
                onChange={(e) => e.target.value && setIds([...ids, e.target.value])}
                className={cn(compactInputClass, "h-9 w-64 text-sm")}
              >
                <option value="">Add a job…</option>
                {addable.map((j) => (
                  <option key={j.id} value={j.id}>
                    {j.name}
                  </option>
                ))}
              </select>
            </>
          ) : null
        }
      />

      {ids.length === 0 ? (
        <EmptyState
          icon={GitCompareArrows}
          title="No jobs to compare"
          action={
            <Link href="/training" className={buttonClass("secondary")}>
              Pick jobs on the training list
            </Link>
          }
        >
          Select two or more jobs on the training list and press Compare, or add them here.
        </EmptyState>
      ) : (
        <div className="space-y-6">
          <Card>
            <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-5 py-3">
              <div className="flex items-center gap-2">
                <label htmlFor={metricId} className="text-sm font-semibold">
                  Metric
                </label>
                <select
                  id={metricId}
                  value={metric}
                  onChange={(e) => setPicked(e.target.value)}
                  className={cn(compactInputClass, "w-44 text-sm")}
                  disabled={names.length === 0}
                >
                  {names.length === 0 ? <option value="">No metrics yet</option> : null}
                  {names.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </div>
              <ChartControls
                x={axis}
                onX={setX}
                smoothing={smoothing}
                onSmoothing={setSmoothing}
                logScale={logScale}
                onLogScale={setLogScale}
              />
            </div>
            <div className="px-5 py-4">
              <MetricChart
                title={`${metric || "Metric"} of ${ids.length} jobs`}
                rows={rows}
                lines={lines}
                x={axis}
                logScale={logScale}
                smoothing={smoothing}
                colors={colors}
                height={340}
              />
              <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm" aria-label="Compared jobs">
                {lines.map((l, i) => (
                  <li key={ids[i]} className="flex min-w-0 items-center gap-2" data-testid="compare-legend">
                    <svg aria-hidden width="18" height="6" className="shrink-0">
                      <line
                        x1="0"
                        y1="3"
                        x2="18"
                        y2="3"
                        stroke={l.color}
                        strokeWidth="2.5"
                        strokeDasharray={l.dashed ? "4 2" : undefined}
                      />
                    </svg>
                    <Link href={`/training/${ids[i]}`} className="truncate hover:underline">
                      {l.label}
                    </Link>
                    {jobs[i]?.data ? <StateBadge state={jobs[i].data.state} /> : null}
                    {best === i ? <span className="text-xs font-medium text-ok">best {metric}</span> : null}
                  </li>
                ))}
              </ul>
            </div>
          </Card>

          <Card>
            <CardHeader
              title="Settings"
              description="Highlighted rows are those in which the jobs differ."
              actions={
                <label className="flex items-center gap-2 text-sm text-muted">
                  <input
                    type="checkbox"
                    checked={onlyDiff}
                    onChange={(e) => setOnlyDiff(e.target.checked)}
                    className="h-4 w-4 accent-[var(--accent)]"
                  />
                  Only differences
                </label>
              }
            />
            <div className="overflow-x-auto">
              <table className="w-full text-sm" data-testid="compare-config">
                <caption className="sr-only">Settings of the compared jobs</caption>
                <thead>
                  <tr className="border-b border-border bg-panel-2/60 text-left text-xs text-muted">
                    <th scope="col" className="w-40 px-5 py-2 font-medium">
                      Setting
                    </th>
                    {ids.map((id, i) => (
                      <th key={id} scope="col" className="min-w-40 px-3 py-2 font-medium">
                        <span className="flex items-center gap-1.5">
                          <span
                            aria-hidden
                            className="h-2.5 w-2.5 shrink-0 rounded-full"
                            style={{ background: compareStyle(i).color }}
                          />
                          <span className="truncate text-fg">{jobs[i]?.data?.name ?? id}</span>
                          <button
                            type="button"
                            onClick={() => setIds(ids.filter((other) => other !== id))}
                            aria-label={`Remove ${jobs[i]?.data?.name ?? id} from the comparison`}
                            className="ml-auto inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-muted hover:bg-panel-2 hover:text-fg"
                          >
                            <X aria-hidden className="h-3.5 w-3.5" />
                          </button>
                        </span>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {diff.map((row) => (
                    <tr
                      key={row.field}
                      className={cn(
                        "border-t border-border first:border-t-0",
                        row.differs && "bg-warn-soft/60",
                      )}
                      data-differs={row.differs}
                    >
                      <th scope="row" className="px-5 py-1.5 text-left font-normal text-muted">
                        {row.field}
                        {row.differs ? <span className="sr-only"> (differs)</span> : null}
                      </th>
                      {row.values.map((v, i) => (
                        <td
                          key={ids[i]}
                          className={cn(
                            "px-3 py-1.5 font-mono text-xs",
                            row.differs ? "font-semibold text-fg" : "text-muted",
                          )}
                        >
                          {v === null ? "–" : String(v)}
                        </td>
                      ))}
                    </tr>
                  ))}
                  {diff.length === 0 ? (
                    <tr>
                      <td colSpan={ids.length + 1} className="px-5 py-4 text-center text-sm text-muted">
                        The jobs share every setting.
                      </td>
                    </tr>
                  ) : null}
                </tbody>
              </table>
            </div>
          </Card>
        </div>
      )}
    </div>
  );
}
