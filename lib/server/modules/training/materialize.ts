/**
 * Prepares a dataset version for one training job: the "materialised dataset" directory that the
 * generated train.py / train.mjs read with `--data-dir` (format: lib/ml/codegen/README.md). The
 * entry point only: the column plan and fit check are in dataset-fit.ts, reading, splitting and
 * writing in prepared-dataset.ts, and each kind of data in materialize-<kind>.ts. Everything done
 * is returned as the job's `Preprocessing`, in order, so that serving (artifact-reader.ts) can
 * apply exactly the same steps to raw instances.
 */
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { analyzeGraph } from "../../../ml/infer-graph";
import type { Db } from "../../db/client";
import type { InheritedEncoding, InheritedImageEncoding, Preprocessing } from "../../db/schema/training";
import { ValidationError } from "../../errors";
import { versionOf } from "../datasets/access";
import { modelIO, planColumns } from "./dataset-fit";
import { materializeImages } from "./materialize-images";
import { materializeTable } from "./materialize-table";
import { materializeText } from "./materialize-text";
import { readTable, resolveVersion, type SplitName, splitRows } from "./prepared-dataset";

// ---------------------------------------------------------------------------------------------

/**
 * Prepares a dataset version for one training job: the "materialised dataset" directory that the
 * generated train.py / train.mjs read with `--data-dir` (format: lib/ml/codegen/README.md). The
 * entry point only: the column plan and fit check are in dataset-fit.ts, reading, splitting and
 * writing in prepared-dataset.ts, and each kind of data in materialize-<kind>.ts. Everything done
 * is returned as the job's `Preprocessing`, in order, so that serving (artifact-reader.ts) can
 * apply exactly the same steps to raw instances.
 */
export async function materializeDataset(
  db: Db,
  input: {
    ownerId: string;
    datasetId: string;
    datasetVersionId: string;
    graph: ArchitectureGraph;
    config: TrainingConfig;
    dir: string;
    /** Fine-tuning a language model: encode the text with this (the base model's) vocabulary. */
    vocabulary?: string[] | null;
    /**
     * Fine-tuning: a table model's feature encoding (see materializeTable), or an image model's
     * normalisation (see materializeImages).
     */
    encoding?: InheritedEncoding | InheritedImageEncoding | null;
  },
): Promise<Preprocessing> {
  const model = modelIO(input.graph, analyzeGraph(input.graph));
  if (!model.ok) throw new ValidationError(model.reason);
  const v = await resolveVersion(db, input.ownerId, input.datasetId, input.datasetVersionId);
  const planned = planColumns(v.schema, v.roles);
  if (!planned.ok) throw new ValidationError(planned.reason);
  if (planned.columns.kind === "images") {
    const row = await versionOf(db, input.datasetId, input.datasetVersionId);
    const version = { id: row.id, corrupt: row.profile.images?.corrupt ?? [] };
    const inherited = input.encoding && "kind" in input.encoding ? input.encoding : null;
    return materializeImages(v, version, model.io, input.config, input.dir, inherited);
  }
  const encoding = input.encoding && !("kind" in input.encoding) ? input.encoding : null;
  return planned.columns.kind === "text"
    ? materializeText(v, planned.columns, model.io, input.config, input.dir, input.vocabulary ?? null)
    : materializeTable(v, planned.columns, model.io, input.config, input.dir, encoding);
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** Raw rows of one split of a dataset version, as a user would send them to a deployment. */
export interface EvaluationRows {
  /** Objects keyed by raw feature name: numbers (null when missing), categories as strings. */
  instances: Record<string, number | string | null>[];
  /** The target of each row: a class name (classification) or a number (regression). */
  targets: (string | number)[];
}

/**
 * The raw rows of a split, for evaluations (modules/evaluations): the job's columns (its
 * preprocessing), rows with a target, and the version's explicit split or the seeded random split
 * this job's configuration gives, exactly as materializeTable made it. Tables only.
 */
export async function readEvaluationRows(
  db: Db,
  input: {
    ownerId: string;
    datasetId: string;
    datasetVersionId: string;
    preprocessing: Preprocessing;
    config: TrainingConfig;
    split: SplitName | "all";
  },
): Promise<EvaluationRows> {
  const p = input.preprocessing;
  if (p.task === "language_modeling" || !p.target)
    throw new ValidationError("Only table datasets (classification and regression) can be evaluated.");
  const v = await resolveVersion(db, input.ownerId, input.datasetId, input.datasetVersionId);
  const classification = p.labels !== null;
  const read = await readTable(v, [
    ...p.raw_features.map((f) => ({
      name: f.name,
      as: f.type === "number" ? ("number" as const) : ("string" as const),
    })),
    { name: p.target, as: classification ? "string" : "number" },
  ]);
  const targetValues = read.values[read.values.length - 1];
  const kept: number[] = [];
  for (let r = 0; r < read.rows; r++) {
    const t = targetValues[r];
    if (typeof t === "number" ? Number.isFinite(t) : t !== null && t !== undefined) kept.push(r);
  }
  const split = splitRows(kept, v.splits, input.config);
  const rows = input.split === "all" ? kept : split[input.split];
  return {
    instances: rows.map((r) => {
      const instance: Record<string, number | string | null> = {};
      p.raw_features.forEach((f, k) => {
        const x = read.values[k][r];
        instance[f.name] = typeof x === "number" ? (Number.isFinite(x) ? x : null) : (x ?? null);
      });
      return instance;
    }),
    targets: rows.map((r) => targetValues[r] as string | number),
  };
}
