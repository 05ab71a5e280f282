"use client";

import { Check } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { FINE_TUNE_STEPS, type FineTuneStep } from "@/lib/training-ui/fine-tune-form";

/** The wizard's steps as a numbered list: done steps can be revisited, later ones are not links yet. */
export function WizardSteps({
  current,
  reachable,
  onGo,
}: {
  current: FineTuneStep;
  /** Whether a step can be opened now (every step before it is complete). */
  reachable: (step: FineTuneStep) => boolean;
  onGo: (step: FineTuneStep) => void;
}) {
  const index = FINE_TUNE_STEPS.findIndex((s) => s.id === current);
  return (
    <nav aria-label="Fine-tuning steps" className="mb-6">
      <ol className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {FINE_TUNE_STEPS.map((s, i) => {
          const done = i < index;
          const here = i === index;
          const open = !here && reachable(s.id);
          return (
            <li key={s.id}>
              <button
                type="button"
                onClick={() => onGo(s.id)}
                disabled={!open}
                aria-current={here ? "step" : undefined}
                className={cn(
                  "flex w-full items-center gap-2.5 rounded-lg border px-3 py-2 text-left text-sm transition",
                  here
                    ? "border-accent bg-accent-soft/60 font-medium text-fg ring-1 ring-accent"
                    : open
                      ? "border-border bg-panel hover:bg-panel-2"
                      : "cursor-default border-border bg-panel text-muted",
                )}
              >
                <span
                  className={cn(
                    "flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
                    here ? "bg-accent text-accent-fg" : done ? "bg-ok-soft text-ok" : "bg-panel-2 text-muted",
                  )}
                  aria-hidden
                >
                  {done ? <Check className="h-3.5 w-3.5" /> : i + 1}
                </span>
                <span className="truncate">{s.title}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
