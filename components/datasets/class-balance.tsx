import { formatCount, formatPercent } from "@/lib/datasets-ui/format";
import { type ClassBalance as Balance, SPLIT_LABELS } from "@/lib/datasets-ui/splits";

/** Mid-tone hues that read on both the light and the dark panel; grey is kept for "Other". */
const CLASS_COLORS = [
  "#6366f1",
  "#14b8a6",
  "#f59e0b",
  "#ec4899",
  "#0ea5e9",
  "#84cc16",
  "#f97316",
  "#a855f7",
  "#ef4444",
  "#10b981",
  "#eab308",
];
const OTHER_COLOR = "#94a3b8";

function colorOf(balance: Balance, i: number): string {
  return balance.hasOther && i === balance.classes.length - 1
    ? OTHER_COLOR
    : CLASS_COLORS[i % CLASS_COLORS.length];
}

/**
 * Each split as a stacked bar of its classes (same colours everywhere), with a table of the counts
 * for reading exact numbers.
 */
export function ClassBalance({ balance, column }: { balance: Balance; column: string }) {
  const all = balance.overall.reduce((a, b) => a + b, 0);
  return (
    <div className="space-y-4">
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Classes">
        {balance.classes.map((c, i) => (
          <li key={c} className="flex items-center gap-1.5">
            <span
              aria-hidden
              className="h-2.5 w-2.5 rounded-sm"
              style={{ background: colorOf(balance, i) }}
            />
            <span className="font-medium">{c}</span>
          </li>
        ))}
      </ul>
      <div className="space-y-3">
        {balance.splits.map((s) => (
          <div key={s.split} data-testid={`balance-${s.split}`}>
            <div className="mb-1 flex items-baseline justify-between text-sm">
              <span className="font-medium">{SPLIT_LABELS[s.split]}</span>
              <span className="text-muted tabular-nums">
                {formatCount(s.total)} rows{all > 0 ? ` · ${formatPercent(s.total / all)}` : ""}
              </span>
            </div>
            <div
              className="flex h-5 overflow-hidden rounded bg-panel-2"
              role="img"
              aria-label={
                s.total === 0
                  ? `${SPLIT_LABELS[s.split]}: empty`
                  : `${SPLIT_LABELS[s.split]}: ${balance.classes
                      .map((c, i) => `${c} ${formatPercent(s.counts[i] / s.total)}`)
                      .join(", ")}`
              }
            >
              {s.total === 0
                ? null
                : s.counts.map((n, i) =>
                    n === 0 ? null : (
                      <div
                        key={balance.classes[i]}
                        className="h-full border-r border-panel last:border-r-0"
                        style={{
                          width: `${(n / s.total) * 100}%`,
                          background: colorOf(balance, i),
                        }}
                        title={`${balance.classes[i]}: ${formatCount(n)} (${formatPercent(n / s.total)})`}
                      />
                    ),
                  )}
            </div>
          </div>
        ))}
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid="balance-table">
          <caption className="sr-only">Rows of each class of {column} per split</caption>
          <thead>
            <tr className="border-b border-border text-left text-xs text-muted">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                {column}
              </th>
              {balance.splits.map((s) => (
                <th key={s.split} scope="col" className="px-3 py-1.5 text-right font-medium">
                  {SPLIT_LABELS[s.split]}
                </th>
              ))}
              <th scope="col" className="py-1.5 pl-3 text-right font-medium">
                All
              </th>
            </tr>
          </thead>
          <tbody>
            {balance.classes.map((c, i) => (
              <tr key={c} className="border-b border-border last:border-b-0">
                <th scope="row" className="py-1.5 pr-3 text-left font-medium">
                  <span className="flex items-center gap-1.5">
                    <span
                      aria-hidden
                      className="h-2.5 w-2.5 shrink-0 rounded-sm"
                      style={{ background: colorOf(balance, i) }}
                    />
                    {c}
                  </span>
                </th>
                {balance.splits.map((s) => (
                  <td key={s.split} className="px-3 py-1.5 text-right tabular-nums">
                    {formatCount(s.counts[i])}
                    {s.total > 0 ? (
                      <span className="text-muted"> ({formatPercent(s.counts[i] / s.total)})</span>
                    ) : null}
                  </td>
                ))}
                <td className="py-1.5 pl-3 text-right tabular-nums">
                  {formatCount(balance.overall[i])}
                  {all > 0 ? (
                    <span className="text-muted"> ({formatPercent(balance.overall[i] / all)})</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
