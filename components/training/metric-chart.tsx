"use client";

import { useState } from "react";
import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatCompact, formatStat } from "@/lib/datasets-ui/format";
import { logDomain, logTicks, positiveOnly } from "@/lib/training-ui/log-scale";
import type { ChartRow, XAxisKey } from "@/lib/training-ui/series";

export interface ChartLine {
  key: string;
  label: string;
  color: string;
  dashed?: boolean;
}

interface TooltipEntry {
  dataKey?: string | number | ((obj: unknown) => unknown);
  value?: number | string;
  payload?: ChartRow;
}

function MetricTooltip({
  active,
  payload,
  label,
  lines,
  xLabel,
  smoothed,
}: {
  active?: boolean;
  payload?: TooltipEntry[];
  label?: string | number;
  lines: ChartLine[];
  xLabel: string;
  smoothed: boolean;
}) {
  if (!active || !payload?.length) return null;
  const row = payload[0].payload;
  if (!row) return null;
  return (
    <div className="rounded-md border border-border bg-panel px-2.5 py-1.5 text-xs shadow-md">
      <p className="mb-1 font-medium">
        {xLabel} {label}
      </p>
      <table className="tabular-nums">
        <tbody>
          {lines.map((l) => {
            const value = row[l.key];
            const raw = row[`${l.key}__raw`];
            if (value === undefined && raw === undefined) return null;
            return (
              <tr key={l.key}>
                <td className="pr-2">
                  <span
                    aria-hidden
                    className="mr-1.5 inline-block h-2 w-2 rounded-full"
                    style={{ background: l.color }}
                  />
                  {l.label}
                </td>
                <td className="text-right font-mono">{raw === undefined ? "–" : formatStat(raw)}</td>
                {smoothed ? (
                  <td className="pl-2 text-right font-mono text-muted">
                    {value === undefined ? "" : `~${formatStat(value)}`}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One metric chart: a line per series (smoothed, with the raw values faint behind when smoothing),
 * hover values, an optional log axis, and drag-to-zoom: dragging across the plot selects an x range
 * and `onZoom` receives it.
 */
export function MetricChart({
  title,
  rows,
  lines,
  x,
  logScale,
  smoothing,
  colors,
  onZoom,
  height = 220,
}: {
  title: string;
  rows: ChartRow[];
  lines: ChartLine[];
  x: XAxisKey;
  logScale: boolean;
  smoothing: number;
  colors: { grid: string; axis: string; select: string };
  onZoom?: (from: number, to: number) => void;
  height?: number;
}) {
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const keys = lines.flatMap((l) => [l.key, `${l.key}__raw`]);
  const domain = logScale ? logDomain(rows.flatMap((r) => lines.map((l) => r[`${l.key}__raw`]))) : null;
  const useLog = logScale && domain !== null;
  const data = useLog ? positiveOnly(rows, keys) : rows;
  const smoothed = smoothing > 0;
  const xLabel = x === "step" ? "Step" : "Epoch";
  const last = rows[rows.length - 1];
  const summary = lines
    .map((l) => {
      const v = [...rows].reverse().find((r) => r[`${l.key}__raw`] !== undefined)?.[`${l.key}__raw`];
      return v === undefined ? null : `${l.label} ${formatStat(v)}`;
    })
    .filter(Boolean)
    .join(", ");
  const label = `${title}: ${rows.length} point${rows.length === 1 ? "" : "s"}${last ? ` up to ${xLabel.toLowerCase()} ${last.x}` : ""}${summary ? `; latest ${summary}` : ""}`;

  const at = (state: { activeLabel?: string | number }) => {
    const v = Number(state.activeLabel);
    return Number.isFinite(v) ? v : null;
  };

  return (
    <div
      role="img"
      aria-label={label}
      data-testid="metric-chart"
      data-points={rows.length}
      style={{ height }}
      className="select-none"
    >
      {rows.length === 0 ? (
        <div className="flex h-full items-center justify-center rounded-md border border-dashed border-border text-sm text-muted">
          No points yet
        </div>
      ) : (
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            data={data}
            margin={{ top: 8, right: 12, bottom: 4, left: 0 }}
            accessibilityLayer={false}
            onMouseDown={(s) => {
              const v = onZoom ? at(s) : null;
              if (v !== null) setDrag({ from: v, to: v });
            }}
            onMouseMove={(s) => {
              const v = at(s);
              if (drag && v !== null) setDrag({ ...drag, to: v });
            }}
            onMouseUp={() => {
              if (drag && drag.from !== drag.to) onZoom?.(drag.from, drag.to);
              setDrag(null);
            }}
            onMouseLeave={() => setDrag(null)}
          >
            <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="x"
              type="number"
              domain={["dataMin", "dataMax"]}
              allowDecimals={false}
              tick={{ fill: colors.axis, fontSize: 11 }}
              tickLine={false}
              axisLine={{ stroke: colors.grid }}
              tickFormatter={(v: number) => formatCompact(v)}
            />
            <YAxis
              width={52}
              scale={useLog ? "log" : "auto"}
              domain={useLog && domain ? domain : ["auto", "auto"]}
              ticks={useLog && domain ? logTicks(domain) : undefined}
              allowDataOverflow={useLog}
              tick={{ fill: colors.axis, fontSize: 11 }}
              tickLine={false}
              axisLine={false}
              tickFormatter={(v: number) => (useLog ? formatStat(v) : formatCompact(v))}
            />
            <Tooltip
              isAnimationActive={false}
              cursor={{ stroke: colors.axis, strokeDasharray: "3 3" }}
              content={<MetricTooltip lines={lines} xLabel={xLabel} smoothed={smoothed} />}
            />
            {smoothed
              ? lines.map((l) => (
                  <Line
                    key={`${l.key}-raw`}
                    dataKey={`${l.key}__raw`}
                    stroke={l.color}
                    strokeOpacity={0.22}
                    strokeWidth={1}
                    dot={false}
                    activeDot={false}
                    connectNulls
                    isAnimationActive={false}
                    legendType="none"
                  />
                ))
              : null}
            {lines.map((l) => (
              <Line
                key={l.key}
                dataKey={smoothed ? l.key : `${l.key}__raw`}
                name={l.label}
                stroke={l.color}
                strokeWidth={1.75}
                strokeDasharray={l.dashed ? "5 3" : undefined}
                dot={rows.length <= 30 ? { r: 2, strokeWidth: 0, fill: l.color } : false}
                activeDot={{ r: 3.5 }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
            {drag && drag.from !== drag.to ? (
              <ReferenceArea
                x1={Math.min(drag.from, drag.to)}
                x2={Math.max(drag.from, drag.to)}
                fill={colors.select}
                fillOpacity={0.12}
                stroke={colors.select}
                strokeOpacity={0.4}
              />
            ) : null}
          </LineChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}
