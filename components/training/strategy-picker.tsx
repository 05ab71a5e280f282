"use client";

import { cn } from "@/components/ui/cn";
import { useAllowedStrategies } from "@/lib/api/training/queries";
import type { TrainingRuntime } from "./types";

const LABELS: Record<string, string> = {
  single: "Single process",
  data_parallel: "Data parallel",
};

/** Runtimes a strategy other than `single` can run on (data_parallel is torchrun). */
const PYTORCH_ONLY = new Set<TrainingRuntime>(["auto", "pytorch"]);

/**
 * How the job is distributed (GET /training/allowed-strategies): strategies the plan lacks or the
 * runtime cannot run are shown disabled with the reason, never hidden.
 */
export function StrategyPicker({
  value,
  onChange,
  runtime,
  error,
}: {
  value: string;
  onChange: (strategy: string) => void;
  runtime: TrainingRuntime;
  error?: string;
}) {
  const strategies = useAllowedStrategies();
  const items = strategies.data?.items ?? [];
  if (items.length < 2) return null;
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium">Strategy</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {items.map((s) => {
          const runtimeFits = s.id === "single" || PYTORCH_ONLY.has(runtime);
          const why = !s.allowed
            ? "Not included in your plan."
            : !s.available
              ? "Not available on this server."
              : !runtimeFits
                ? "Runs the PyTorch project: pick Auto or PyTorch."
                : null;
          const enabled = why === null;
          return (
            <label
              key={s.id}
              className={cn(
                "flex gap-2.5 rounded-lg border p-2.5 text-sm transition",
                !enabled
                  ? "cursor-not-allowed border-border opacity-60"
                  : value === s.id
                    ? "cursor-pointer border-accent bg-accent-soft/50 ring-1 ring-accent"
                    : "cursor-pointer border-border hover:bg-panel-2",
              )}
            >
              <input
                type="radio"
                name="strategy"
                value={s.id}
                checked={value === s.id}
                disabled={!enabled}
                onChange={() => onChange(s.id)}
                className="mt-0.5 accent-[var(--accent)]"
              />
              <span className="min-w-0">
                <span className="font-medium">{LABELS[s.id] ?? s.id}</span>
                <span className="mt-0.5 block text-xs text-muted">
                  {why ? `${why} ` : ""}
                  {s.description}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
