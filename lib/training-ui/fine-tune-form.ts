/**
 * The fine-tuning wizard's state, pure: its steps, which of them can be left, and the body of
 * POST /training/foundation-runs it ends with (only what differs from the server's defaults).
 */
import type { TrainingConfig } from "@/lib/ml";

export const FINE_TUNE_STEPS = [
  { id: "base", title: "Base model" },
  { id: "dataset", title: "Dataset" },
  { id: "recipe", title: "Recipe" },
  { id: "estimate", title: "Estimate & start" },
] as const;
export type FineTuneStep = (typeof FINE_TUNE_STEPS)[number]["id"];

export type FreezeChoice = { kind: "none" } | { kind: "base" } | { kind: "layers"; layers: string[] };
export type LrSchedule = "constant" | "cosine" | "linear";

export interface FineTuneState {
  baseModelId: string | null;
  datasetId: string | null;
  datasetVersionId: string | null;
  recipeId: string | null;
  /** The configuration as typed, null while a field is invalid. */
  config: TrainingConfig | null;
  freeze: FreezeChoice;
  lrSchedule: LrSchedule;
  /** Warm-up epochs as typed. */
  warmupText: string;
  name: string;
}

export const INITIAL_FINE_TUNE: Omit<FineTuneState, "config"> = {
  baseModelId: null,
  datasetId: null,
  datasetVersionId: null,
  recipeId: null,
  freeze: { kind: "none" },
  lrSchedule: "cosine",
  warmupText: "0",
  name: "",
};

/** Warm-up epochs (0–100, fractions allowed), or an error message. */
export function parseWarmup(text: string): { ok: true; value: number } | { ok: false; error: string } {
  const t = text.trim();
  if (t === "") return { ok: true, value: 0 };
  const n = Number(t);
  if (!Number.isFinite(n) || n < 0 || n > 100)
    return { ok: false, error: "A number of epochs from 0 to 100" };
  return { ok: true, value: n };
}

/** Why a step cannot be left yet, or null. */
export function stepBlocker(step: FineTuneStep, s: FineTuneState): string | null {
  switch (step) {
    case "base":
      return s.baseModelId ? null : "Choose a base model.";
    case "dataset":
      return s.datasetId ? null : "Choose a dataset that fits the base model.";
    case "recipe":
      if (!s.config) return "Fix the configuration first.";
      if (!parseWarmup(s.warmupText).ok) return "Fix the warm-up first.";
      if (s.freeze.kind === "layers" && s.freeze.layers.length === 0) return "Choose the layers to freeze.";
      return null;
    case "estimate":
      return stepBlocker("recipe", s) ?? stepBlocker("dataset", s) ?? stepBlocker("base", s);
  }
}

/** The first step that blocks, so a link to a later step can land on the step to finish first. */
export function reachableStep(wanted: FineTuneStep, s: FineTuneState): FineTuneStep {
  for (const { id } of FINE_TUNE_STEPS) {
    if (id === wanted) return id;
    if (stepBlocker(id, s)) return id;
  }
  return wanted;
}

export interface FoundationRunBody {
  base_model_id: string;
  dataset_id: string;
  dataset_version_id?: string;
  recipe_id?: string;
  config?: TrainingConfig;
  freeze: "none" | "base" | string[];
  lr_schedule: LrSchedule;
  warmup_epochs: number;
  name?: string;
  runtime: "auto";
  strategy: "single";
}

/** The request body, or null while a step is unfinished. */
export function runBody(s: FineTuneState): FoundationRunBody | null {
  const warmup = parseWarmup(s.warmupText);
  if (!s.baseModelId || !s.datasetId || !s.config || !warmup.ok) return null;
  if (s.freeze.kind === "layers" && s.freeze.layers.length === 0) return null;
  return {
    base_model_id: s.baseModelId,
    dataset_id: s.datasetId,
    ...(s.datasetVersionId ? { dataset_version_id: s.datasetVersionId } : {}),
    ...(s.recipeId ? { recipe_id: s.recipeId } : {}),
    config: s.config,
    freeze: s.freeze.kind === "layers" ? [...s.freeze.layers].sort() : s.freeze.kind,
    lr_schedule: s.lrSchedule,
    warmup_epochs: warmup.value,
    ...(s.name.trim() ? { name: s.name.trim() } : {}),
    runtime: "auto",
    strategy: "single",
  };
}
