"use client";

import { Database, Ruler } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatCount, taskLabel } from "@/lib/datasets-ui/format";
import { MismatchList } from "./mismatch-list";
import type { DatasetFit } from "./types";

/** Whether "Fit to dataset" can adapt the model to this dataset (every blocking mismatch has a fix). */
export function canFitTo(d: DatasetFit): boolean {
  return !d.fits && d.shape !== null && d.mismatches.some((m) => m.fix !== null);
}

/** Why a dataset does not fit: every mismatch, and the button that fits the model to it. */
function NotFitting({
  dataset: d,
  onFit,
}: {
  dataset: DatasetFit;
  onFit?: (dataset: DatasetFit) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const count = d.mismatches.length;
  const fit = async () => {
    if (!onFit) return;
    setBusy(true);
    setFailed(false);
    try {
      await onFit(d);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  if (count === 0) return <span className="mt-0.5 block text-xs text-warn">Does not fit: {d.reason}</span>;
  return (
    // The user's own datasets open: they are what one came to train on.
    <details open={!d.builtin} className="group mt-1 text-xs" data-testid={`not-fitting-${d.dataset_id}`}>
      <summary className="cursor-pointer text-warn marker:text-muted">
        Does not fit: {count === 1 ? "1 mismatch" : `${count} mismatches`}
      </summary>
      <MismatchList mismatches={d.mismatches} className="mt-1.5" />
      {onFit && canFitTo(d) ? (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <Button size="sm" variant="secondary" onClick={fit} disabled={busy}>
            <Ruler aria-hidden className="h-4 w-4" />
            {busy ? "Fitting…" : "Fit the model to this dataset"}
          </Button>
          <span className="text-muted">One step in the editor: Ctrl+Z undoes it.</span>
        </div>
      ) : null}
      {failed ? (
        <p role="alert" className="mt-1 text-danger">
          The model was fitted on screen but not saved yet: try again in a moment.
        </p>
      ) : null}
    </details>
  );
}

/**
 * The datasets to train on: those that fit the model can be picked; the others are listed, disabled,
 * with every mismatch and, where the editor can, a button that fits the model to them.
 */
export function DatasetPicker({
  items,
  loading,
  value,
  onChange,
  onFit,
  error,
}: {
  items: DatasetFit[] | undefined;
  loading: boolean;
  value: string | null;
  onChange: (datasetId: string) => void;
  /** Fits the model to a dataset that does not fit (the editor's "Fit to dataset"); absent elsewhere. */
  onFit?: (dataset: DatasetFit) => Promise<void>;
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
            "max-h-72 divide-y divide-border overflow-y-auto rounded-md border",
            error ? "border-danger" : "border-border",
          )}
        >
          {[...fitting, ...others].map((d) => {
            const checked = value === d.dataset_id;
            return (
              <div
                key={d.dataset_id}
                className={cn(
                  "px-3 py-2.5 text-sm",
                  d.fits ? "hover:bg-panel-2" : "bg-panel-2/40",
                  checked && "bg-accent-soft/60 hover:bg-accent-soft/60",
                )}
              >
                <label
                  className={cn("flex items-start gap-3", d.fits ? "cursor-pointer" : "cursor-not-allowed")}
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
                      {d.fits && d.notes.length > 0 ? (
                        <span className="mt-0.5 block" data-testid="fit-notes">
                          {d.notes.join(" ")}
                        </span>
                      ) : null}
                    </span>
                  </span>
                </label>
                {!d.fits ? (
                  <div className="pl-7">
                    <NotFitting dataset={d} onFit={onFit} />
                  </div>
                ) : null}
              </div>
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
