import type { Schemas } from "@/lib/api/client";

export type Evaluation = Schemas["Evaluation"];
export type EvaluationList = Schemas["EvaluationList"];
export type EvaluationResult = NonNullable<Evaluation["result"]>;
export type ClassificationResult = Extract<EvaluationResult, { kind: "classification" }>;
export type RegressionResult = Extract<EvaluationResult, { kind: "regression" }>;
export type LanguageModelResult = Extract<EvaluationResult, { kind: "language_modeling" }>;
export type CreateEvaluation = Schemas["CreateEvaluation"];
