"use client";

import { ArrowRight, CircleAlert, Info } from "lucide-react";
import { cn } from "@/components/ui/cn";
import type { Mismatch } from "@/lib/ml/fit-dataset";

/**
 * Every way a model and a dataset disagree, one line each: what differs, and what "Fit to dataset"
 * changes about it (or that it cannot). Conversions that training does anyway (channels, picture
 * size) are marked as such, not as blockers.
 */
export function MismatchList({
  mismatches,
  className,
}: {
  mismatches: readonly Mismatch[];
  className?: string;
}) {
  return (
    <ul className={cn("space-y-1.5", className)} aria-label="Mismatches" data-testid="mismatches">
      {mismatches.map((m) => (
        <li key={`${m.kind}:${m.message}`} className="flex items-start gap-2 text-xs">
          {m.blocking ? (
            <CircleAlert aria-hidden className="mt-0.5 h-3.5 w-3.5 shrink-0 text-warn" />
          ) : (
            <Info aria-hidden className="mt-0.5 h-3.5 w-3.5 shrink-0 text-muted" />
          )}
          <span className="min-w-0">
            <span className={m.blocking ? "text-fg" : "text-muted"}>
              {m.blocking ? null : <span className="sr-only">Converted anyway: </span>}
              {m.message}
            </span>
            {m.fix ? (
              <span className="mt-0.5 flex items-center gap-1 text-muted">
                <ArrowRight aria-hidden className="h-3 w-3 shrink-0 text-accent" />
                <span>
                  <span className="sr-only">Fitting changes: </span>
                  {m.fix}
                </span>
              </span>
            ) : m.kind !== "model" ? (
              <span className="mt-0.5 block text-muted">Fitting cannot change this.</span>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
