"use client";

import { cn } from "@/components/ui/cn";
import { type CodegenTarget, TARGETS } from "./format";

/** PyTorch / TensorFlow.js: a segmented radio group. */
export function TargetSwitch({
  value,
  onChange,
  disabled,
}: {
  value: CodegenTarget;
  onChange: (target: CodegenTarget) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset
      className={cn(
        "flex shrink-0 items-center gap-0.5 rounded-lg bg-panel-2 p-0.5",
        disabled && "opacity-60",
      )}
      disabled={disabled}
    >
      <legend className="sr-only">Target framework</legend>
      {TARGETS.map((t) => (
        <label key={t.id} title={t.hint} className="relative flex">
          <input
            type="radio"
            name="codegen-target"
            value={t.id}
            checked={value === t.id}
            onChange={() => onChange(t.id)}
            className="peer absolute inset-0 cursor-pointer appearance-none opacity-0 disabled:cursor-not-allowed"
          />
          <span
            className={cn(
              "inline-flex h-7 items-center rounded-md px-2.5 text-sm font-medium transition-colors",
              "peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-accent",
              value === t.id
                ? "bg-panel text-fg shadow-sm ring-1 ring-border"
                : "text-muted peer-hover:text-fg",
            )}
          >
            {t.label}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
