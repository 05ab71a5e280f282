"use client";

import { useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useDarkTheme } from "@/components/code/use-dark-theme";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import type { MetricsWindow } from "@/lib/api/deployments/keys";
import { useDeploymentMetrics } from "@/lib/api/deployments/queries";
import { fillWindow, WINDOW_MS } from "@/lib/deployments-ui/live-metrics";
import { ProblemAlert } from "./problem-alert";
import type { DeploymentMetrics } from "./types";

const WINDOWS: { value: MetricsWindow; label: string }[] = [
  { value: "1h", label: "1 hour" },
  { value: "24h", label: "24 hours" },
  { value: "7d", label: "7 days" },
];

function useColors() {
  return useDarkTheme()
    ? {
        requests: "#8b85ff",
        errors: "#f87171",
        client: "#fbbf24",
        p50: "#34d399",
        p95: "#fb923c",
        p99: "#f87171",
        grid: "#2a2f3a",
        axis: "#9aa1b2",
        tooltip: "#161a22",
      }
    : {
        requests: "#4f46e5",
        errors: "#dc2626",
        client: "#d97706",
        p50: "#059669",
        p95: "#ea580c",
        p99: "#dc2626",
        grid: "#e2e4ea",
        axis: "#555b6b",
        tooltip: "#ffffff",
      };
}

function tick(iso: string, window: MetricsWindow): string {
  const d = new Date(iso);
  return window === "7d"
    ? d.toLocaleDateString("en-GB", { day: "numeric", month: "short", hour: "2-digit" })
    : d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
}

function ms(v: number | null): string {
  return v === null ? "–" : v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v)} ms`;
}

function Tile({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-md border border-border px-3 py-2">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 font-mono text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Charts({ metrics, window }: { metrics: DeploymentMetrics; window: MetricsWindow }) {
  const c = useColors();
  const rows = fillWindow(metrics, WINDOW_MS[window], Date.now()).map((p) => ({
    ...p,
    label: tick(p.at, window),
    ok: p.requests - p.errors - p.client_errors,
  }));
  const axis = { tick: { fill: c.axis, fontSize: 11 }, tickLine: false } as const;
  const tooltip = {
    isAnimationActive: false,
    contentStyle: { background: c.tooltip, border: `1px solid ${c.grid}`, borderRadius: 6, fontSize: 12 },
  } as const;
  if (metrics.series.length === 0)
    return (
      <div className="flex h-56 items-center justify-center rounded-md border border-dashed border-border text-sm text-muted">
        No requests in this window yet. Send one from Try it.
      </div>
    );
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <figure className="min-w-0">
        <figcaption className="mb-2 text-sm font-medium">Requests and errors</figcaption>
        <div
          role="img"
          aria-label={`Requests and errors: ${metrics.totals.requests} requests, ${metrics.totals.errors} errors`}
          data-testid="requests-chart"
          data-requests={metrics.totals.requests}
          className="h-56"
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={rows}
              margin={{ top: 4, right: 8, bottom: 0, left: -12 }}
              accessibilityLayer={false}
            >
              <CartesianGrid stroke={c.grid} strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" {...axis} axisLine={{ stroke: c.grid }} minTickGap={24} />
              <YAxis allowDecimals={false} {...axis} axisLine={false} width={44} />
              <Tooltip {...tooltip} cursor={{ fill: c.grid, opacity: 0.4 }} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey="ok" name="Succeeded" stackId="r" fill={c.requests} isAnimationActive={false} />
              <Bar dataKey="client_errors" name="4xx" stackId="r" fill={c.client} isAnimationActive={false} />
              <Bar dataKey="errors" name="5xx" stackId="r" fill={c.errors} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure className="min-w-0">
        <figcaption className="mb-2 text-sm font-medium">Latency (ms)</figcaption>
        <div
          role="img"
          aria-label={`Latency: p50 ${ms(metrics.totals.p50_ms)}, p95 ${ms(metrics.totals.p95_ms)}, p99 ${ms(metrics.totals.p99_ms)}`}
          data-testid="latency-chart"
          className="h-56"
        >
          <ResponsiveContainer width="100%" height="100%">
            <LineChart
              data={rows}
              margin={{ top: 4, right: 8, bottom: 0, left: -12 }}
              accessibilityLayer={false}
            >
              <CartesianGrid stroke={c.grid} strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" {...axis} axisLine={{ stroke: c.grid }} minTickGap={24} />
              <YAxis {...axis} axisLine={false} width={44} />
              <Tooltip {...tooltip} formatter={(v) => ms(typeof v === "number" ? v : null)} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              {(["p50_ms", "p95_ms", "p99_ms"] as const).map((k) => (
                <Line
                  key={k}
                  dataKey={k}
                  name={k.slice(0, 3)}
                  stroke={c[k.slice(0, 3) as "p50" | "p95" | "p99"]}
                  strokeWidth={1.75}
                  dot={
                    metrics.series.length <= 30
                      ? { r: 3, strokeWidth: 0, fill: c[k.slice(0, 3) as "p50"] }
                      : false
                  }
                  connectNulls
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </div>
  );
}

/** Requests, errors and latency percentiles over a window: read from the route, then kept live. */
export function MetricsPanel({ deploymentId }: { deploymentId: string }) {
  const [window, setWindow] = useState<MetricsWindow>("1h");
  const metrics = useDeploymentMetrics(deploymentId, window);
  const t = metrics.data?.totals;
  return (
    <Card>
      <CardHeader
        title="Metrics"
        description="Every call to the inference routes, live."
        actions={
          <fieldset className="inline-flex rounded-md border border-border p-0.5">
            <legend className="sr-only">Time window</legend>
            {WINDOWS.map((w) => (
              <button
                key={w.value}
                type="button"
                aria-pressed={window === w.value}
                onClick={() => setWindow(w.value)}
                className={cn(
                  "h-7 rounded px-2.5 text-xs font-medium",
                  window === w.value ? "bg-accent-soft text-accent" : "text-muted hover:text-fg",
                )}
              >
                {w.label}
              </button>
            ))}
          </fieldset>
        }
      />
      <div className="space-y-5 px-5 py-4">
        {metrics.isError ? <ProblemAlert error={metrics.error} /> : null}
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          <Tile label="Requests" value={t ? String(t.requests) : "–"} testId="metric-requests" />
          <Tile label="Errors (5xx)" value={t ? String(t.errors) : "–"} testId="metric-errors" />
          <Tile label="Client errors (4xx)" value={t ? String(t.client_errors) : "–"} />
          <Tile label="p50" value={t ? ms(t.p50_ms) : "–"} />
          <Tile label="p95" value={t ? ms(t.p95_ms) : "–"} />
          <Tile label="p99" value={t ? ms(t.p99_ms) : "–"} />
        </dl>
        {metrics.data ? <Charts metrics={metrics.data} window={window} /> : <div className="h-56" />}
      </div>
    </Card>
  );
}
