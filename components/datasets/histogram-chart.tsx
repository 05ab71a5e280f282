"use client";

import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis } from "recharts";
import { coarsenBins, type HistogramBin, histogramData } from "@/lib/datasets-ui/chart-data";
import { formatCount, formatPercent, formatStat } from "@/lib/datasets-ui/format";

interface TooltipProps {
  active?: boolean;
  payload?: { payload: { label: string; count: number; share: number } }[];
}

function HistogramTooltip({ active, payload }: TooltipProps) {
  if (!active || !payload?.length) return null;
  const d = payload[0].payload;
  return (
    <div className="rounded-md border border-border bg-panel px-2.5 py-1.5 text-xs shadow-md">
      <p className="font-medium">{d.label}</p>
      <p className="text-muted">
        {formatCount(d.count)} values · {formatPercent(d.share)}
      </p>
    </div>
  );
}

/** A small histogram of a numeric column (the profile's equal-width bins). */
export function HistogramChart({
  column,
  bins,
  integer,
}: {
  column: string;
  bins: HistogramBin[];
  integer: boolean;
}) {
  const data = histogramData(coarsenBins(bins, 20), integer);
  if (data.length === 0) return null;
  const lo = bins[0].lo;
  const hi = bins[bins.length - 1].hi;
  return (
    <figure className="mt-3">
      <div
        className="h-24"
        role="img"
        aria-label={`Histogram of ${column}: ${data.length} bins from ${formatStat(lo)} to ${formatStat(hi)}; the fullest holds ${formatCount(Math.max(...data.map((d) => d.count)))} values`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            data={data}
            margin={{ top: 4, right: 0, bottom: 0, left: 0 }}
            barCategoryGap={1}
            accessibilityLayer={false}
          >
            <XAxis dataKey="label" hide />
            <Tooltip
              cursor={{ fill: "var(--panel-2)" }}
              content={<HistogramTooltip />}
              isAnimationActive={false}
            />
            <Bar dataKey="count" fill="var(--accent)" radius={[2, 2, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="mt-1 flex justify-between font-mono text-[11px] text-muted tabular-nums">
        <span>{formatStat(lo)}</span>
        <span>{formatStat(hi)}</span>
      </figcaption>
    </figure>
  );
}
