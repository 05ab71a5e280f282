import { describe, expect, it } from "vitest";
import { getTemplate } from "@/lib/ml";
import { createAnalysisMemo } from "./analysis-memo";
import { toFlow } from "./graph-mapping";

describe("analysis memo", () => {
  const flow = toFlow(getTemplate("cnn-image").graph);

  it("derives shapes, params and per-node issues", () => {
    const derived = createAnalysisMemo()(flow.nodes, flow.edges);
    expect(derived.nodes.get("conv1")?.shape).toBe("[6, 28, 28]");
    expect(derived.nodes.get("flatten")?.shape).toBe("[400]");
    expect(derived.analysis.totalParams).toBe(61_706);
    expect(derived.errors).toEqual([]);
  });

  it("does not recompute when nodes only move or get selected", () => {
    const memo = createAnalysisMemo();
    const first = memo(flow.nodes, flow.edges);
    const moved = flow.nodes.map((n, i) =>
      i === 2 ? { ...n, position: { x: 5, y: 5 }, selected: true } : n,
    );
    const selectedEdges = flow.edges.map((e, i) => (i === 0 ? { ...e, selected: true } : e));
    expect(memo(moved, selectedEdges)).toBe(first);
  });

  it("recomputes on a params change and keeps unchanged node infos identical", () => {
    const memo = createAnalysisMemo();
    const first = memo(flow.nodes, flow.edges);
    const nodes = flow.nodes.map((n) =>
      n.id === "fc2" ? { ...n, data: { ...n.data, params: { ...n.data.params, units: 50 } } } : n,
    );
    const second = memo(nodes, flow.edges);
    expect(second).not.toBe(first);
    expect(second.nodes.get("fc2")?.shape).toBe("[50]");
    expect(second.nodes.get("conv1")).toBe(first.nodes.get("conv1"));
    expect(second.nodes.get("logits")).not.toBe(first.nodes.get("logits"));
  });

  it("reports a shape error on the node it belongs to", () => {
    // Dense after Conv2D without Flatten: the Output then gets 3-D logits.
    const nodes = flow.nodes.filter((n) => n.id !== "flatten");
    const edges = flow.edges
      .filter((e) => e.source !== "flatten" && e.target !== "flatten")
      .concat({ ...flow.edges[0], id: "e-pool2-fc1", source: "pool2", target: "fc1" });
    const derived = createAnalysisMemo()(nodes, edges);
    expect(derived.nodes.get("output")?.errors[0]).toMatch(/cross_entropy expects 1-D logits/);
    expect(derived.nodes.get("fc1")?.errors).toEqual([]);
  });
});
