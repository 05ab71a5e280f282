/**
 * A model version's lineage: dataset → dataset version (and its split) → architecture version (or
 * the project's snapshot) → training job or fine-tuning run (and its base model) → best checkpoint →
 * model version → the deployment revisions serving it → their deployments. Every node links to its
 * studio page. `buildLineage` is pure (unit-tested); `versionLineage` gathers its facts.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  datasets,
  datasetVersions,
  deploymentRevisions,
  deployments,
  projectVersions,
  registeredModels,
  trainingCheckpoints,
  trainingJobs,
} from "../../db/schema";
import type { PreprocessingStep } from "../../db/schema/training";
import { findBaseModel } from "../catalog/base-models";
import { findBuiltin, findBuiltinByVersion } from "../datasets/builtin";
import type { LineageNodeKind, LineageView } from "./registry.schemas";
import { findOwnedVersion } from "./views";

export interface LineageSplit {
  method: string;
  seed: number | null;
  train: number;
  validation: number;
  test: number;
}

export interface LineageFacts {
  model: { id: string; name: string };
  version: { id: string; number: number };
  /** The job or run the version was pushed from; `missing` when it was deleted since. */
  job:
    | null
    | { id: string; missing: true }
    | {
        id: string;
        missing: false;
        name: string;
        isRun: boolean;
        project: { id: string; name: string };
        architectureVersion: { id: string; number: number | null } | null;
        dataset: { id: string; name: string };
        datasetVersion: { id: string; number: number | null };
        split: LineageSplit | null;
        baseModel: { id: string; name: string } | null;
        bestCheckpoint: { id: string; epoch: number } | null;
      };
  deployments: { id: string; name: string; revisionId: string; revisionNumber: number }[];
}

const q = encodeURIComponent;

/** Studio pages of lineage nodes (one place to change when pages move). */
export const studioHref = {
  dataset: (id: string) => `/datasets/${q(id)}`,
  datasetVersion: (id: string, versionId: string) => `/datasets/${q(id)}?version=${q(versionId)}`,
  project: (id: string) => `/projects/${q(id)}`,
  architectureVersion: (projectId: string, versionId: string) =>
    `/projects/${q(projectId)}?version=${q(versionId)}`,
  job: (id: string) => `/training/${q(id)}`,
  checkpoint: (jobId: string, id: string) => `/training/${q(jobId)}#checkpoint-${q(id)}`,
  baseModel: (id: string) => `/catalog?model=${q(id)}`,
  modelVersion: (modelId: string, versionId: string) => `/models/${q(modelId)}?version=${q(versionId)}`,
  deployment: (id: string) => `/deployments/${q(id)}`,
  deploymentRevision: (id: string, number: number) => `/deployments/${q(id)}?revision=${number}`,
};

function splitLabel(s: LineageSplit): string {
  const counts = `${s.train}/${s.validation}/${s.test} rows`;
  const how = s.method === "random" && s.seed !== null ? `random split, seed ${s.seed}` : `${s.method} split`;
  return `trained on (${how}: train/validation/test ${counts})`;
}

export function buildLineage(f: LineageFacts): LineageView {
  const nodes: LineageView["nodes"] = [];
  const edges: LineageView["edges"] = [];
  const node = (kind: LineageNodeKind, id: string, label: string, href: string | null) => {
    const key = `${kind}:${id}`;
    if (!nodes.some((n) => n.id === key)) nodes.push({ id: key, kind, label, href });
    return key;
  };
  const edge = (from: string, to: string, label?: string) =>
    edges.push(label ? { from, to, label } : { from, to });

  const mv = node(
    "model_version",
    f.version.id,
    `${f.model.name} v${f.version.number}`,
    studioHref.modelVersion(f.model.id, f.version.id),
  );
  const job = f.job;
  if (job?.missing) {
    edge(node("job", job.id, `Job ${job.id} (deleted)`, null), mv, "exported");
  } else if (job) {
    const kind = job.isRun ? "run" : "job";
    const j = node(kind, job.id, job.name, studioHref.job(job.id));
    const ds = node("dataset", job.dataset.id, job.dataset.name, studioHref.dataset(job.dataset.id));
    const dv = node(
      "dataset_version",
      job.datasetVersion.id,
      `${job.dataset.name} ${job.datasetVersion.number !== null ? `v${job.datasetVersion.number}` : job.datasetVersion.id}`,
      studioHref.datasetVersion(job.dataset.id, job.datasetVersion.id),
    );
    edge(ds, dv, "version");
    edge(dv, j, job.split ? splitLabel(job.split) : "trained on");
    const p = node("project", job.project.id, job.project.name, studioHref.project(job.project.id));
    if (job.architectureVersion) {
      const av = node(
        "architecture_version",
        job.architectureVersion.id,
        `${job.project.name} ${job.architectureVersion.number !== null ? `v${job.architectureVersion.number}` : "version"}`,
        studioHref.architectureVersion(job.project.id, job.architectureVersion.id),
      );
      edge(p, av, "version");
      edge(av, j, "architecture");
    } else {
      edge(p, j, "architecture (project snapshot)");
    }
    if (job.baseModel) {
      const b = node(
        "base_model",
        job.baseModel.id,
        job.baseModel.name,
        studioHref.baseModel(job.baseModel.id),
      );
      edge(b, j, "fine-tuned from");
    }
    if (job.bestCheckpoint) {
      const c = node(
        "checkpoint",
        job.bestCheckpoint.id,
        `Best checkpoint (epoch ${job.bestCheckpoint.epoch})`,
        studioHref.checkpoint(job.id, job.bestCheckpoint.id),
      );
      edge(j, c, "best epoch");
      edge(c, mv, "exported");
    } else {
      edge(j, mv, "exported");
    }
  }
  for (const d of f.deployments) {
    const rev = node(
      "deployment_revision",
      d.revisionId,
      `${d.name} revision ${d.revisionNumber}`,
      studioHref.deploymentRevision(d.id, d.revisionNumber),
    );
    const dep = node("deployment", d.id, d.name, studioHref.deployment(d.id));
    edge(mv, rev, "served by");
    edge(rev, dep, "revision of");
  }
  return { nodes, edges };
}

