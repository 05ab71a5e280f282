"use client";

import { Library } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import { Alert } from "@/components/ui/alert";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { useBaseModelList } from "@/lib/api/catalog/queries";
import { type BaseModelTask, TASK_LABELS } from "./catalog-format";
import { ModelCard } from "./model-card";

const FILTERS: (BaseModelTask | "")[] = ["", "image_classification", "classification", "language_modeling"];
type Source = "catalog" | "registry";
const SOURCES: { value: Source; label: string }[] = [
  { value: "catalog", label: "Curated" },
  { value: "registry", label: "Your registry" },
];

function Pill({
  pressed,
  onClick,
  children,
}: {
  pressed: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        "rounded-full border px-3 py-1 text-sm transition",
        pressed
          ? "border-accent bg-accent-soft font-medium text-accent"
          : "border-border text-muted hover:bg-panel-2 hover:text-fg",
      )}
    >
      {children}
    </button>
  );
}

/**
 * /catalog: base models as cards, filterable by task: the curated ones, or the caller's registry
 * versions that carry PyTorch weights.
 */
export function CatalogPage() {
  const [task, setTask] = useState<BaseModelTask | "">("");
  const [source, setSource] = useState<Source>("catalog");
  const list = useBaseModelList({ task: task || undefined, source, limit: 100 });
  const items = list.data?.items ?? [];
  return (
    <>
      <PageHeader
        title="Base models"
        description={
          source === "registry"
            ? "Your registry versions that carry PyTorch weights, with the held-out figures their jobs measured. Fine-tune one on new data, or open its architecture in the editor."
            : "Small models pretrained offline from data shipped with Layerline, with measured held-out figures. Fine-tune one on your data, or open its architecture in the editor."
        }
      />
      <div className="mb-5 flex flex-wrap items-center gap-x-6 gap-y-3">
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Where the models come from</legend>
          {SOURCES.map((o) => (
            <Pill key={o.value} pressed={source === o.value} onClick={() => setSource(o.value)}>
              {o.label}
            </Pill>
          ))}
        </fieldset>
        <span aria-hidden className="hidden h-5 w-px bg-border sm:block" />
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Filter by task</legend>
          {FILTERS.map((f) => (
            <Pill key={f || "all"} pressed={task === f} onClick={() => setTask(f)}>
              {f ? TASK_LABELS[f] : "All tasks"}
            </Pill>
          ))}
        </fieldset>
      </div>
      {list.error ? <Alert>{errorMessage(list.error)}</Alert> : null}
      {list.isPending ? (
        <p className="text-sm text-muted">Loading base models…</p>
      ) : items.length === 0 && !list.error ? (
        <EmptyState
          icon={Library}
          title={
            source === "registry"
              ? task
                ? "None of your registry models for this task"
                : "None of your registry models can be a base model yet"
              : task
                ? "No base model for this task"
                : "No base models"
          }
        >
          {source === "registry" ? (
            <>
              A registry version is a base model when it carries PyTorch weights: train on the PyTorch runtime
              and push the job to the <Link href="/registry">registry</Link>.
            </>
          ) : task ? (
            "Pick another task."
          ) : (
            "This server has no catalog: build it with npm run catalog:build (data/catalog/)."
          )}
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
