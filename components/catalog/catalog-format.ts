/** How the catalog page words and formats a base model's task, size and figures. Pure. */
import type { Schemas } from "@/lib/api/client";

export type BaseModel = Schemas["BaseModel"];
export type BaseModelTask = Schemas["BaseModelTask"];

export const TASK_LABELS: Record<BaseModelTask, string> = {
  classification: "Tabular classification",
  regression: "Regression",
  image_classification: "Image classification",
  language_modeling: "Language model",
};

/** 56149 → "54.8 KB" (binary kilobytes, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export interface Figure {
  key: string;
  label: string;
  value: string;
  hint: string;
}

const ORDER = ["accuracy", "loss", "perplexity", "bits_per_character"];

/** The headline figures of a model's held-out evaluation, in a fixed order. */
export function headlineFigures(model: Pick<BaseModel, "task" | "evaluation">): Figure[] {
  const m = model.evaluation.metrics;
  const lm = model.task === "language_modeling";
  const figures: Figure[] = [];
  for (const key of ORDER) {
    const v = m[key];
    if (v === undefined) continue;
    if (key === "accuracy")
      figures.push({
        key,
        label: lm ? "Next-char accuracy" : "Accuracy",
        value: `${(v * 100).toFixed(1)}%`,
        hint: lm
          ? "The most likely next character is the right one"
          : "Share of held-out rows classified right",
      });
    else if (key === "loss")
      figures.push({
        key,
        label: lm ? "Loss (nats/char)" : "Loss",
        value: v < 0.01 ? v.toFixed(4) : v.toFixed(3),
        hint: "Mean cross-entropy on the held-out data (lower is better)",
      });
    else if (key === "perplexity")
      figures.push({ key, label: "Perplexity", value: v.toFixed(1), hint: "exp(loss): lower is better" });
  }
  return figures;
}

/** "rows", or "windows" of text for a language model. */
export function sampleUnit(model: Pick<BaseModel, "task">): string {
  return model.task === "language_modeling" ? "windows" : "rows";
}
