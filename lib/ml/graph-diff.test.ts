import { describe, expect, it } from "vitest";
import { diffConfig, diffGraphs } from "./graph-diff";
import type { ArchitectureGraph } from "./graph-types";
import { getTemplate } from "./templates";

function clone(g: ArchitectureGraph): ArchitectureGraph {
  return structuredClone(g);
}

describe("diffGraphs", () => {
  it("finds no changes between identical graphs", () => {
    const g = getTemplate("cnn-image").graph;
    const d = diffGraphs(g, clone(g));
    expect(d.hasChanges).toBe(false);
    expect(d).toMatchObject({
      nodesAdded: [],
      nodesRemoved: [],
      nodesChanged: [],
      nodesMoved: [],
      edgesAdded: [],
      edgesRemoved: [],
    });
  });

  it("reports added/removed/changed nodes with per-param before/after", () => {
    const a = getTemplate("mlp-classifier").graph;
    const b = clone(a);
    b.nodes[1].params = { units: 32, activation: "relu", bias: true }; // bias: true is the default -> not a change
    b.nodes[2].label = "Head";
    b.nodes[0].position = { x: 10, y: 10 };
    b.nodes.push({ id: "drop", type: "Dropout", params: { p: 0.1 }, position: { x: 0, y: 0 } });
    b.edges = b.edges.filter((e) => e.target !== "logits");
    b.edges.push(
      { id: "new1", source: "hidden", target: "drop" },
      { id: "new2", source: "drop", target: "logits" },
    );
    const d = diffGraphs(a, b);
    expect(d.hasChanges).toBe(true);
    expect(d.nodesAdded.map((n) => n.id)).toEqual(["drop"]);
    expect(d.nodesRemoved).toEqual([]);
    expect(d.nodesChanged.map((c) => [c.id, c.typeChanged, c.labelChanged, c.params])).toEqual([
      ["hidden", false, false, [{ param: "units", before: 16, after: 32 }]],
      ["logits", false, true, []],
    ]);
    expect(d.nodesMoved).toEqual(["input"]);
    expect(d.edgesAdded.map((e) => e.id)).toEqual(["new1", "new2"]);
    expect(d.edgesRemoved.map((e) => `${e.source}->${e.target}`)).toEqual(["hidden->logits"]);
  });

  it("compares edges by endpoints and port, not by id, and detects type changes", () => {
    const a = getTemplate("transformer-block").graph;
    const b = clone(a);
    b.edges = b.edges.map((e, i) => ({ ...e, id: `renamed${i}` }));
    const residual = b.edges.find((e) => e.target === "residual1" && e.targetPort === 1);
    if (residual) residual.targetPort = 0;
    const emb = b.edges.find(
      (e) => e.target === "residual1" && e.targetPort === 0 && e.source === "embedding",
    );
    if (emb) emb.targetPort = 1;
    const poolIndex = b.nodes.findIndex((n) => n.id === "pool");
    b.nodes[poolIndex] = { ...b.nodes[poolIndex], type: "Flatten", params: {} };
    const d = diffGraphs(a, b);
    expect(d.edgesAdded).toHaveLength(2);
    expect(d.edgesRemoved).toHaveLength(2);
    expect(d.nodesChanged).toEqual([
      expect.objectContaining({
        id: "pool",
        typeChanged: true,
        params: [{ param: "data_format", before: "channels_last", after: undefined }],
      }),
    ]);
  });

  it("reports removed nodes", () => {
    const a = getTemplate("lstm-sequence").graph;
    const b = clone(a);
    b.nodes = b.nodes.filter((n) => n.id !== "dropout");
    expect(diffGraphs(a, b).nodesRemoved.map((n) => n.id)).toEqual(["dropout"]);
  });
});

describe("diffConfig", () => {
  it("lists changed fields with defaults applied", () => {
    expect(diffConfig({ epochs: 10 }, {})).toEqual([]);
    expect(diffConfig(undefined, { learning_rate: 0.01, optimizer: "sgd" })).toEqual([
      { field: "learning_rate", before: 0.001, after: 0.01 },
      { field: "optimizer", before: "adam", after: "sgd" },
    ]);
    expect(diffConfig({ seed: 1, batch_size: 64 }, { seed: 2, batch_size: 64 })).toEqual([
      { field: "seed", before: 1, after: 2 },
    ]);
  });
});
