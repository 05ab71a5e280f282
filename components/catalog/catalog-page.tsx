"use client";

import { Library } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import { Alert } from "@/components/ui/alert";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { $api } from "@/lib/api/client";
import { type BaseModelTask, TASK_LABELS } from "./catalog-format";
import { ModelCard } from "./model-card";

const FILTERS: (BaseModelTask | "")[] = ["", "image_classification", "classification", "language_modeling"];

/** /catalog: the curated base models, as cards, filterable by task. */
export function CatalogPage() {
  const [task, setTask] = useState<BaseModelTask | "">("");
  const list = $api.useQuery("get", "/api/v1/foundation-catalog", {
    params: { query: { task: task || undefined, limit: 100 } },
  });
  const items = list.data?.items ?? [];
  return (
    <>
      <PageHeader
        title="Base models"
        description="Small models pretrained offline from data shipped with Layerline, with measured held-out figures. Fine-tune one on your data, or open its architecture in the editor."
      />
      <fieldset className="mb-5 flex flex-wrap gap-2">
        <legend className="sr-only">Filter by task</legend>
        {FILTERS.map((f) => (
          <button
            key={f || "all"}
            type="button"
            aria-pressed={task === f}
            onClick={() => setTask(f)}
            className={cn(
              "rounded-full border px-3 py-1 text-sm transition",
              task === f
                ? "border-accent bg-accent-soft font-medium text-accent"
                : "border-border text-muted hover:bg-panel-2 hover:text-fg",
            )}
          >
            {f ? TASK_LABELS[f] : "All tasks"}
          </button>
        ))}
      </fieldset>
      {list.error ? <Alert>{errorMessage(list.error)}</Alert> : null}
      {list.isPending ? (
        <p className="text-sm text-muted">Loading base models…</p>
      ) : items.length === 0 && !list.error ? (
        <EmptyState icon={Library} title={task ? "No base model for this task" : "No base models"}>
          {task
            ? "Pick another task."
            : "This server has no catalog: build it with npm run catalog:build (data/catalog/)."}
        </EmptyState>
      ) : (
        <ul className="grid items-start gap-5 lg:grid-cols-2 2xl:grid-cols-3">
          {items.map((m) => (
            <ModelCard key={m.id} model={m} />
          ))}
        </ul>
      )}
    </>
  );
}
