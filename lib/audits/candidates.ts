/**
 * Which candidates to try for a workload: a training recipe and a base model of the catalog
 * (data/catalog) whose task suits it. A classification workload is learnt by a table classifier
 * on hashed text features (features.ts); a generation workload by a character language model.
 */
import type { AuditTask } from "./types";

export interface CandidateChoice {
  recipe_id: string;
  base_model_id: string;
}

export const CANDIDATES_BY_TASK: Record<AuditTask, readonly CandidateChoice[]> = {
  classification: [{ recipe_id: "tabular-mlp-classifier", base_model_id: "breast-cancer-mlp" }],
  generation: [{ recipe_id: "char-lstm-lm", base_model_id: "char-lstm-declaration" }],
};

export function chooseCandidates(task: AuditTask): CandidateChoice[] {
  return [...CANDIDATES_BY_TASK[task]];
}
