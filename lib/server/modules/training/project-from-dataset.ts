/**
 * A project sized to a dataset (POST /projects with `dataset_id`, issue 25): the dataset is measured
 * from its schema, roles and profile (nothing is read) into a data shape — the table's width after
 * one-hot encoding and its target, the pictures' channels, size and classes, the text's characters —
 * and lib/ml/dataset-models.ts builds the family's model for it. The result is checked with the
 * Train dialog's own fit check, so a project made here always fits its dataset.
 */

import { type DataShape, familiesFor, type ModelFamily, sizedModel } from "../../../ml/dataset-models";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { analyzeGraph } from "../../../ml/infer-graph";
import type { Db } from "../../db/client";
import { ValidationError } from "../../errors";
import { readableDataset, versionOf } from "../datasets/access";
import { builtinVersionData, builtinVersionId } from "../datasets/builtin";
import { MAX_CLASSES_FOR_INTEGER_TARGET } from "../datasets/roles";
import {
  type DatasetFitInput,
  describeDatasetFit,
  effectiveRoles,
  planColumns,
  profiledWidth,
} from "./dataset-fit";

/** A picture Input: grayscale 28×28 when every picture is grayscale and small, else RGB 32×32. */
function pictureInput(profile: DatasetFitInput["profile"]): { channels: 1 | 3; side: number } {
  const images = profile.images;
  const gray = (images?.channels ?? []).every((c) => c.channels === 1 || c.count === 0);
  const small = (images?.width.max ?? 0) <= 64 && (images?.height.max ?? 0) <= 64;
  return gray ? { channels: 1, side: small ? 28 : 32 } : { channels: 3, side: 32 };
}

/** The data shape of a dataset version, or a ValidationError saying why no model can be sized to it. */
export function dataShapeOf(ds: DatasetFitInput): DataShape {
  const { schema, profile } = ds;
  if (schema.format === "image_zip") {
    const classes = profile.images?.classes.length ?? 0;
    if (classes < 2)
      throw new ValidationError("The pictures need at least two class folders to train a classifier.");
    const { channels, side } = pictureInput(profile);
    return { kind: "images", channels, height: side, width: side, classes };
  }
  if (schema.format === "text") {
    // As the fit check counts it: the distinct characters, and the line break between lines.
    const vocabulary = (profile.text?.distinct_characters ?? 0) + ((profile.text?.lines ?? 0) > 1 ? 1 : 0);
    if (vocabulary < 2) throw new ValidationError("The text is too short to train a language model on.");
    return { kind: "text", vocabulary };
  }
  const planned = planColumns(schema, effectiveRoles(schema, ds.roles, ds.target));
  if (!planned.ok) throw new ValidationError(planned.reason);
  if (planned.columns.kind !== "table") throw new ValidationError("This dataset is not a table.");
  const { width, tooMany } = profiledWidth(planned.columns, profile);
  if (tooMany) throw new ValidationError(tooMany);
  if (width === 0)
    throw new ValidationError("The dataset has no feature column: give some columns the role “feature”.");
  const target = planned.columns.target;
  const distinct = profile.columns.find((c) => c.name === target.name)?.distinct ?? 0;
  const classification =
    target.type === "string" ||
    target.type === "boolean" ||
    (target.type === "integer" && distinct <= MAX_CLASSES_FOR_INTEGER_TARGET) ||
    (target.type === "float" && distinct <= 2);
  return {
    kind: "table",
    features: width,
    target: classification ? { kind: "classes", count: Math.max(2, distinct) } : { kind: "value" },
  };
}

/** What describeDatasetFit and dataShapeOf need, for a built-in or a readable stored dataset. */
async function fitInputOf(
  db: Db,
  ownerId: string,
  datasetId: string,
): Promise<{ input: DatasetFitInput; name: string; versionId: string }> {
  const ref = await readableDataset(db, { id: ownerId }, datasetId);
  if (ref.kind === "builtin") {
    const data = await builtinVersionData(ref.builtin);
    return {
      name: ref.builtin.name,
      versionId: builtinVersionId(ref.builtin),
      input: {
        task: ref.builtin.task,
        roles: {},
        schema: data.schema,
        profile: data.profile,
        target: ref.builtin.target,
        image: ref.builtin.image ?? null,
      },
    };
  }
  if (!ref.row.currentVersionId) throw new ValidationError("The dataset has no version yet.");
  const version = await versionOf(db, ref.row.id, ref.row.currentVersionId);
  return {
    name: ref.row.name,
    versionId: version.id,
    input: {
      task: ref.row.task,
      roles: ref.row.roles,
      schema: version.schema,
      profile: version.profile,
      target: null,
      image: null,
    },
  };
}

export interface ProjectFromDataset {
  name: string;
  description: string;
  graph: ArchitectureGraph;
  training: TrainingConfig;
  family: ModelFamily;
}

/** The project `family` (default: the data's first) sized to a dataset the caller may read. */
export async function projectFromDataset(
  db: Db,
  ownerId: string,
  datasetId: string,
  family: ModelFamily | undefined,
): Promise<ProjectFromDataset> {
  const { input, name } = await fitInputOf(db, ownerId, datasetId);
  const shape = dataShapeOf(input);
  const allowed = familiesFor(shape);
  if (family && !allowed.includes(family))
    throw new ValidationError(
      `A ${family} model does not fit this dataset: choose ${allowed.join(" or ")}.`,
      [{ path: "body.family", message: `One of ${allowed.join(", ")} for this dataset.` }],
    );
  const model = sizedModel(shape, family);
  const fit = describeDatasetFit(model.graph, analyzeGraph(model.graph), input, model.training.resize);
  if (!fit.fits)
    throw new ValidationError(`No ${model.family} model could be sized to this dataset: ${fit.reason}`);
  return {
    name,
    description: `${model.description} Made for the dataset “${name}”.`,
    graph: model.graph,
    training: model.training,
    family: model.family,
  };
}
