import { cn } from "@/components/ui/cn";
import { type EvaluationSplit, SPLITS, splitLabel } from "@/lib/evaluations-ui/present";

const HINTS: Record<EvaluationSplit, string> = {
  validation: "The rows the job held out while training",
  test: "The version's explicit test split",
  train: "The rows the model learned from",
  all: "Every row of the version",
};

/** The split to evaluate on; Test is disabled (with the reason) when the version has none. */
export function SplitRadios({
  value,
  onChange,
  hasTest,
}: {
  value: EvaluationSplit;
  onChange: (split: EvaluationSplit) => void;
  /** Null while unknown. */
  hasTest: boolean | null;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium">Split</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {SPLITS.map((split) => {
          const disabled = split === "test" && hasTest === false;
          const checked = value === split;
          return (
            <label
              key={split}
              className={cn(
                "flex items-start gap-2.5 rounded-md border px-3 py-2 text-sm",
                disabled
                  ? "cursor-not-allowed border-border bg-panel-2/40 text-muted"
                  : "cursor-pointer border-border hover:bg-panel-2",
                checked && "border-accent bg-accent-soft/60 hover:bg-accent-soft/60",
              )}
            >
              <input
                type="radio"
                name="evaluation-split"
                value={split}
                checked={checked}
                disabled={disabled}
                onChange={() => onChange(split)}
                className="mt-0.5 accent-[var(--accent)]"
              />
              <span className="min-w-0">
                <span className="block font-medium">{splitLabel(split)}</span>
                <span className="block text-xs text-muted">
                  {disabled ? "This version has no test split" : HINTS[split]}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
