/**
 * What the studio (and any client) asks before starting a job: which runtimes this service offers,
 * which strategies the plan allows, and which datasets fit a project's model (with every mismatch and
 * the dataset's shape, for "Fit to dataset").
 */
import type { z } from "@hono/zod-openapi";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { fitModelToDataset } from "../../../ml/fit-dataset";
import { analyzeGraph } from "../../../ml/infer-graph";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import { datasets, datasetVersions } from "../../db/schema";
import { ValidationError } from "../../errors";
import { planOf } from "../../plans";
import { resolveBaseModel } from "../catalog/base-model-sources";
import { BUILTIN_DATASETS, builtinVersionData, builtinVersionId } from "../datasets/builtin";
import { architectureOf } from "./architecture";
import { type DatasetFit, type DatasetFitInput, describeDatasetFit } from "./dataset-fit";
import { datasetShapeOf } from "./dataset-shape";
import { resolveRuntime } from "./executors";
import { baseModelFit } from "./foundation-runs";
import { STRATEGIES } from "./jobs";
import type {
  datasetFitListSchema,
  datasetFitQuerySchema,
  runtimeListSchema,
  strategyListSchema,
} from "./training.schemas";

export async function listRuntimes(): Promise<z.infer<typeof runtimeListSchema>> {
  const auto = await resolveRuntime("auto");
  return {
    auto,
    items: [
      {
        runtime: "pytorch",
        available: auto === "pytorch",
        description: "The generated PyTorch project, run by this service's workers (GPU when they have one)",
      },
      {
        runtime: "tfjs",
        available: true,
        description: "TensorFlow.js in Node.js on this service's workers: no Python needed, slower on images",
      },
      {
        runtime: "external",
        available: true,
        description: "Your own hardware: run the generated train.py with an upload token; charts update live",
      },
    ],
  };
}

export function allowedStrategies(user: UserRow): z.infer<typeof strategyListSchema> {
  const plan = planOf(user.plan);
  return {
    items: STRATEGIES.map((s) => ({
      id: s.id,
      description: s.description,
      allowed: s.feature === null || plan.features[s.feature],
      available: true,
    })),
  };
}

/** Whether a dataset fits the project's model, or a base model (fine-tuning: its head resized). */
async function fitJudge(
  db: Db,
  user: UserRow,
  q: z.infer<typeof datasetFitQuerySchema>,
): Promise<(ds: DatasetFitInput) => DatasetFit & Pick<Item, "mismatches" | "shape">> {
  if (q.base_model_id !== undefined) {
    const { entry } = await resolveBaseModel(db, user.id, q.base_model_id);
    return (ds) => ({ ...baseModelFit(entry, ds), mismatches: [], shape: datasetShapeOf(ds) });
  }
  if (q.project_id === undefined)
    throw new ValidationError("Give a project_id or a base_model_id.", [
      { path: "query.project_id", message: "Required" },
    ]);
  const arch = await architectureOf(db, user.id, q.project_id, q.version_id);
  const analysis = analyzeGraph(arch.graph);
  return (ds) => {
    const shape = datasetShapeOf(ds);
    return {
      ...describeDatasetFit(arch.graph, analysis, ds, arch.config.resize),
      mismatches: shape ? fitModelToDataset(arch.graph, shape).mismatches : [],
      shape,
    };
  };
}

type Item = z.infer<typeof datasetFitListSchema>["items"][number];

export async function datasetFit(
  db: Db,
  user: UserRow,
  q: z.infer<typeof datasetFitQuerySchema>,
): Promise<z.infer<typeof datasetFitListSchema>> {
  const judge = await fitJudge(db, user, q);
  const items: z.infer<typeof datasetFitListSchema>["items"] = [];
  const own = await db
    .select({ dataset: datasets, version: datasetVersions })
    .from(datasets)
    .innerJoin(datasetVersions, eq(datasetVersions.id, datasets.currentVersionId))
    .where(and(eq(datasets.ownerId, user.id), isNotNull(datasets.currentVersionId)))
    .orderBy(desc(datasets.updatedAt))
    .limit(200);
  for (const { dataset, version } of own) {
    const verdict = judge({
      task: dataset.task,
      roles: dataset.roles,
      schema: version.schema,
      profile: version.profile,
      target: null,
      image: null,
    });
    items.push({
      dataset_id: dataset.id,
      dataset_version_id: version.id,
      name: dataset.name,
      builtin: false,
      task: dataset.task,
      rows: version.rowCount ?? version.profile.row_count,
      fits: verdict.fits,
      reason: verdict.fits ? null : verdict.reason,
      notes: verdict.fits ? (verdict.notes ?? []) : [],
      mismatches: verdict.mismatches,
      shape: verdict.shape,
    });
  }
  for (const b of BUILTIN_DATASETS) {
    const data = await builtinVersionData(b);
    const verdict = judge({
      task: b.task,
      roles: {},
      schema: data.schema,
      profile: data.profile,
      target: b.target,
      image: b.image ?? null,
    });
    items.push({
      dataset_id: b.id,
      dataset_version_id: builtinVersionId(b),
      name: b.name,
      builtin: true,
      task: b.task,
      rows: data.profile.row_count,
      fits: verdict.fits,
      reason: verdict.fits ? null : verdict.reason,
      notes: verdict.fits ? (verdict.notes ?? []) : [],
      mismatches: verdict.mismatches,
      shape: verdict.shape,
    });
  }
  items.sort((a, b) => Number(b.fits) - Number(a.fits));
  return { items };
}
