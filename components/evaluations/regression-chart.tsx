"use client";

import {
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { Card, CardHeader } from "@/components/ui/card";
import { formatCompact } from "@/lib/datasets-ui/format";
import { niceAxis } from "@/lib/evaluations-ui/present";
import { xAxisLabel, yAxisLabel } from "./axis-labels";
import { useEvaluationChartColors } from "./chart-palette";
import type { RegressionResult } from "./types";

/** Predicted against actual values (a sample of at most 500 rows), with the line of perfect predictions. */
export function RegressionChart({ result }: { result: RegressionResult }) {
  const colors = useEvaluationChartColors();
  const points = result.points ?? [];
  const values = points.flatMap((p) => [p.actual, p.predicted]);
  const { domain, ticks } = niceAxis(Math.min(...values), Math.max(...values));
  const target = result.target ?? "target";
  return (
    <Card>
      <CardHeader
        title="Predicted against actual"
        description={`${points.length < result.rows ? `${points.length} of ${result.rows} rows` : `${result.rows} rows`}; on the dashed line the prediction is exact.`}
      />
      <div className="px-5 py-4">
        <div
          role="img"
          aria-label={`Scatter plot of predicted against actual ${target} for ${points.length} rows`}
          data-testid="regression-chart"
          className="mx-auto aspect-square max-h-96 w-full max-w-96"
        >
          <ResponsiveContainer width="100%" height="100%">
            <ScatterChart margin={{ top: 8, right: 12, bottom: 16, left: 4 }} accessibilityLayer={false}>
              <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" />
              <XAxis
                dataKey="actual"
                type="number"
                domain={domain}
                ticks={ticks}
                tickFormatter={formatCompact}
                tick={{ fill: colors.axis, fontSize: 11 }}
                tickLine={false}
                axisLine={{ stroke: colors.grid }}
                name="Actual"
                label={xAxisLabel(`Actual ${target}`, colors.axis)}
              />
              <YAxis
                dataKey="predicted"
                type="number"
                domain={domain}
                ticks={ticks}
                tickFormatter={formatCompact}
                width={48}
                tick={{ fill: colors.axis, fontSize: 11 }}
                tickLine={false}
                axisLine={false}
                name="Predicted"
                label={yAxisLabel("Predicted", colors.axis)}
              />
              <ReferenceLine
                segment={[
                  { x: domain[0], y: domain[0] },
                  { x: domain[1], y: domain[1] },
                ]}
                stroke={colors.chance}
                strokeDasharray="4 4"
              />
              <Tooltip
                isAnimationActive={false}
                cursor={false}
                formatter={(value, name) => [formatCompact(Number(value)), String(name)]}
                contentStyle={{
                  background: "var(--panel)",
                  border: "1px solid var(--border)",
                  borderRadius: 6,
                  fontSize: 12,
                }}
              />
              <Scatter data={points} fill={colors.series[0]} fillOpacity={0.6} isAnimationActive={false} />
            </ScatterChart>
          </ResponsiveContainer>
        </div>
      </div>
    </Card>
  );
}
