/**
 * A training job's dataset must fit its model when the job is created (not a second after, as a
 * failed job): the Train dialog's verdict (describeDatasetFit), and when it says no, every mismatch
 * that "Fit to dataset" (lib/ml/fit-dataset.ts) finds, each as one error of the 422.
 */
import { fitModelToDataset } from "../../../ml/fit-dataset";
import type { ArchitectureGraph, ImageResizeMode } from "../../../ml/graph-types";
import { analyzeGraph } from "../../../ml/infer-graph";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import { ValidationError } from "../../errors";
import { readableDataset, versionOf } from "../datasets/access";
import { builtinVersionData } from "../datasets/builtin";
import { type DatasetFitInput, describeDatasetFit } from "./dataset-fit";
import { datasetShapeOf } from "./dataset-shape";

/** What the fit rules need of a dataset version the user may read. */
export async function datasetFitInputOf(
  db: Db,
  user: Pick<UserRow, "id">,
  datasetId: string,
  versionId: string,
): Promise<DatasetFitInput> {
  const ref = await readableDataset(db, user, datasetId);
  if (ref.kind === "builtin") {
    const data = await builtinVersionData(ref.builtin);
    return {
      task: ref.builtin.task,
      roles: {},
      schema: data.schema,
      profile: data.profile,
      target: ref.builtin.target,
      image: ref.builtin.image ?? null,
    };
  }
  const v = await versionOf(db, datasetId, versionId);
  return {
    task: ref.row.task,
    roles: ref.row.roles,
    schema: v.schema,
    profile: v.profile,
    target: null,
    image: null,
  };
}

/** Every reason the dataset does not fit the model (empty when it fits). */
export function datasetMismatches(
  graph: ArchitectureGraph,
  ds: DatasetFitInput,
  resize?: ImageResizeMode,
): string[] {
  const verdict = describeDatasetFit(graph, analyzeGraph(graph), ds, resize);
  if (verdict.fits) return [];
  const shape = datasetShapeOf(ds);
  const blocking = shape ? fitModelToDataset(graph, shape).mismatches.filter((m) => m.blocking) : [];
  return blocking.length > 0 ? blocking.map((m) => m.message) : [verdict.reason];
}

/** A 422 naming every mismatch when the dataset does not fit the model. */
export async function assertDatasetFits(
  db: Db,
  user: Pick<UserRow, "id">,
  graph: ArchitectureGraph,
  resize: ImageResizeMode | undefined,
  dataset: { id: string; name: string; versionId: string },
): Promise<void> {
  const ds = await datasetFitInputOf(db, user, dataset.id, dataset.versionId);
  const problems = datasetMismatches(graph, ds, resize);
  if (problems.length === 0) return;
  const count = problems.length === 1 ? "1 mismatch" : `${problems.length} mismatches`;
  throw new ValidationError(
    `The dataset “${dataset.name}” does not fit the project's model (${count}): ${problems.join(" ")} “Fit to dataset” in the editor adapts the model to it.`,
    problems.map((message) => ({ path: "body.dataset_id", message })),
  );
}
