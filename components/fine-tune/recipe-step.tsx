"use client";

import { useId } from "react";
import { ConfigField } from "@/components/training/config-fields";
import type { TrainingRecipe } from "@/components/training/recipe-picker";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { WEIGHTED_LAYER_TYPES } from "@/lib/ml/catalog/types";
import { CONFIG_FIELDS, type ConfigTexts } from "@/lib/training-ui/config-form";
import { type FreezeChoice, type LrSchedule, parseWarmup } from "@/lib/training-ui/fine-tune-form";
import type { BaseModel } from "./use-base-models";

const SCHEDULES: { value: LrSchedule; label: string; hint: string }[] = [
  { value: "cosine", label: "Cosine", hint: "Decays smoothly to zero: the usual choice for fine-tuning" },
  { value: "linear", label: "Linear", hint: "Decays in a straight line to zero" },
  { value: "constant", label: "Constant", hint: "The same learning rate throughout" },
];

/** Whether a recipe suits the base model's task (image and table classifiers share recipes). */
export function recipeSuits(recipe: TrainingRecipe, model: BaseModel): boolean {
  if (recipe.task === model.task) return true;
  const classifiers = ["classification", "image_classification"];
  return classifiers.includes(recipe.task) && classifiers.includes(model.task);
}

function FreezeOptions({
  model,
  value,
  onChange,
}: {
  model: BaseModel;
  value: FreezeChoice;
  onChange: (v: FreezeChoice) => void;
}) {
  const layers = model.architecture.nodes.filter((n) => WEIGHTED_LAYER_TYPES.has(n.type));
  const options: { kind: FreezeChoice["kind"]; label: string; hint: string; disabled?: boolean }[] = [
    {
      kind: "none",
      label: "Train every layer",
      hint: "All weights start from the base model and keep learning.",
    },
    {
      kind: "base",
      label: "Train only the head",
      hint:
        model.head.length > 0
          ? `Every layer but the head (${model.head.join(", ")}) keeps the base model's weights.`
          : "This model has no separate head.",
      disabled: model.head.length === 0,
    },
    {
      kind: "layers",
      label: "Freeze chosen layers",
      hint: "The layers ticked below keep their base weights.",
    },
  ];
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium">Layers to train</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {options.map((o) => (
          <label
            key={o.kind}
            className={cn(
              "flex gap-2.5 rounded-lg border p-2.5 text-sm transition",
              o.disabled
                ? "cursor-not-allowed border-border opacity-60"
                : value.kind === o.kind
                  ? "cursor-pointer border-accent bg-accent-soft/50 ring-1 ring-accent"
                  : "cursor-pointer border-border hover:bg-panel-2",
            )}
          >
            <input
              type="radio"
              name="freeze"
              checked={value.kind === o.kind}
              disabled={o.disabled}
              onChange={() =>
                onChange(o.kind === "layers" ? { kind: "layers", layers: [] } : { kind: o.kind })
              }
              className="mt-0.5 accent-[var(--accent)]"
            />
            <span className="min-w-0">
              <span className="block font-medium">{o.label}</span>
              <span className="mt-0.5 block text-xs text-muted">{o.hint}</span>
            </span>
          </label>
        ))}
      </div>
      {value.kind === "layers" ? (
        <fieldset className="mt-3 flex flex-wrap gap-2" aria-label="Frozen layers">
          {layers.map((n) => {
            const on = value.layers.includes(n.id);
            return (
              <label
                key={n.id}
                className={cn(
                  "inline-flex cursor-pointer items-center gap-2 rounded-md border px-2.5 py-1.5 font-mono text-xs",
                  on ? "border-accent bg-accent-soft/60" : "border-border hover:bg-panel-2",
                )}
              >
                <input
                  type="checkbox"
                  checked={on}
                  onChange={() =>
                    onChange({
                      kind: "layers",
                      layers: on ? value.layers.filter((l) => l !== n.id) : [...value.layers, n.id],
                    })
                  }
                  className="accent-[var(--accent)]"
                />
                {n.id} <span className="text-muted">{n.type}</span>
              </label>
            );
          })}
        </fieldset>
      ) : null}
    </fieldset>
  );
}

/** Step 3: a recipe (its configuration), the configuration itself, what to freeze and the schedule. */
export function RecipeStep({
  model,
  recipes,
  recipeId,
  onRecipe,
  texts,
  fieldError,
  onText,
  freeze,
  onFreeze,
  lrSchedule,
  onSchedule,
  warmupText,
  onWarmup,
}: {
  model: BaseModel;
  recipes: TrainingRecipe[];
  recipeId: string | null;
  onRecipe: (recipe: TrainingRecipe | null) => void;
  texts: ConfigTexts;
  fieldError: (field: string) => string | undefined;
  onText: (field: string, text: string) => void;
  freeze: FreezeChoice;
  onFreeze: (v: FreezeChoice) => void;
  lrSchedule: LrSchedule;
  onSchedule: (v: LrSchedule) => void;
  warmupText: string;
  onWarmup: (text: string) => void;
}) {
  const id = useId();
  const suitable = recipes.filter((r) => recipeSuits(r, model));
  const picked = suitable.find((r) => r.id === recipeId) ?? null;
  const warmup = parseWarmup(warmupText);
  const schedule = SCHEDULES.find((s) => s.value === lrSchedule);
  return (
    <div className="space-y-6">
      <div>
        <label htmlFor={`${id}-recipe`} className="mb-1 block text-sm font-medium">
          Recipe
        </label>
        <select
          id={`${id}-recipe`}
          className={inputClass}
          value={recipeId ?? ""}
          onChange={(e) => onRecipe(suitable.find((r) => r.id === e.target.value) ?? null)}
        >
          <option value="">None: the base model&apos;s own training settings</option>
          {suitable.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
        <p className="mt-1 text-xs text-muted">
          {picked ? picked.description : "A recipe fills the configuration below with its tuned values."}
        </p>
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Configuration</legend>
        <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2 lg:grid-cols-4">
          {CONFIG_FIELDS.map((f) => (
            <ConfigField
              key={f.name}
              field={f}
              text={texts[f.name] ?? ""}
              error={fieldError(f.name)}
              onChange={(t) => onText(f.name, t)}
            />
          ))}
        </div>
      </fieldset>
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-1">
          <label htmlFor={`${id}-schedule`} className="block text-sm font-medium">
            Learning-rate schedule
          </label>
          <select
            id={`${id}-schedule`}
            className={inputClass}
            value={lrSchedule}
            onChange={(e) => onSchedule(e.target.value as LrSchedule)}
          >
            {SCHEDULES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
          <p className="text-xs text-muted">{schedule?.hint}</p>
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-warmup`} className="block text-sm font-medium">
            Warm-up epochs
          </label>
          <input
            id={`${id}-warmup`}
            className={cn(inputClass, "font-mono", !warmup.ok && "border-danger")}
            inputMode="decimal"
            value={warmupText}
            aria-invalid={!warmup.ok || undefined}
            onChange={(e) => onWarmup(e.target.value)}
          />
          <p className={cn("text-xs", warmup.ok ? "text-muted" : "font-medium text-danger")}>
            {warmup.ok ? "The rate rises linearly from 0 first (fractions allowed)" : warmup.error}
          </p>
        </div>
      </div>
      <FreezeOptions model={model} value={freeze} onChange={onFreeze} />
    </div>
  );
}
