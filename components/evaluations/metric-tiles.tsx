import type { Headline } from "@/lib/evaluations-ui/present";

/** The headline figures of an evaluation, as a row of tiles. */
export function MetricTiles({ items }: { items: Headline[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="evaluation-metrics">
      {items.map((m) => (
        <div key={m.key} className="rounded-lg border border-border bg-panel px-4 py-3">
          <dt className="text-xs text-muted">{m.label}</dt>
          <dd
            className="mt-1 font-mono text-2xl font-semibold tracking-tight tabular-nums"
            data-metric={m.key}
          >
            {m.value}
          </dd>
          {m.hint ? <dd className="mt-0.5 text-xs text-muted">{m.hint}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
