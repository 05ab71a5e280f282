"use client";

import { Cpu, Laptop, Sparkles } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import type { Schemas } from "@/lib/api/client";
import type { TrainingRuntime } from "./types";

type RuntimeList = Schemas["TrainingRuntimeList"];

export const RUNTIME_LABELS: Record<TrainingRuntime, string> = {
  auto: "Auto",
  pytorch: "PyTorch",
  tfjs: "TensorFlow.js",
  external: "Your hardware",
};

const ICONS: Record<TrainingRuntime, ReactNode> = {
  auto: <Sparkles aria-hidden className="h-4 w-4" />,
  pytorch: <Cpu aria-hidden className="h-4 w-4" />,
  tfjs: <Cpu aria-hidden className="h-4 w-4" />,
  external: <Laptop aria-hidden className="h-4 w-4" />,
};

/** Where the job runs: auto (what it picks here), PyTorch, TF.js or the user's own hardware. */
export function RuntimePicker({
  list,
  value,
  onChange,
  error,
}: {
  list: RuntimeList | undefined;
  value: TrainingRuntime;
  onChange: (runtime: TrainingRuntime) => void;
  error?: string;
}) {
  const options: { runtime: TrainingRuntime; available: boolean; description: string }[] = [
    {
      runtime: "auto",
      available: true,
      description: list
        ? `Picks ${RUNTIME_LABELS[list.auto]} on this server.`
        : "The best runtime this server has.",
    },
    ...(list?.items ?? []).map((r) => ({ ...r, description: r.description })),
  ];
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium">Runtime</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((o) => (
          <label
            key={o.runtime}
            className={cn(
              "flex gap-2.5 rounded-lg border p-2.5 text-sm transition",
              !o.available
                ? "cursor-not-allowed border-border opacity-60"
                : value === o.runtime
                  ? "cursor-pointer border-accent bg-accent-soft/50 ring-1 ring-accent"
                  : "cursor-pointer border-border hover:bg-panel-2",
            )}
          >
            <input
              type="radio"
              name="runtime"
              value={o.runtime}
              checked={value === o.runtime}
              disabled={!o.available}
              onChange={() => onChange(o.runtime)}
              className="mt-0.5 accent-[var(--accent)]"
            />
            <span className="min-w-0">
              <span className="flex items-center gap-1.5 font-medium">
                {ICONS[o.runtime]}
                {RUNTIME_LABELS[o.runtime]}
              </span>
              <span className="mt-0.5 block text-xs text-muted">
                {o.available ? o.description : `Not available on this server. ${o.description}`}
              </span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
