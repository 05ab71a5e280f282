import { formatMetric, metricLabel, orderedMetrics } from "./hub-format";

/** Evaluation figures as label/value pairs (the usual headline metrics first). */
export function MetricList({
  metrics,
  max,
  testId,
}: {
  metrics: Record<string, number>;
  max?: number;
  testId?: string;
}) {
  const rows = orderedMetrics(metrics, max);
  if (rows.length === 0) return null;
  return (
    <dl
      className="grid grid-cols-[repeat(auto-fill,minmax(6.5rem,1fr))] gap-x-4 gap-y-2"
      data-testid={testId}
    >
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt className="text-xs text-muted">{metricLabel(k)}</dt>
          <dd className="font-mono text-sm font-semibold tabular-nums">{formatMetric(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
