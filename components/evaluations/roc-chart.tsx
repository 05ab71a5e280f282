"use client";

import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { Card, CardHeader } from "@/components/ui/card";
import { formatScore } from "@/lib/evaluations-ui/present";
import { xAxisLabel, yAxisLabel } from "./axis-labels";
import { useEvaluationChartColors } from "./chart-palette";
import type { ClassificationResult } from "./types";

const tickFormat = (v: number) => String(Number(v.toFixed(2)));

/**
 * ROC curves, one line per class (one-vs-rest; a binary task shows its positive class), with the
 * chance diagonal and each curve's AUC in the legend (a list, readable without the chart). Curves
 * that coincide (several classes perfectly separated) show as nested bands, widest first.
 */
export function RocChart({ curves }: { curves: ClassificationResult["roc"] }) {
  const colors = useEvaluationChartColors();
  const colorOf = (k: number) => colors.series[k % colors.series.length];
  // Perfectly separated classes all follow the left and top edges: their curves coincide.
  const perfect = curves.filter((c) => c.auc > 1 - 1e-9).map((c) => c.label);
  const label = `ROC curves: ${curves.map((c) => `${c.label} AUC ${formatScore(c.auc)}`).join(", ")}`;
  return (
    <Card>
      <CardHeader
        title="ROC curves"
        description={
          curves.length === 1
            ? `True against false positive rate for “${curves[0].label}” as the positive class.`
            : "True against false positive rate, each class against the rest."
        }
      />
      <div className="px-5 py-4">
        {curves.length === 0 ? (
          <p className="text-sm text-muted">No curve: the split holds rows of only one class.</p>
        ) : (
          <>
            <div
              role="img"
              aria-label={label}
              data-testid="roc-chart"
              className="mx-auto aspect-square max-h-80 w-full max-w-80"
            >
              <ResponsiveContainer width="100%" height="100%">
                <LineChart margin={{ top: 8, right: 12, bottom: 16, left: 4 }} accessibilityLayer={false}>
                  <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" />
                  <XAxis
                    dataKey="fpr"
                    type="number"
                    domain={[0, 1]}
                    ticks={[0, 0.25, 0.5, 0.75, 1]}
                    tickFormatter={tickFormat}
                    tick={{ fill: colors.axis, fontSize: 11 }}
                    tickLine={false}
                    axisLine={{ stroke: colors.grid }}
                    label={xAxisLabel("False positive rate", colors.axis)}
                  />
                  <YAxis
                    type="number"
                    domain={[0, 1]}
                    ticks={[0, 0.25, 0.5, 0.75, 1]}
                    tickFormatter={tickFormat}
                    width={40}
                    tick={{ fill: colors.axis, fontSize: 11 }}
                    tickLine={false}
                    axisLine={false}
                    label={yAxisLabel("True positive rate", colors.axis)}
                  />
                  <ReferenceLine
                    segment={[
                      { x: 0, y: 0 },
                      { x: 1, y: 1 },
                    ]}
                    stroke={colors.chance}
                    strokeDasharray="4 4"
                  />
                  <Tooltip
                    isAnimationActive={false}
                    cursor={false}
                    formatter={(value, name) => [tickFormat(Number(value)), String(name)]}
                    labelFormatter={(v) => `FPR ${tickFormat(Number(v))}`}
                    contentStyle={{
                      background: "var(--panel)",
                      border: "1px solid var(--border)",
                      borderRadius: 6,
                      fontSize: 12,
                    }}
                  />
                  {curves.map((c, k) => (
                    <Line
                      key={c.label}
                      data={c.points}
                      dataKey="tpr"
                      name={`${c.label} (TPR)`}
                      type="linear"
                      stroke={colorOf(k)}
                      // Earlier curves are drawn wider, so that curves which coincide (AUC 1) stay visible.
                      strokeWidth={1.75 + Math.min(curves.length - 1 - k, 4) * 1.25}
                      dot={false}
                      activeDot={{ r: 3 }}
                      isAnimationActive={false}
                    />
                  ))}
                </LineChart>
              </ResponsiveContainer>
            </div>
            <ul
              className="mt-3 flex flex-wrap justify-center gap-x-4 gap-y-1 text-sm"
              aria-label="Area under each curve"
            >
              {curves.map((c, k) => (
                <li key={c.label} className="flex items-center gap-1.5">
                  <span
                    aria-hidden
                    className="inline-block h-0.5 w-4 rounded"
                    style={{ background: colorOf(k) }}
                  />
                  <span>{c.label}</span>
                  <span className="font-mono text-xs text-muted tabular-nums">AUC {formatScore(c.auc)}</span>
                </li>
              ))}
              <li className="flex items-center gap-1.5 text-muted">
                <span
                  aria-hidden
                  className="inline-block w-4 border-t border-dashed"
                  style={{ borderColor: colors.chance }}
                />
                Chance
              </li>
            </ul>
            {perfect.length > 1 ? (
              <p className="mt-2 text-center text-xs text-muted">
                {perfect.length === curves.length ? "Every class is" : `${perfect.join(", ")} are`} separated
                perfectly (AUC 1): those curves coincide along the left and top edges.
              </p>
            ) : null}
          </>
        )}
      </div>
    </Card>
  );
}
