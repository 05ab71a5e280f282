"use client";

import { Database } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { formatCount, taskLabel } from "@/lib/datasets-ui/format";
import type { DatasetFit } from "./types";

/**
 * The datasets to train on: those that fit the model can be picked; the others are listed, disabled,
 * with the reason they do not fit (so that nobody wonders where their dataset went).
 */
export function DatasetPicker({
  items,
  loading,
  value,
  onChange,
  error,
}: {
  items: DatasetFit[] | undefined;
  loading: boolean;
  value: string | null;
  onChange: (datasetId: string) => void;
  error?: string;
}) {
  const fitting = items?.filter((d) => d.fits) ?? [];
  const others = items?.filter((d) => !d.fits) ?? [];
  return (
    <fieldset aria-describedby={error ? "dataset-error" : undefined}>
      <legend className="mb-2 text-sm font-medium">Dataset</legend>
      {loading ? (
        <p className="rounded-md border border-border px-3 py-4 text-sm text-muted" role="status">
          Checking which datasets fit this model…
        </p>
      ) : items && items.length === 0 ? (
        <p className="rounded-md border border-dashed border-border px-3 py-4 text-sm text-muted">
          No dataset yet.{" "}
          <Link href="/datasets" className="text-accent hover:underline">
            Upload one
          </Link>{" "}
          or use a built-in dataset.
        </p>
      ) : (
        <div
          className={cn(
            "max-h-56 divide-y divide-border overflow-y-auto rounded-md border",
            error ? "border-danger" : "border-border",
          )}
        >
          {[...fitting, ...others].map((d) => {
            const checked = value === d.dataset_id;
            return (
              <label
                key={d.dataset_id}
                className={cn(
                  "flex items-start gap-3 px-3 py-2.5 text-sm",
                  d.fits ? "cursor-pointer hover:bg-panel-2" : "cursor-not-allowed bg-panel-2/40",
                  checked && "bg-accent-soft/60 hover:bg-accent-soft/60",
                )}
              >
                <input
                  type="radio"
                  name="dataset"
                  value={d.dataset_id}
                  checked={checked}
                  disabled={!d.fits}
                  onChange={() => onChange(d.dataset_id)}
                  className="mt-0.5 accent-[var(--accent)]"
                  aria-describedby={`fit-${d.dataset_id}`}
                />
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-center gap-2">
                    <Database
                      aria-hidden
                      className={cn("h-3.5 w-3.5", d.fits ? "text-accent" : "text-muted")}
                    />
                    <span className={cn("font-medium", !d.fits && "text-muted")}>{d.name}</span>
                    {d.builtin ? <Badge tone="accent">Built-in</Badge> : null}
                  </span>
                  <span id={`fit-${d.dataset_id}`} className="mt-0.5 block text-xs text-muted">
                    {[
                      d.task ? taskLabel(d.task) : null,
                      d.rows !== null ? `${formatCount(d.rows)} rows` : null,
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                    {!d.fits && d.reason ? (
                      <span className="mt-0.5 block text-warn">Does not fit: {d.reason}</span>
                    ) : null}
                    {d.fits && d.notes.length > 0 ? (
                      <span className="mt-0.5 block" data-testid="fit-notes">
                        {d.notes.join(" ")}
                      </span>
                    ) : null}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      )}
      {error ? (
        <p id="dataset-error" role="alert" className="mt-1 text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
