"use client";

import { EstimatePanel } from "@/components/training/estimate-panel";
import { Field } from "@/components/ui/field";
import type { TrainingConfig } from "@/lib/ml";
import type { FreezeChoice, LrSchedule } from "@/lib/training-ui/fine-tune-form";
import type { BaseModel } from "./use-base-models";

function freezeText(freeze: FreezeChoice, model: BaseModel): string {
  if (freeze.kind === "none") return "Every layer trains";
  if (freeze.kind === "base") return `Only the head trains: ${model.head.join(", ")}`;
  return `Frozen: ${freeze.layers.join(", ")}`;
}

/** Step 4: what will run, what it should cost, an optional name; the wizard's footer starts it. */
export function EstimateStep({
  model,
  datasetName,
  datasetId,
  datasetVersionId,
  recipeName,
  config,
  freeze,
  lrSchedule,
  warmup,
  name,
  onName,
  nameError,
}: {
  model: BaseModel;
  datasetName: string;
  datasetId: string;
  datasetVersionId: string | null;
  recipeName: string | null;
  config: TrainingConfig;
  freeze: FreezeChoice;
  lrSchedule: LrSchedule;
  warmup: number;
  name: string;
  onName: (name: string) => void;
  nameError?: string;
}) {
  const rows: [string, string][] = [
    ["Base model", model.name],
    ["Dataset", datasetName],
    ["Recipe", recipeName ?? "None"],
    ["Epochs", String(config.epochs)],
    ["Batch size", String(config.batch_size)],
    ["Learning rate", `${config.learning_rate} (${config.optimizer})`],
    [
      "Schedule",
      warmup > 0 ? `${lrSchedule}, ${warmup} warm-up epoch${warmup === 1 ? "" : "s"}` : lrSchedule,
    ],
    ["Layers", freezeText(freeze, model)],
  ];
  return (
    <div className="space-y-5">
      <section aria-label="Summary" className="rounded-md border border-border p-3">
        <h3 className="mb-2 text-sm font-medium">Summary</h3>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-4">
          {rows.map(([label, value]) => (
            <div key={label} className="min-w-0">
              <dt className="text-xs text-muted">{label}</dt>
              <dd className="truncate text-sm font-medium" title={value}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-xs text-muted">
          The head is replaced when the dataset&apos;s labels differ from the base model&apos;s. The run gets
          its own project, “{model.name} fine-tuned on {datasetName}”, holding its architecture.
        </p>
      </section>
      <EstimatePanel
        baseModelId={model.id}
        datasetId={datasetId}
        datasetVersionId={datasetVersionId}
        config={config}
        runtime="auto"
      />
      <Field
        label="Run name"
        hint="Optional: by default “<base model> fine-tuned on <dataset>”."
        value={name}
        maxLength={200}
        onChange={(e) => onName(e.target.value)}
        error={nameError}
      />
    </div>
  );
}
