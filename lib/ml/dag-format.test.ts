import { describe, expect, it } from "vitest";
import { DAG_FORMAT, parseDag, parseDagText, stringifyDag, toDag } from "./dag-format";
import { DEFAULT_TRAINING_CONFIG } from "./graph-types";
import { getTemplate } from "./templates";

function goodFile() {
  return {
    format: DAG_FORMAT,
    name: "tiny",
    graph: {
      nodes: [
        { id: "in", type: "Input", params: { shape: [4] }, position: { x: 0, y: 0 } },
        { id: "fc", type: "Dense", params: { units: 3 }, position: { x: 0, y: 100 }, label: "Logits" },
        { id: "out", type: "Output", params: { loss: "cross_entropy" }, position: { x: 0, y: 200 } },
      ],
      edges: [
        { id: "e1", source: "in", target: "fc" },
        { id: "e2", source: "fc", target: "out", targetPort: 0 },
      ],
    },
    training: { epochs: 3, optimizer: "sgd" },
  };
}

describe("parseDag", () => {
  it("accepts a good file and fills training defaults", () => {
    const r = parseDag(goodFile());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.dag.name).toBe("tiny");
    expect(r.dag.graph.nodes[1]).toEqual({
      id: "fc",
      type: "Dense",
      params: { units: 3 },
      position: { x: 0, y: 100 },
      label: "Logits",
    });
    expect(r.dag.training).toEqual({ ...DEFAULT_TRAINING_CONFIG, epochs: 3, optimizer: "sgd" });
  });

  it("defaults missing params and positions", () => {
    const file = goodFile();
    const r = parseDag({ ...file, graph: { nodes: [{ id: "f", type: "Flatten" }], edges: [] } });
    expect(r).toMatchObject({
      ok: true,
      dag: { graph: { nodes: [{ id: "f", params: {}, position: { x: 0, y: 0 } }] } },
    });
  });

  it("round-trips every template through toDag / stringifyDag / parseDagText", () => {
    for (const id of ["mlp-classifier", "cnn-image", "lstm-sequence", "transformer-block"] as const) {
      const t = getTemplate(id);
      const dag = toDag(t.graph, t.training, t.name);
      const r = parseDagText(stringifyDag(dag));
      expect(r).toEqual({ ok: true, dag });
      if (r.ok) expect(r.dag.graph).toEqual(t.graph);
    }
  });

  it("rejects another format version and bad JSON", () => {
    expect(parseDag({ ...goodFile(), format: "layerline.dag/v2" })).toEqual({
      ok: false,
      errors: [{ path: "format", message: expect.stringContaining("layerline.dag/v2") }],
    });
    expect(parseDagText("{ nope")).toMatchObject({
      ok: false,
      errors: [{ path: "", message: expect.stringContaining("Invalid JSON") }],
    });
    expect(parseDag(null)).toMatchObject({ ok: false });
    expect(parseDag({ format: DAG_FORMAT })).toMatchObject({ ok: false, errors: [{ path: "graph" }] });
  });

  it("reports structural errors with paths and node ids", () => {
    const file = goodFile();
    const bad = {
      ...file,
      graph: {
        ...file.graph,
        nodes: [file.graph.nodes[0], { ...file.graph.nodes[1], position: { x: "a", y: 0 } }],
      },
    };
    const r = parseDag(bad);
    expect(r).toEqual({
      ok: false,
      errors: [{ path: "graph.nodes[1].position.x", nodeId: "fc", message: expect.any(String) }],
    });
  });

  it("reports semantic errors: unknown types, duplicate ids, dangling edges, params, training", () => {
    const file = goodFile();
    const r = parseDag({
      ...file,
      graph: {
        nodes: [
          ...file.graph.nodes,
          { id: "fc", type: "Dense", params: { units: -1, activaton: "relu" }, position: { x: 0, y: 0 } },
          { id: "x", type: "Conv3D", params: {}, position: { x: 0, y: 0 } },
        ],
        edges: [
          ...file.graph.edges,
          { id: "e3", source: "fc", target: "nowhere" },
          { id: "e1", source: "in", target: "fc", targetPort: 1 },
        ],
      },
      training: { learning_rate: 2, epocs: 5 },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const byPath = Object.fromEntries(r.errors.map((e) => [e.path, e]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        "graph.nodes[3].id",
        "graph.nodes[3].params.activaton",
        "graph.nodes[3].params.units",
        "graph.nodes[4].type",
        "graph.edges[2].target",
        "graph.edges[3].id",
        "graph.edges[3].targetPort",
        "training.learning_rate",
        "training.epocs",
      ].sort(),
    );
    expect(byPath["graph.nodes[3].params.units"].nodeId).toBe("fc");
    expect(byPath["graph.nodes[4].type"]).toMatchObject({
      nodeId: "x",
      message: expect.stringContaining("Conv3D"),
    });
  });

  it("reports unknown training fields", () => {
    const r = parseDag({ ...goodFile(), training: { epocs: 5 } });
    expect(r).toEqual({
      ok: false,
      errors: [{ path: "training.epocs", message: expect.stringContaining("epocs") }],
    });
  });
});

describe("toDag", () => {
  it("deep-copies the graph and omits training when not given", () => {
    const t = getTemplate("mlp-classifier");
    const dag = toDag(t.graph);
    expect(dag.format).toBe(DAG_FORMAT);
    expect(dag).not.toHaveProperty("training");
    expect(dag).not.toHaveProperty("name");
    dag.graph.nodes[1].params.units = 999;
    expect(t.graph.nodes[1].params.units).toBe(16);
    expect(toDag(t.graph, { epochs: 7 }, "x").training).toEqual({ ...DEFAULT_TRAINING_CONFIG, epochs: 7 });
  });
});
