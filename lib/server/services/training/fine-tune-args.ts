/**
 * How the runner starts a fine-tuning run (a job with `base_model_id`): the base model's verified
 * weights and train.py's fine-tuning options, with the run's layer ids translated to the generated
 * model's module names (the names of the state_dict's keys).
 */
import { planCodegen } from "../../../ml/codegen/plan";
import type { TrainingJobRow } from "../../db/schema";
import { ConflictError } from "../../errors";
import { baseModelWeightsFile, findBaseModel } from "../catalog/base-models";
import type { FineTuneArgs } from "./executors/types";

/** node id → module name in the generated model.py, for the layers that have weights. */
export function moduleNames(
  job: Pick<TrainingJobRow, "graph" | "config" | "projectName">,
): Map<string, string> {
  const plan = planCodegen(job.graph, job.config, "pytorch", { projectName: job.projectName });
  return new Map(plan.layers.filter((n) => n.paramCount > 0).map((n) => [n.id, n.name] as const));
}

/**
 * The executor's fine-tuning options of a run, or null for a plain job. Throws ConflictError when the
 * base model or its weights are gone or changed since the run was created (the run then fails with
 * that reason).
 */
export async function fineTuneArgsFor(
  job: Pick<TrainingJobRow, "baseModelId" | "fineTune" | "graph" | "config" | "projectName">,
): Promise<FineTuneArgs | null> {
  const f = job.fineTune;
  if (!job.baseModelId || !f) return null;
  const base = findBaseModel(job.baseModelId);
  if (!base) throw new ConflictError(`The base model “${job.baseModelId}” is no longer in the catalog.`);
  if (base.weights.sha256 !== f.base_weights_sha256)
    throw new ConflictError(
      `The weights of the base model “${base.id}” changed since this run was created; start a new run.`,
    );
  const initWeights = await baseModelWeightsFile(base);
  const names = moduleNames(job);
  const name = (id: string) => names.get(id) ?? id;
  const body = [...names.keys()].filter((id) => !base.head.includes(id)).map(name);
  return {
    initWeights,
    replace: f.replaced_layers.map(name),
    // "base": everything but the head keeps the base weights (also when the head was kept).
    freeze:
      f.freeze === "base"
        ? body.length > 0
          ? body
          : "none"
        : f.freeze === "none"
          ? "none"
          : f.freeze.map(name),
    lrSchedule: f.lr_schedule,
    warmupEpochs: f.warmup_epochs,
  };
}
