import { Card, CardHeader } from "@/components/ui/card";
import { formatScore } from "@/lib/evaluations-ui/present";
import type { ClassificationResult } from "./types";

/** F1 as a number with a bar (0 to 1) beside it. */
function F1Cell({ value, muted = false }: { value: number | undefined; muted?: boolean }) {
  return (
    <td className="px-3 py-1.5 text-right">
      <span className="inline-flex items-center justify-end gap-2">
        <span aria-hidden className="h-1.5 w-16 overflow-hidden rounded-full bg-panel-2">
          <span
            className={
              muted ? "block h-full rounded-full bg-muted/60" : "block h-full rounded-full bg-accent"
            }
            style={{ width: `${Math.max(0, Math.min(1, value ?? 0)) * 100}%` }}
          />
        </span>
        <span className="w-12 text-right font-mono text-xs tabular-nums">{formatScore(value)}</span>
      </span>
    </td>
  );
}

/** Precision, recall, F1 and support per class, with a bar for F1 and the macro averages below. */
export function PerClassTable({
  perClass,
  macro,
}: {
  perClass: ClassificationResult["per_class"];
  macro: { precision?: number; recall?: number; f1?: number };
}) {
  return (
    <Card>
      <CardHeader title="Per class" description="Support: rows whose true class it is." />
      <div className="max-h-[28rem] overflow-auto">
        <table className="w-full text-sm whitespace-nowrap" data-testid="per-class-table">
          <caption className="sr-only">Precision, recall, F1 and support of each class</caption>
          <thead className="sticky top-0 bg-panel">
            <tr className="border-b border-border text-left text-xs text-muted">
              <th scope="col" className="py-2 pr-3 pl-5 font-medium">
                Class
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Precision
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Recall
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                F1
              </th>
              <th scope="col" className="py-2 pr-5 pl-3 text-right font-medium">
                Support
              </th>
            </tr>
          </thead>
          <tbody>
            {perClass.map((c) => (
              <tr
                key={c.label}
                className="border-t border-border first:border-t-0"
                data-testid="per-class-row"
              >
                <th
                  scope="row"
                  className="max-w-48 truncate py-1.5 pr-3 pl-5 text-left font-medium"
                  title={c.label}
                >
                  {c.label}
                </th>
                <td className="px-3 py-1.5 text-right font-mono text-xs tabular-nums">
                  {formatScore(c.precision)}
                </td>
                <td className="px-3 py-1.5 text-right font-mono text-xs tabular-nums">
                  {formatScore(c.recall)}
                </td>
                <F1Cell value={c.f1} />
                <td className="py-1.5 pr-5 pl-3 text-right tabular-nums">{c.support}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-border bg-panel-2/50 text-muted">
              <th scope="row" className="py-1.5 pr-3 pl-5 text-left text-xs font-medium">
                Macro average
              </th>
              <td className="px-3 py-1.5 text-right font-mono text-xs tabular-nums">
                {formatScore(macro.precision)}
              </td>
              <td className="px-3 py-1.5 text-right font-mono text-xs tabular-nums">
                {formatScore(macro.recall)}
              </td>
              <F1Cell value={macro.f1} muted />
              <td className="py-1.5 pr-5 pl-3 text-right tabular-nums">
                {perClass.reduce((a, c) => a + c.support, 0)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </Card>
  );
}
