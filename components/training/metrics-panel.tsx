"use client";

import { LineChart as LineChartIcon, ZoomOut } from "lucide-react";
import { memo, type ReactNode, useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { useMetricHistory } from "@/lib/api/training/queries";
import { formatCount } from "@/lib/datasets-ui/format";
import { chartGroups, chartRows, groupSeries, type XAxisKey } from "@/lib/training-ui/series";
import { type StepWindow, zoomWindow } from "@/lib/training-ui/zoom";
import { useChartColors } from "./chart-colors";
import { MetricChart } from "./metric-chart";
import type { MetricPoint } from "./types";

/** Names written out where the short form reads badly as a title. */
const METRIC_TITLES: Record<string, string> = { lr: "Learning rate", mse: "MSE", mae: "MAE", r2: "R²" };

function metricTitle(metric: string): string {
  const known = METRIC_TITLES[metric];
  if (known) return known;
  const words = metric.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Chart options shared by the job page and the compare page. */
export function ChartControls({
  x,
  onX,
  smoothing,
  onSmoothing,
  logScale,
  onLogScale,
  children,
}: {
  x: XAxisKey;
  onX: (x: XAxisKey) => void;
  smoothing: number;
  onSmoothing: (v: number) => void;
  logScale: boolean;
  onLogScale: (v: boolean) => void;
  children?: ReactNode;
}) {
  const smoothingId = useId();
  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm">
      <div
        role="radiogroup"
        aria-label="Horizontal axis"
        className="inline-flex rounded-md border border-border p-0.5"
      >
        {(["step", "epoch"] as const).map((k) => (
          // biome-ignore lint/a11y/useSemanticElements: a segmented control, styled as buttons
          <button
            key={k}
            type="button"
            role="radio"
            aria-checked={x === k}
            onClick={() => onX(k)}
            className={cn(
              "h-7 rounded px-2.5 text-xs font-medium",
              x === k ? "bg-accent-soft text-accent" : "text-muted hover:text-fg",
            )}
          >
            {k === "step" ? "Steps" : "Epochs"}
          </button>
        ))}
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor={smoothingId} className="text-muted">
          Smoothing
        </label>
        <input
          id={smoothingId}
          type="range"
          min={0}
          max={0.99}
          step={0.01}
          value={smoothing}
          onChange={(e) => onSmoothing(Number(e.target.value))}
          className="w-28 accent-[var(--accent)]"
        />
        <span className="w-8 font-mono text-xs tabular-nums">{smoothing.toFixed(2)}</span>
      </div>
      <label className="flex items-center gap-2 text-muted">
        <input
          type="checkbox"
          checked={logScale}
          onChange={(e) => onLogScale(e.target.checked)}
          className="h-4 w-4 accent-[var(--accent)]"
        />
        Log scale
      </label>
      {children}
    </div>
  );
}

/**
 * The job's metric charts: one per metric, training and validation overlaid, fed by the metric
 * history in the query cache (which the event stream keeps growing). Dragging across a chart zooms
 * every chart into those steps, read again from the server in finer detail.
 */
export const MetricsPanel = memo(function MetricsPanel({ jobId, live }: { jobId: string; live: boolean }) {
  const colors = useChartColors();
  const [x, setX] = useState<XAxisKey>("epoch");
  const [smoothing, setSmoothing] = useState(0);
  const [logScale, setLogScale] = useState(false);
  const [zoom, setZoom] = useState<StepWindow | null>(null);
  const history = useMetricHistory(jobId);
  const zoomed = useMetricHistory(jobId, zoom, zoom !== null);
  const page = zoom ? (zoomed.data ?? history.data) : history.data;

  const series = useMemo(() => groupSeries(page?.items ?? []), [page]);
  const groups = useMemo(() => chartGroups(series.keys()), [series]);
  const hasEpochs = useMemo(() => (page?.items ?? []).some((p) => p.epoch !== null), [page]);
  const axis: XAxisKey = hasEpochs ? x : "step";
  const shown = useMemo(() => {
    const visible = (list: MetricPoint[]) =>
      zoom ? list.filter((p) => p.step >= zoom.from_step && p.step <= zoom.to_step) : list;
    return groups.map((g) => {
      const lines = [
        g.train
          ? {
              key: "train",
              label: "Training",
              color: colors.train,
              points: visible(series.get(g.train) ?? []),
            }
          : null,
        g.validation
          ? {
              key: "validation",
              label: "Validation",
              color: colors.validation,
              points: visible(series.get(g.validation) ?? []),
            }
          : null,
      ].filter((l) => l !== null);
      return { group: g, lines, rows: chartRows(lines, axis, smoothing) };
    });
  }, [groups, series, zoom, axis, smoothing, colors]);

  const onZoom = (from: number, to: number) => {
    const w = zoomWindow(from, to, axis, page?.items ?? []);
    if (w) setZoom(w);
  };

  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-5 py-3">
        <h2 className="flex items-center gap-2 text-base font-semibold">
          <LineChartIcon aria-hidden className="h-4 w-4 text-muted" /> Metrics
        </h2>
        <ChartControls
          x={axis}
          onX={setX}
          smoothing={smoothing}
          onSmoothing={setSmoothing}
          logScale={logScale}
          onLogScale={setLogScale}
        >
          {zoom ? (
            <Button variant="secondary" size="sm" onClick={() => setZoom(null)}>
              <ZoomOut aria-hidden className="h-4 w-4" /> Reset zoom
            </Button>
          ) : null}
        </ChartControls>
      </div>
      <div className="px-5 py-4">
        {zoom ? (
          <p className="mb-3 text-xs text-muted" role="status">
            Steps {formatCount(zoom.from_step)}–{formatCount(zoom.to_step)}
            {zoomed.isFetching
              ? " · loading detail…"
              : zoomed.data
                ? ` · ${formatCount(zoomed.data.total)} points`
                : ""}
          </p>
        ) : null}
        {history.isPending ? (
          <p className="py-10 text-center text-sm text-muted" role="status">
            Loading metrics…
          </p>
        ) : history.isError ? (
          <p className="py-10 text-center text-sm text-danger" role="alert">
            Could not load the metrics: {history.error.detail}
          </p>
        ) : shown.length === 0 ? (
          <p className="py-10 text-center text-sm text-muted" data-testid="no-metrics">
            {live ? "Waiting for the first metrics…" : "This job reported no metrics."}
          </p>
        ) : (
          <div className="grid gap-6 lg:grid-cols-2">
            {shown.map(({ group, lines, rows }) => (
              <figure key={group.metric} aria-labelledby={`chart-${group.metric}`}>
                <figcaption className="mb-2 flex items-center justify-between gap-3">
                  <span id={`chart-${group.metric}`} className="text-sm font-medium">
                    {metricTitle(group.metric)}
                  </span>
                  <span className="flex items-center gap-3 text-xs text-muted">
                    {lines.map((l) => (
                      <span key={l.key} className="inline-flex items-center gap-1.5">
                        <span aria-hidden className="h-0.5 w-3 rounded" style={{ background: l.color }} />
                        {l.label}
                      </span>
                    ))}
                  </span>
                </figcaption>
                <MetricChart
                  title={metricTitle(group.metric)}
                  rows={rows}
                  lines={lines}
                  x={axis}
                  logScale={logScale}
                  smoothing={smoothing}
                  colors={colors}
                  onZoom={onZoom}
                />
              </figure>
            ))}
          </div>
        )}
        {shown.length > 0 && !zoom ? (
          <p className="mt-3 text-xs text-muted">Drag across a chart to zoom into those steps.</p>
        ) : null}
      </div>
    </Card>
  );
});
