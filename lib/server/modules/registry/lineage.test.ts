import { describe, expect, it } from "vitest";
import { buildLineage, type LineageFacts } from "./lineage";

const base: LineageFacts = {
  model: { id: "mdl_1", name: "iris" },
  version: { id: "mv_1", number: 3 },
  job: null,
  deployments: [],
};

const job: Extract<NonNullable<LineageFacts["job"]>, { missing: false }> = {
  id: "job_1",
  missing: false,
  name: "Iris · run 1",
  isRun: false,
  project: { id: "prj_1", name: "Iris" },
  architectureVersion: { id: "pv_1", number: 2 },
  dataset: { id: "ds_1", name: "flowers" },
  datasetVersion: { id: "dsv_1", number: 4 },
  split: { method: "random", seed: 42, train: 120, validation: 30, test: 0 },
  baseModel: null,
  bestCheckpoint: { id: "ckpt_1", epoch: 7 },
};

describe("buildLineage", () => {
  it("a bare version is one node", () => {
    expect(buildLineage(base)).toEqual({
      nodes: [
        {
          id: "model_version:mv_1",
          kind: "model_version",
          label: "iris v3",
          href: "/models/mdl_1?version=mv_1",
        },
      ],
      edges: [],
    });
  });

  it("follows a job to its data, architecture and checkpoint, and on to deployments", () => {
    const g = buildLineage({
      ...base,
      job,
      deployments: [
        { id: "dep_1", name: "prod", revisionId: "rev_1", revisionNumber: 1 },
        { id: "dep_1", name: "prod", revisionId: "rev_2", revisionNumber: 2 },
      ],
    });
    const ids = g.nodes.map((n) => n.id);
    expect(ids).toEqual([
      "model_version:mv_1",
      "job:job_1",
      "dataset:ds_1",
      "dataset_version:dsv_1",
      "project:prj_1",
      "architecture_version:pv_1",
      "checkpoint:ckpt_1",
      "deployment_revision:rev_1",
      "deployment:dep_1",
      "deployment_revision:rev_2",
    ]);
    const edges = g.edges.map((e) => `${e.from} -> ${e.to}`);
    expect(edges).toEqual([
      "dataset:ds_1 -> dataset_version:dsv_1",
      "dataset_version:dsv_1 -> job:job_1",
      "project:prj_1 -> architecture_version:pv_1",
      "architecture_version:pv_1 -> job:job_1",
      "job:job_1 -> checkpoint:ckpt_1",
      "checkpoint:ckpt_1 -> model_version:mv_1",
      "model_version:mv_1 -> deployment_revision:rev_1",
      "deployment_revision:rev_1 -> deployment:dep_1",
      "model_version:mv_1 -> deployment_revision:rev_2",
      "deployment_revision:rev_2 -> deployment:dep_1",
    ]);
    expect(g.edges[1].label).toBe("trained on (random split, seed 42: train/validation/test 120/30/0 rows)");
    expect(g.nodes.find((n) => n.kind === "dataset_version")?.label).toBe("flowers v4");
    expect(g.nodes.find((n) => n.kind === "checkpoint")?.href).toBe("/training/job_1#checkpoint-ckpt_1");
    // Every edge joins two nodes of the graph.
    for (const e of g.edges) {
      expect(ids).toContain(e.from);
      expect(ids).toContain(e.to);
    }
  });

  it("a fine-tuning run shows its base model; no checkpoint or architecture version links directly", () => {
    const g = buildLineage({
      ...base,
      job: {
        ...job,
        isRun: true,
        baseModel: { id: "bm_digits", name: "Digits CNN" },
        bestCheckpoint: null,
        architectureVersion: null,
      },
    });
    expect(g.nodes.find((n) => n.kind === "run")?.id).toBe("run:job_1");
    expect(g.nodes.find((n) => n.kind === "base_model")).toEqual({
      id: "base_model:bm_digits",
      kind: "base_model",
      label: "Digits CNN",
      href: "/catalog?model=bm_digits",
    });
    const edges = g.edges.map((e) => `${e.from} -> ${e.to}`);
    expect(edges).toContain("base_model:bm_digits -> run:job_1");
    expect(edges).toContain("project:prj_1 -> run:job_1");
    expect(edges).toContain("run:job_1 -> model_version:mv_1");
  });

  it("a deleted job stays as a node without a page", () => {
    const g = buildLineage({ ...base, job: { id: "job_gone", missing: true } });
    expect(g.nodes[1]).toEqual({
      id: "job:job_gone",
      kind: "job",
      label: "Job job_gone (deleted)",
      href: null,
    });
    expect(g.edges).toEqual([{ from: "job:job_gone", to: "model_version:mv_1", label: "exported" }]);
  });
});
