/**
 * Projects made from a dataset (POST /projects with `dataset_id`): sizing a model to a dataset
 * needs the datasets and training modules, which sit above projects (../shared/STYLE.md, "Server
 * modules"), so the training module registers the seeder at start (training.index.ts) and the
 * projects service calls it. The registration is wiring made at import time, the same in every
 * process; nothing in it is state.
 */
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import type { Db } from "../../db/client";

export interface DatasetSeed {
  /** The dataset's name. */
  name: string;
  description: string;
  graph: ArchitectureGraph;
  training: TrainingConfig;
  family: string;
}

export type DatasetSeeder = (
  db: Db,
  ownerId: string,
  datasetId: string,
  family: string | undefined,
) => Promise<DatasetSeed>;

let seeder: DatasetSeeder | null = null;

export function registerDatasetSeeder(fn: DatasetSeeder): void {
  seeder = fn;
}

export function seedFromDataset(
  db: Db,
  ownerId: string,
  datasetId: string,
  family: string | undefined,
): Promise<DatasetSeed> {
  if (!seeder) throw new Error("Projects from datasets are not wired in this process (training.index.ts).");
  return seeder(db, ownerId, datasetId, family);
}
