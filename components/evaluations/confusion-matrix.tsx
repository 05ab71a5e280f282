import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { formatShare, heatMap } from "@/lib/evaluations-ui/present";

/**
 * The confusion matrix as a heat map: a table (true class per row, predicted class per column) with
 * each count in its cell, shaded by its share of the row, so that each row reads as "where this
 * class's rows went". The shading never hides the number (at most 60% accent behind it).
 */
export function ConfusionMatrix({
  labels,
  matrix,
  selectable,
  selected,
  onSelect,
}: {
  labels: string[];
  matrix: number[][];
  /** Image evaluations: which off-diagonal cells have pictures to show (by "i,j"). */
  selectable?: ReadonlySet<string>;
  selected?: readonly [number, number] | null;
  onSelect?: (cell: [number, number] | null) => void;
}) {
  const cells = heatMap(matrix);
  const dense = labels.length > 8;
  return (
    <Card>
      <CardHeader
        title="Confusion matrix"
        description={
          selectable && selectable.size > 0
            ? "Rows: the true class; columns: the predicted class. Shading: share of the row. Click a mistake to see its pictures."
            : "Rows: the true class; columns: the predicted class. Shading: share of the row."
        }
      />
      <div className="overflow-x-auto px-5 py-4">
        <table className="mx-auto border-separate border-spacing-1 text-sm" data-testid="confusion-matrix">
          <caption className="sr-only">
            Confusion matrix: rows are the true classes, columns the predicted classes; each cell holds a
            count and its share of the row.
          </caption>
          <thead>
            <tr>
              <td />
              <th
                scope="colgroup"
                colSpan={labels.length}
                className="pb-1 text-center text-xs font-medium tracking-wide text-muted uppercase"
              >
                Predicted
              </th>
            </tr>
            <tr>
              <th
                scope="col"
                className="pr-2 text-right text-xs font-medium tracking-wide text-muted uppercase"
              >
                Actual
              </th>
              {labels.map((l) => (
                <th
                  key={l}
                  scope="col"
                  className={cn(
                    "max-w-24 truncate px-1 pb-1 text-center text-xs font-medium",
                    dense ? "min-w-10" : "min-w-20",
                  )}
                  title={l}
                >
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {cells.map((row, i) => (
              <tr key={labels[i]}>
                <th
                  scope="row"
                  className="max-w-40 truncate pr-2 text-right text-xs font-medium"
                  title={labels[i]}
                >
                  {labels[i]}
                </th>
                {row.map((cell, j) => (
                  <td
                    key={labels[j]}
                    data-testid="confusion-cell"
                    title={`${labels[i]} predicted as ${labels[j]}: ${cell.count} (${formatShare(cell.share)} of ${labels[i]})`}
                    className={cn(
                      "rounded-md p-0 text-center tabular-nums",
                      i === j ? "ring-1 ring-accent/50 ring-inset" : "",
                      selected?.[0] === i && selected?.[1] === j ? "ring-2 ring-fg ring-inset" : "",
                    )}
                    style={{
                      background: `color-mix(in srgb, var(--accent) ${Math.round(cell.heat * 100)}%, var(--panel-2))`,
                    }}
                  >
                    {selectable?.has(`${i},${j}`) && onSelect ? (
                      <button
                        type="button"
                        data-testid="confusion-cell-button"
                        aria-pressed={selected?.[0] === i && selected?.[1] === j}
                        aria-label={`Show the pictures of ${labels[i]} predicted as ${labels[j]}`}
                        onClick={() => onSelect(selected?.[0] === i && selected?.[1] === j ? null : [i, j])}
                        className={cn(
                          "block w-full cursor-pointer rounded-md underline decoration-dotted underline-offset-4 hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-accent",
                          dense ? "h-10 px-1" : "h-14 px-2",
                        )}
                      >
                        <CellFigures count={cell.count} share={cell.share} dense={dense} />
                      </button>
                    ) : (
                      <div className={cn("flex flex-col justify-center", dense ? "h-10 px-1" : "h-14 px-2")}>
                        <CellFigures count={cell.count} share={cell.share} dense={dense} />
                      </div>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function CellFigures({ count, share, dense }: { count: number; share: number; dense: boolean }) {
  return (
    <>
      <span className={cn("block font-semibold", dense ? "text-xs" : "text-base")}>{count}</span>
      {dense ? null : <span className="block text-[11px] leading-tight">{formatShare(share)}</span>}
    </>
  );
}
