import { describe, expect, it } from "vitest";
import { buildLineage, type LineageFacts } from "../server/modules/registry/lineage";
import { layoutLineage, lineageColumns, NODE_HEIGHT, shortEdgeLabel } from "./lineage-layout";

const job: Extract<NonNullable<LineageFacts["job"]>, { missing: false }> = {
  id: "job_1",
  missing: false,
  name: "Iris MLP",
  isRun: false,
  project: { id: "prj_1", name: "Iris MLP" },
  architectureVersion: null,
  dataset: { id: "builtin-iris", name: "Iris" },
  datasetVersion: { id: "dsv_1", number: 1 },
  split: { method: "random", seed: 42, train: 120, validation: 30, test: 0 },
  baseModel: null,
  bestCheckpoint: { id: "ckpt_1", epoch: 18 },
};
const facts: LineageFacts = {
  model: { id: "mdl_1", name: "iris-mlp" },
  version: { id: "mv_1", number: 1 },
  job,
  deployments: [],
};

const columnsOf = (f: LineageFacts) => Object.fromEntries(lineageColumns(buildLineage(f)));

describe("lineage layout", () => {
  it("runs left to right: dataset, its version and the project, job, checkpoint, version", () => {
    expect(columnsOf(facts)).toEqual({
      "dataset:builtin-iris": 0,
      "dataset_version:dsv_1": 1,
      "project:prj_1": 1,
      "job:job_1": 2,
      "checkpoint:ckpt_1": 3,
      "model_version:mv_1": 4,
    });
  });

  it("puts a project with an architecture version before it, and a base model right before the run", () => {
    const cols = columnsOf({
      ...facts,
      job: {
        ...job,
        isRun: true,
        architectureVersion: { id: "pv_1", number: 2 },
        baseModel: { id: "distilgpt2", name: "DistilGPT-2" },
      },
    });
    expect(cols["project:prj_1"]).toBe(0);
    expect(cols["architecture_version:pv_1"]).toBe(1);
    expect(cols["base_model:distilgpt2"]).toBe(1);
    expect(cols["run:job_1"]).toBe(2);
  });

  it("stacks a deployment under its only revision; one with several revisions gets its own column", () => {
    const one = columnsOf({
      ...facts,
      deployments: [{ id: "dep_1", name: "prod", revisionId: "rev_1", revisionNumber: 1 }],
    });
    expect(one["deployment_revision:rev_1"]).toBe(5);
    expect(one["deployment:dep_1"]).toBe(5);
    const placed = layoutLineage(
      buildLineage({
        ...facts,
        deployments: [{ id: "dep_1", name: "prod", revisionId: "rev_1", revisionNumber: 1 }],
      }),
    );
    const rev = placed.find((p) => p.id === "deployment_revision:rev_1");
    const dep = placed.find((p) => p.id === "deployment:dep_1");
    expect(rev && dep && dep.y > rev.y + NODE_HEIGHT).toBe(true);

    const two = columnsOf({
      ...facts,
      deployments: [
        { id: "dep_1", name: "prod", revisionId: "rev_1", revisionNumber: 1 },
        { id: "dep_1", name: "prod", revisionId: "rev_2", revisionNumber: 2 },
      ],
    });
    expect(two["deployment_revision:rev_2"]).toBe(5);
    expect(two["deployment:dep_1"]).toBe(6);
  });

  it("closes up empty columns and centres each column on the model version's row", () => {
    const bare = layoutLineage(buildLineage({ ...facts, job: null }));
    expect(bare).toEqual([{ id: "model_version:mv_1", column: 0, x: 0, y: -NODE_HEIGHT / 2 }]);
    const placed = layoutLineage(buildLineage(facts));
    const column1 = placed.filter((p) => p.column === 1).map((p) => p.y);
    expect(column1[0] + column1[1] + NODE_HEIGHT).toBe(0);
    // Within a column, data comes above the project.
    expect(placed.find((p) => p.id === "dataset_version:dsv_1")?.y).toBeLessThan(
      placed.find((p) => p.id === "project:prj_1")?.y ?? 0,
    );
  });

  it("shortens edge labels to what fits on an edge", () => {
    expect(shortEdgeLabel("trained on (random split, seed 42: …)")).toBe("trained on");
    expect(shortEdgeLabel("version")).toBe("version");
    expect(shortEdgeLabel(undefined)).toBeUndefined();
  });
});
