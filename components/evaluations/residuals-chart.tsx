"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { Card, CardHeader } from "@/components/ui/card";
import { formatCompact } from "@/lib/datasets-ui/format";
import { residualHistogram } from "@/lib/evaluations-ui/present";
import { xAxisLabel, yAxisLabel } from "./axis-labels";
import { useEvaluationChartColors } from "./chart-palette";
import type { RegressionResult } from "./types";

/** How far off the predictions are: a histogram of predicted − actual, centred on zero. */
export function ResidualsChart({ result }: { result: RegressionResult }) {
  const colors = useEvaluationChartColors();
  const bins = residualHistogram(result.points ?? []).map((b) => ({ ...b, mid: (b.from + b.to) / 2 }));
  const width = bins.length > 0 ? bins[0].to - bins[0].from : 1;
  const over = bins.filter((b) => b.from >= 0).reduce((a, b) => a + b.count, 0);
  const total = bins.reduce((a, b) => a + b.count, 0);
  return (
    <Card>
      <CardHeader
        title="Residuals"
        description="Predicted minus actual: right of zero the model predicts too high, left too low."
      />
      <div className="px-5 py-4">
        <div
          role="img"
          aria-label={`Histogram of residuals: ${over} of ${total} rows predicted too high`}
          data-testid="residuals-chart"
          className="h-72 w-full"
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={bins}
              margin={{ top: 8, right: 12, bottom: 16, left: 4 }}
              barCategoryGap={1}
              accessibilityLayer={false}
            >
              <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" vertical={false} />
              <XAxis
                dataKey="mid"
                type="number"
                domain={bins.length > 0 ? [bins[0].from, bins[bins.length - 1].to] : [0, 1]}
                tickFormatter={formatCompact}
                tick={{ fill: colors.axis, fontSize: 11 }}
                tickLine={false}
                axisLine={{ stroke: colors.grid }}
                label={xAxisLabel("Predicted − actual", colors.axis)}
              />
              <YAxis
                allowDecimals={false}
                width={36}
                tick={{ fill: colors.axis, fontSize: 11 }}
                tickLine={false}
                axisLine={false}
                label={yAxisLabel("Rows", colors.axis)}
              />
              <ReferenceLine x={0} stroke={colors.chance} strokeDasharray="4 4" />
              <Tooltip
                isAnimationActive={false}
                cursor={{ fill: colors.grid, opacity: 0.4 }}
                formatter={(value) => [String(value), "Rows"]}
                labelFormatter={(mid) => {
                  const m = Number(mid);
                  return `${formatCompact(m - width / 2)} to ${formatCompact(m + width / 2)}`;
                }}
                contentStyle={{
                  background: "var(--panel)",
                  border: "1px solid var(--border)",
                  borderRadius: 6,
                  fontSize: 12,
                }}
              />
              <Bar dataKey="count" fill={colors.series[0]} fillOpacity={0.75} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </div>
    </Card>
  );
}
