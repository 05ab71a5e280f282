import { describe, expect, it } from "vitest";
import { getTemplate, TEMPLATE_IDS } from "@/lib/ml";
import { fromFlow, handlePort, portHandleId, toFlow } from "./graph-mapping";

describe("graph ↔ React Flow mapping", () => {
  it("round-trips every template exactly", () => {
    for (const id of TEMPLATE_IDS) {
      const { graph } = getTemplate(id);
      const flow = toFlow(graph);
      // Port 0 is stored as "no port", which means the same.
      const normalised = {
        ...graph,
        edges: graph.edges.map(({ targetPort, ...e }) => (targetPort ? { ...e, targetPort } : e)),
      };
      expect(fromFlow(flow.nodes, flow.edges)).toEqual(normalised);
    }
  });

  it("maps ports to target handles and back", () => {
    expect(portHandleId(2)).toBe("in-2");
    expect(handlePort("in-2")).toBe(2);
    expect(handlePort(null)).toBe(0);
    expect(handlePort("out")).toBe(0);
    const { graph } = getTemplate("transformer-block");
    const flow = toFlow(graph);
    const residual = flow.edges.find((e) => e.source === "attention" && e.target === "residual1");
    expect(residual).toMatchObject({ type: "shape", sourceHandle: "out", targetHandle: "in-1" });
    const node = flow.nodes.find((n) => n.id === "attention");
    expect(node).toMatchObject({
      type: "layer",
      data: { layerType: "MultiHeadAttention", label: "Self-attention" },
    });
  });

  it("drops editor-only state and rounds positions", () => {
    const flow = toFlow(getTemplate("mlp-classifier").graph);
    const nodes = flow.nodes.map((n, i) => ({
      ...n,
      selected: i === 0,
      measured: { width: 200, height: 80 },
      position: { x: n.position.x + 0.4, y: n.position.y },
      data: { ...n.data, diff: "changed" as const },
    }));
    const graph = fromFlow(nodes, flow.edges);
    expect(graph.nodes[0]).toEqual({
      id: "input",
      type: "Input",
      params: { shape: [4], dtype: "float32" },
      position: { x: 0, y: 0 },
    });
  });
});

describe("input handles", () => {
  it("one for single-input layers, none for Input", async () => {
    const { inputHandles } = await import("./ports");
    expect(inputHandles("Dense", 1).map((h) => h.id)).toEqual(["in-0"]);
    expect(inputHandles("Input", 0)).toEqual([]);
  });

  it("q/k/v for attention, and one free port for Add/Concatenate", async () => {
    const { inputHandles } = await import("./ports");
    expect(inputHandles("MultiHeadAttention", 1).map((h) => h.label)).toEqual(["q", "k", "v"]);
    expect(inputHandles("Add", 0).map((h) => h.id)).toEqual(["in-0", "in-1"]);
    expect(inputHandles("Add", 2).map((h) => h.id)).toEqual(["in-0", "in-1", "in-2"]);
    expect(inputHandles("Concatenate", 8)).toHaveLength(8);
  });
});
