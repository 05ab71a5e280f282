"use client";

import { ChevronRight, Sparkles } from "lucide-react";
import Link from "next/link";
import { memo } from "react";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { formatCount } from "@/lib/editor/format";
import { type BaseModel, formatBytes, headlineFigures, sampleUnit, TASK_LABELS } from "./catalog-format";
import { LayerTable } from "./layer-table";
import { OpenInEditorButton } from "./open-in-editor-button";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[7.5rem_1fr] gap-3 py-2 text-sm">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/** One base model: what it does, how big it is, what it was trained on, its licence and its measured figures. */
export const ModelCard = memo(function ModelCard({ model }: { model: BaseModel }) {
  const figures = headlineFigures(model);
  const layers = model.architecture.nodes.filter((n) => n.type !== "Input" && n.type !== "Output").length;
  return (
    <li
      data-testid="base-model-card"
      data-model-id={model.id}
      className="flex flex-col rounded-xl border border-border bg-panel shadow-sm"
    >
      <div className="flex flex-col gap-3 px-5 pt-5 pb-4">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="accent">{TASK_LABELS[model.task]}</Badge>
          <Badge>{formatCount(model.parameter_count)} params</Badge>
          <Badge>{formatBytes(model.weights.bytes)} weights</Badge>
        </div>
        <div>
          <h2 className="text-lg font-semibold leading-snug">{model.name}</h2>
          <p className="mt-0.5 font-mono text-xs text-muted">{model.id}</p>
        </div>
        <p className="text-sm text-muted">{model.description}</p>
      </div>

      <section aria-label="Measured figures" className="mx-5 rounded-lg border border-border bg-bg px-4 py-3">
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {figures.map((f) => (
            <div key={f.key} title={f.hint} data-testid={`figure-${f.key}`}>
              <div className="text-xs text-muted">{f.label}</div>
              <div className="font-mono text-lg font-semibold tabular-nums">{f.value}</div>
            </div>
          ))}
        </div>
        <p
          className="mt-1.5 text-xs text-muted"
          title="Held-out rows were never trained on nor used to choose the epoch; the kept weights are those of the epoch with the lowest validation loss."
        >
          On {model.evaluation.rows.toLocaleString("en")} held-out {sampleUnit(model)}
          {model.evaluation.best_epoch
            ? ` · best epoch ${model.evaluation.best_epoch} of ${model.config.epochs}`
            : ""}
        </p>
      </section>

      <dl className="mx-5 mt-2 divide-y divide-border">
        <Row label="Input">{model.input}</Row>
        <Row label="Output">{model.output}</Row>
        <Row label="Training data">
          <span>{model.training_data.description}</span>{" "}
          <span className="text-muted">
            ({model.training_data.rows.toLocaleString("en")} {sampleUnit(model)})
          </span>
          <span className="mt-1 block text-xs text-muted">{model.training_data.attribution}</span>
        </Row>
        <Row label="Licence">{model.license}</Row>
        <Row label="Weights">
          <span className="text-muted">
            PyTorch state_dict · {formatBytes(model.weights.bytes)} · SHA-256{" "}
          </span>
          <code className="font-mono text-xs break-all" title={model.weights.sha256}>
            {model.weights.sha256.slice(0, 16)}…
          </code>
        </Row>
      </dl>

      <details className="group mx-5 mt-1 border-t border-border py-2">
        <summary className="flex cursor-pointer list-none items-center gap-1 py-1 text-sm font-medium select-none [&::-webkit-details-marker]:hidden">
          <ChevronRight aria-hidden className="h-4 w-4 text-muted transition group-open:rotate-90" />
          Architecture · {layers} layers
        </summary>
        <div className="mt-2">
          <LayerTable model={model} />
        </div>
      </details>

      <div className="mt-auto flex flex-wrap items-start gap-2 border-t border-border px-5 py-4">
        <Link
          href={`/training/fine-tune?base=${encodeURIComponent(model.id)}`}
          className={buttonClass("primary", "sm")}
        >
          <Sparkles aria-hidden className="h-4 w-4" />
          Fine-tune
        </Link>
        <OpenInEditorButton model={model} />
      </div>
    </li>
  );
});
