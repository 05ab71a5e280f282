"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
} from "recharts";
import { useDarkTheme } from "@/components/code/use-dark-theme";
import { Card, CardHeader } from "@/components/ui/card";
import { ms, pct, quality, usd } from "./format";
import type { ReportWorkload } from "./types";

function useColors() {
  return useDarkTheme()
    ? {
        today: "#fbbf24",
        candidate: "#8b85ff",
        best: "#34d399",
        grid: "#2a2f3a",
        axis: "#9aa1b2",
        tooltip: "#161a22",
      }
    : {
        today: "#d97706",
        candidate: "#4f46e5",
        best: "#059669",
        grid: "#e2e4ea",
        axis: "#555b6b",
        tooltip: "#ffffff",
      };
}

const PALETTE = ["#4f46e5", "#059669", "#db2777", "#0891b2", "#7c3aed", "#ea580c"];

/** Quality (agreement) against estimated cost per 1k calls: today's model at 100% agreement, each candidate. */
function QualityCostChart({ workload }: { workload: ReportWorkload }) {
  const c = useColors();
  const today =
    workload.current.cost_per_1k === null
      ? []
      : [{ name: `${workload.model} (today)`, cost: workload.current.cost_per_1k, quality: 100 }];
  const cands = workload.candidates
    .filter((x) => x.quality !== null && x.cost_per_1k !== null)
    .map((x) => ({
      name: `${x.recipe_id} · ${x.base_model_id}`,
      cost: x.cost_per_1k as number,
      quality: (x.quality as number) * 100,
      best: x.id === workload.best_candidate_id,
    }));
  return (
    <div className="h-64" role="img" aria-label={`Quality against cost for ${workload.name}`}>
      <ResponsiveContainer width="100%" height="100%">
        <ScatterChart margin={{ top: 8, right: 16, bottom: 24, left: 8 }}>
          <CartesianGrid stroke={c.grid} />
          <XAxis
            type="number"
            dataKey="cost"
            name="Cost per 1k calls"
            scale="log"
            domain={["auto", "auto"]}
            tickFormatter={(v: number) => usd(v)}
            stroke={c.axis}
            fontSize={11}
            label={{
              value: "USD per 1k calls (log)",
              position: "insideBottom",
              offset: -14,
              fill: c.axis,
              fontSize: 11,
            }}
          />
          <YAxis
            type="number"
            dataKey="quality"
            name="Agreement"
            domain={[0, 100]}
            unit="%"
            stroke={c.axis}
            fontSize={11}
          />
          <ZAxis range={[90, 90]} />
          <Tooltip
            cursor={{ strokeDasharray: "3 3" }}
            contentStyle={{ background: c.tooltip, fontSize: 12 }}
            formatter={(v, name) => (name === "Agreement" ? `${Number(v).toFixed(1)}%` : usd(Number(v)))}
          />
          <Legend verticalAlign="top" height={24} wrapperStyle={{ fontSize: 12 }} />
          <Scatter name="Today" data={today} fill={c.today} shape="diamond" />
          <Scatter name="Candidates" data={cands} fill={c.candidate}>
            {cands.map((d) => (
              <Cell key={d.name} fill={d.best ? c.best : c.candidate} />
            ))}
          </Scatter>
        </ScatterChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Latency distributions: the sorted per-call latencies as percentile curves (today vs each candidate). */
function LatencyChart({ workload }: { workload: ReportWorkload }) {
  const c = useColors();
  const series = [
    {
      key: "today",
      name: `${workload.model} (today)`,
      values: workload.current_latency_samples,
      color: c.today,
    },
    ...workload.candidates
      .filter((x) => x.latency_samples.length > 0)
      .map((x, i) => ({
        key: x.id,
        name: x.recipe_id,
        values: x.latency_samples,
        color: i === 0 ? c.candidate : PALETTE[i % PALETTE.length],
      })),
  ];
  const points = Array.from({ length: 21 }, (_, i) => {
    const p = i * 5;
    const row: Record<string, number> = { p };
    for (const s of series) {
      if (s.values.length === 0) continue;
      const idx = Math.min(s.values.length - 1, Math.round((p / 100) * (s.values.length - 1)));
      row[s.key] = Math.max(0.01, s.values[idx]);
    }
    return row;
  });
  return (
    <div className="h-64" role="img" aria-label={`Latency distribution for ${workload.name}`}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: 16, bottom: 24, left: 8 }}>
          <CartesianGrid stroke={c.grid} />
          <XAxis
            dataKey="p"
            unit="%"
            stroke={c.axis}
            fontSize={11}
            label={{
              value: "percentile of calls",
              position: "insideBottom",
              offset: -14,
              fill: c.axis,
              fontSize: 11,
            }}
          />
          <YAxis
            scale="log"
            domain={["auto", "auto"]}
            tickFormatter={(v: number) => ms(v)}
            stroke={c.axis}
            fontSize={11}
          />
          <Tooltip contentStyle={{ background: c.tooltip, fontSize: 12 }} formatter={(v) => ms(Number(v))} />
          <Legend verticalAlign="top" height={24} wrapperStyle={{ fontSize: 12 }} />
          {series.map((s) => (
            <Line key={s.key} dataKey={s.key} name={s.name} stroke={s.color} dot={false} strokeWidth={2} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Savings of each workload's best candidate, in percent of today's cost. */
export function SavingsChart({ workloads }: { workloads: ReportWorkload[] }) {
  const c = useColors();
  const data = workloads.map((w) => ({ name: w.name, savings: w.best_savings.percent ?? 0 }));
  return (
    <div className="h-48" role="img" aria-label="Savings per workload">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid stroke={c.grid} horizontal={false} />
          <XAxis type="number" domain={[0, 100]} unit="%" stroke={c.axis} fontSize={11} />
          <YAxis type="category" dataKey="name" width={180} stroke={c.axis} fontSize={11} />
          <Tooltip contentStyle={{ background: c.tooltip, fontSize: 12 }} formatter={(v) => pct(Number(v))} />
          <Bar dataKey="savings" name="Savings" fill={c.best} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function WorkloadCharts({ workload }: { workload: ReportWorkload }) {
  const best = workload.candidates.find((x) => x.id === workload.best_candidate_id);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader
          title="Quality against cost"
          description={
            best
              ? `Best: ${best.recipe_id}, ${quality(best.quality)} agreement at ${usd(best.cost_per_1k)} per 1k calls`
              : "No evaluated candidate yet"
          }
        />
        <div className="p-3">
          <QualityCostChart workload={workload} />
        </div>
      </Card>
      <Card>
        <CardHeader
          title="Latency distribution"
          description={`Today p50 ${ms(workload.current.latency_p50_ms)}, p95 ${ms(workload.current.latency_p95_ms)}`}
        />
        <div className="p-3">
          <LatencyChart workload={workload} />
        </div>
      </Card>
    </div>
  );
}
