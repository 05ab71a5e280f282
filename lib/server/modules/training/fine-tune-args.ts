/**
 * How the runner starts a fine-tuning run (a job with `base_model_id`): the base model's verified
 * weights and train.py's fine-tuning options, with the run's layer ids translated to the generated
 * model's module names (the names of the state_dict's keys).
 */

import path from "node:path";
import { planCodegen } from "../../../ml/codegen/plan";
import type { Db } from "../../db/client";
import type { TrainingJobRow } from "../../db/schema";
import { ConflictError, NotFoundError } from "../../errors";
import { baseWeightsFile, type ResolvedBaseModel, resolveBaseModel } from "../catalog/base-model-sources";
import type { FineTuneArgs } from "./executors/types";

/** node id → module name in the generated model.py, for the layers that have weights. */
export function moduleNames(
  job: Pick<TrainingJobRow, "graph" | "config" | "projectName">,
): Map<string, string> {
  const plan = planCodegen(job.graph, job.config, "pytorch", { projectName: job.projectName });
  return new Map(plan.layers.filter((n) => n.paramCount > 0).map((n) => [n.id, n.name] as const));
}

/**
 * The executor's fine-tuning options of a run, or null for a plain job. The base weights are
 * verified (and, for a registry or hub base model, copied into `workDir`). Throws ConflictError or
 * NotFoundError when the base model or its weights are gone or changed since the run was created
 * (the run then fails with that reason).
 */
export async function fineTuneArgsFor(
  db: Db,
  job: Pick<TrainingJobRow, "ownerId" | "baseModelId" | "fineTune" | "graph" | "config" | "projectName">,
  workDir: string,
): Promise<FineTuneArgs | null> {
  const f = job.fineTune;
  if (!job.baseModelId || !f) return null;
  let base: ResolvedBaseModel;
  try {
    base = await resolveBaseModel(db, job.ownerId, job.baseModelId);
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new ConflictError(
        `The base model “${f.base_model_name}” is no longer available to this account.`,
      );
    throw err;
  }
  const initWeights = await baseWeightsFile(
    base,
    f.base_weights_sha256,
    path.join(workDir, "base-weights.pt"),
  );
  const names = moduleNames(job);
  const name = (id: string) => names.get(id) ?? id;
  const head = f.base_head ?? base.entry.head;
  const body = [...names.keys()].filter((id) => !head.includes(id)).map(name);
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