function splitOf(steps: PreprocessingStep[] | undefined): LineageSplit | null {
  const s = steps?.find((x): x is Extract<PreprocessingStep, { kind: "split" }> => x.kind === "split");
  return s
    ? { method: s.method, seed: s.seed, train: s.train, validation: s.validation, test: s.test }
    : null;
}

async function jobFacts(db: Db, ownerId: string, jobId: string): Promise<LineageFacts["job"]> {
  const [job] = await db
    .select()
    .from(trainingJobs)
    .where(and(eq(trainingJobs.id, jobId), eq(trainingJobs.ownerId, ownerId)))
    .limit(1);
  if (!job) return { id: jobId, missing: true };
  const builtin = findBuiltin(job.datasetId);
  const [dataset] = builtin
    ? [{ name: builtin.name }]
    : await db
        .select({ name: datasets.name })
        .from(datasets)
        .where(and(eq(datasets.id, job.datasetId), eq(datasets.ownerId, ownerId)))
        .limit(1);
  const [dsVersion] = findBuiltinByVersion(job.datasetVersionId)
    ? [{ number: 1 }]
    : await db
        .select({ number: datasetVersions.number })
        .from(datasetVersions)
        .where(eq(datasetVersions.id, job.datasetVersionId))
        .limit(1);
  const [archVersion] = job.versionId
    ? await db
        .select({ number: projectVersions.number })
        .from(projectVersions)
        .where(eq(projectVersions.id, job.versionId))
        .limit(1)
    : [];
  const [best] = await db
    .select({ id: trainingCheckpoints.id, epoch: trainingCheckpoints.epoch })
    .from(trainingCheckpoints)
    .where(and(eq(trainingCheckpoints.jobId, job.id), eq(trainingCheckpoints.isBest, true)))
    .limit(1);
  return {
    id: job.id,
    missing: false,
    name: job.name,
    isRun: job.baseModelId !== null,
    project: { id: job.projectId, name: job.projectName },
    architectureVersion: job.versionId ? { id: job.versionId, number: archVersion?.number ?? null } : null,
    dataset: { id: job.datasetId, name: dataset?.name ?? job.datasetId },
    datasetVersion: { id: job.datasetVersionId, number: dsVersion?.number ?? null },
    split: splitOf(job.preprocessing?.steps),
    baseModel: job.baseModelId
      ? {
          id: job.baseModelId,
          name: job.fineTune?.base_model_name ?? findBaseModel(job.baseModelId)?.name ?? job.baseModelId,
        }
      : null,
    bestCheckpoint: best ?? null,
  };
}

export async function versionLineage(db: Db, ownerId: string, versionId: string): Promise<LineageView> {
  const version = await findOwnedVersion(db, ownerId, versionId);
  const [model] = await db
    .select({ id: registeredModels.id, name: registeredModels.name })
    .from(registeredModels)
    .where(eq(registeredModels.id, version.modelId));
  const served = await db
    .select({
      id: deployments.id,
      name: deployments.name,
      revisionId: deploymentRevisions.id,
      revisionNumber: deploymentRevisions.number,
    })
    .from(deploymentRevisions)
    .innerJoin(deployments, eq(deployments.id, deploymentRevisions.deploymentId))
    .where(and(eq(deploymentRevisions.modelVersionId, version.id), eq(deployments.ownerId, ownerId)))
    .orderBy(asc(deployments.createdAt), asc(deploymentRevisions.number));
  return buildLineage({
    model,
    version: { id: version.id, number: version.number },
    job: version.jobId ? await jobFacts(db, ownerId, version.jobId) : null,
    deployments: served,
  });
}
