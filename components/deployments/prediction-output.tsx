import { formatStat } from "@/lib/datasets-ui/format";
import { formatProbability, showOutput } from "@/lib/deployments-ui/outputs";

/** Classes drawn at most (a language model has one per character of its vocabulary). */
const TOP_CLASSES = 10;

/** One prediction: the label with a probability bar per class (the `top` likeliest), or the value. */
export function PredictionOutput({ output, top = TOP_CLASSES }: { output: unknown; top?: number }) {
  const shown = showOutput(output);
  if (shown.kind === "label") {
    return (
      <div className="space-y-3" data-testid="prediction">
        <p className="text-sm text-muted">
          Predicted{" "}
          <span className="text-lg font-semibold text-fg" data-testid="predicted-label">
            {shown.label}
          </span>
        </p>
        <ul className="space-y-1.5" aria-label="Class probabilities">
          {shown.classes.slice(0, top).map((c) => (
            <li key={c.name} className="grid grid-cols-[minmax(0,8rem)_1fr_4rem] items-center gap-3 text-sm">
              <span className="truncate font-mono text-xs" title={c.name}>
                {c.name}
              </span>
              <span className="h-2 overflow-hidden rounded-full bg-panel-2" aria-hidden>
                <span
                  className={c.name === shown.label ? "block h-full bg-accent" : "block h-full bg-muted/50"}
                  style={{ width: `${Math.max(0.5, c.probability * 100)}%` }}
                />
              </span>
              <span className="text-right font-mono text-xs tabular-nums">
                {formatProbability(c.probability)}
              </span>
            </li>
          ))}
        </ul>
        {shown.classes.length > top ? (
          <p className="text-xs text-muted">and {shown.classes.length - top} less likely classes</p>
        ) : null}
      </div>
    );
  }
  if (shown.kind === "value")
    return (
      <p className="text-sm text-muted" data-testid="prediction">
        Predicted value{" "}
        <span className="font-mono text-lg font-semibold text-fg tabular-nums" data-testid="predicted-value">
          {formatStat(shown.value)}
        </span>
      </p>
    );
  return (
    <pre className="overflow-x-auto rounded-md bg-panel-2/60 p-3 font-mono text-xs" data-testid="prediction">
      {shown.kind === "values" ? JSON.stringify(shown.values) : shown.json}
    </pre>
  );
}
