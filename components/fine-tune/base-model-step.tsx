"use client";

import { Boxes } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { taskLabel } from "@/lib/datasets-ui/format";
import type { BaseModel } from "./use-base-models";

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/** The figure a card shows: held-out accuracy for classifiers, perplexity for language models. */
function headline(model: BaseModel): string | null {
  const m = model.evaluation.metrics;
  if (typeof m.accuracy === "number" && model.task !== "language_modeling")
    return `${(m.accuracy * 100).toFixed(1)}% held-out accuracy`;
  if (typeof m.perplexity === "number") return `perplexity ${m.perplexity.toFixed(1)} held out`;
  if (typeof m.r2 === "number") return `R² ${m.r2.toFixed(3)} held out`;
  return null;
}

/** Where a base model comes from, when not the curated catalog. */
function sourceLabel(source: BaseModel["source"]): string | null {
  if (source.kind === "model_version") return "Your registry";
  if (source.kind === "hub_model") return `Hub · ${source.owner}`;
  return null;
}

/** Step 1: the base models as cards (radio buttons), the one from `?base=` preselected. */
export function BaseModelStep({
  models,
  loading,
  error,
  value,
  onChange,
}: {
  models: BaseModel[] | undefined;
  loading: boolean;
  error: string | null;
  value: string | null;
  onChange: (model: BaseModel) => void;
}) {
  if (loading)
    return (
      <p className="rounded-lg border border-border px-4 py-8 text-center text-sm text-muted" role="status">
        Loading the base models…
      </p>
    );
  if (error) return <p className="text-sm text-danger">Could not load the base models: {error}</p>;
  if (!models || models.length === 0)
    return (
      <EmptyState icon={Boxes} title="No base models on this server">
        The catalog of pretrained models is empty: build it with <code>npm run catalog:build</code>.
      </EmptyState>
    );
  return (
    <fieldset>
      <legend className="mb-3 text-sm text-muted">
        Start from weights pretrained on another dataset: fine-tuning needs fewer epochs and less data.
      </legend>
      <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
        {models.map((m) => {
          const checked = value === m.id;
          const figure = headline(m);
          return (
            <label
              key={m.id}
              data-testid={`base-model-${m.id}`}
              className={cn(
                "flex cursor-pointer flex-col gap-2 rounded-lg border bg-panel p-4 text-sm transition",
                checked ? "border-accent ring-1 ring-accent" : "border-border hover:bg-panel-2",
              )}
            >
              <span className="flex items-start gap-2.5">
                <input
                  type="radio"
                  name="base-model"
                  value={m.id}
                  checked={checked}
                  onChange={() => onChange(m)}
                  className="mt-1 accent-[var(--accent)]"
                />
                <span className="min-w-0 flex-1">
                  <span className="block font-semibold">{m.name}</span>
                  <span className="mt-1 flex flex-wrap gap-1.5">
                    {sourceLabel(m.source) ? <Badge tone="ok">{sourceLabel(m.source)}</Badge> : null}
                    <Badge tone="accent">{taskLabel(m.task)}</Badge>
                    <Badge>{compact.format(m.parameter_count)} parameters</Badge>
                  </span>
                </span>
              </span>
              <span className="text-muted">{m.description}</span>
              <dl className="mt-auto grid gap-1 border-t border-border pt-2 text-xs">
                <div className="flex gap-2">
                  <dt className="w-12 shrink-0 text-muted">Input</dt>
                  <dd>{m.input}</dd>
                </div>
                <div className="flex gap-2">
                  <dt className="w-12 shrink-0 text-muted">Output</dt>
                  <dd>{m.output}</dd>
                </div>
                {figure ? (
                  <div className="flex gap-2">
                    <dt className="w-12 shrink-0 text-muted">Quality</dt>
                    <dd>{figure}</dd>
                  </div>
                ) : null}
              </dl>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
