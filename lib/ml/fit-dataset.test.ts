import { describe, expect, it } from "vitest";
import { sizedModel } from "./dataset-models";
import { type DatasetShape, fitModelToDataset } from "./fit-dataset";
import type { ArchitectureGraph } from "./graph-types";
import { analyzeGraph } from "./infer-graph";
import { getTemplate } from "./templates";

const table = (features: number, classes: number | null, labels: string[] = []): DatasetShape => ({
  data: {
    kind: "table",
    features,
    target: classes === null ? { kind: "value" } : { kind: "classes", count: classes },
  },
  target: "label",
  labels,
  layout: null,
  picture_size: null,
});

const pictures = (
  channels: 1 | 3,
  classes: number,
  size: { height: number; width: number } | null,
): DatasetShape => ({
  data: { kind: "images", channels, height: size?.height ?? 32, width: size?.width ?? 32, classes },
  target: null,
  labels: [],
  layout: null,
  picture_size: size,
});

const text = (vocabulary: number): DatasetShape => ({
  data: { kind: "text", vocabulary },
  target: null,
  labels: [],
  layout: null,
  picture_size: null,
});

const node = (g: ArchitectureGraph, id: string) => g.nodes.find((n) => n.id === id);
const inputShape = (g: ArchitectureGraph) => g.nodes.find((n) => n.type === "Input")?.params.shape;
const noErrors = (g: ArchitectureGraph) =>
  expect(analyzeGraph(g).issues.filter((i) => i.severity === "error")).toEqual([]);

describe("fitModelToDataset", () => {
  it("the Iris MLP on a CSV of 3 features and 2 classes: both mismatches, one adapted model", () => {
    const mlp = getTemplate("mlp-classifier").graph;
    const plan = fitModelToDataset(mlp, table(3, 2, ["no", "yes"]));
    expect(plan.mismatches.map((m) => m.kind)).toEqual(["inputs", "classes"]);
    expect(plan.mismatches[0].message).toBe(
      "The model's Input takes 4 values per sample [4]; the dataset gives 3.",
    );
    expect(plan.mismatches[1].message).toBe(
      "The dataset has 2 classes (“no”, “yes”); the model's Output gives 3 logits.",
    );
    expect(plan.mismatches.every((m) => m.blocking && m.fix !== null)).toBe(true);
    expect(plan).toMatchObject({ changed: true, fits: true });
    expect(inputShape(plan.graph)).toEqual([3]);
    expect(node(plan.graph, "logits")?.params.units).toBe(2);
    expect(node(plan.graph, "output")?.params).toMatchObject({ loss: "cross_entropy", num_classes: 2 });
    // The rest of the diagram as drawn: the hidden layer, the positions, the edges.
    expect(node(plan.graph, "hidden")).toEqual(node(mlp, "hidden"));
    expect(plan.graph.edges).toEqual(mlp.edges);
    expect(plan.graph.nodes.map((n) => n.position)).toEqual(mlp.nodes.map((n) => n.position));
    noErrors(plan.graph);
    // Fitting again finds nothing to do.
    expect(fitModelToDataset(plan.graph, table(3, 2))).toMatchObject({
      mismatches: [],
      changed: false,
      fits: true,
    });
  });

  it("a model that already fits: nothing to do, the same graph", () => {
    const mlp = getTemplate("mlp-classifier").graph;
    const plan = fitModelToDataset(mlp, table(4, 3));
    expect(plan).toEqual({ mismatches: [], graph: mlp, changed: false, fits: true });
  });

  it("a classifier meets a regression target: mse head of one plain unit", () => {
    const mlp = getTemplate("mlp-classifier").graph;
    mlp.nodes = mlp.nodes.map((n) =>
      n.id === "logits" ? { ...n, params: { ...n.params, activation: "softmax" } } : n,
    );
    const plan = fitModelToDataset(mlp, table(10, null));
    expect(plan.mismatches.map((m) => m.kind)).toEqual(["inputs", "task"]);
    expect(plan.mismatches[1].message).toContain("is a number to predict (regression)");
    expect(node(plan.graph, "logits")?.params).toMatchObject({ units: 1, activation: "none" });
    expect(node(plan.graph, "output")?.params).toEqual({ loss: "mse" });
    noErrors(plan.graph);
  });

  it("a regression meets classes, and binary_cross_entropy keeps its one unit for two classes", () => {
    const reg = sizedModel(table(5, null).data).graph;
    const plan = fitModelToDataset(reg, table(5, 4));
    expect(plan.mismatches.map((m) => m.kind)).toEqual(["task"]);
    expect(node(plan.graph, "output")?.params).toMatchObject({ loss: "cross_entropy", num_classes: 4 });

    const bce = sizedModel(table(5, null).data).graph;
    bce.nodes = bce.nodes.map((n) =>
      n.type === "Output" ? { ...n, params: { loss: "binary_cross_entropy" } } : n,
    );
    expect(fitModelToDataset(bce, table(5, 2)).mismatches).toEqual([]);
    expect(fitModelToDataset(bce, table(5, 3)).mismatches.map((m) => m.kind)).toEqual(["task"]);
  });

  it("the 28×28 CNN template on RGB pictures of one size: channels, size and classes, as one change", () => {
    const cnn = getTemplate("cnn-image").graph;
    const plan = fitModelToDataset(cnn, pictures(3, 4, { height: 32, width: 32 }));
    expect(plan.mismatches.map((m) => [m.kind, m.blocking])).toEqual([
      ["channels", false],
      ["size", false],
      ["classes", true],
    ]);
    expect(inputShape(plan.graph)).toEqual([3, 32, 32]);
    expect(node(plan.graph, "logits")?.params.units).toBe(4);
    expect(plan.fits).toBe(true);
    noErrors(plan.graph);
  });

  it("pictures of many sizes are resized: no size mismatch; grayscale pictures for an RGB model", () => {
    const resnet = getTemplate("cnn-resnet").graph;
    const plan = fitModelToDataset(resnet, pictures(1, 10, null));
    expect(plan.mismatches.map((m) => m.kind)).toEqual(["channels"]);
    expect(inputShape(plan.graph)).toEqual([1, 32, 32]);
    noErrors(plan.graph);
  });

  it("pictures too small for the layers: the size is kept (resized) and the rest fitted", () => {
    const cnn = getTemplate("cnn-image").graph;
    const plan = fitModelToDataset(cnn, pictures(1, 3, { height: 8, width: 8 }));
    const size = plan.mismatches.find((m) => m.kind === "size");
    expect(size).toMatchObject({ fix: null, blocking: false });
    expect(inputShape(plan.graph)).toEqual([1, 28, 28]);
    expect(node(plan.graph, "logits")?.params.units).toBe(3);
    expect(plan.fits).toBe(true);
  });

  it("an MLP meets pictures: a picture Input with a Flatten after it", () => {
    const mlp = getTemplate("mlp-classifier").graph;
    const plan = fitModelToDataset(mlp, pictures(1, 3, { height: 16, width: 16 }));
    expect(plan.mismatches.map((m) => m.kind)).toEqual(["inputs"]);
    expect(plan.mismatches[0].fix).toContain("with a Flatten after it");
    expect(inputShape(plan.graph)).toEqual([1, 16, 16]);
    const flatten = plan.graph.nodes.find((n) => n.type === "Flatten");
    expect(flatten).toBeDefined();
    expect(plan.graph.edges.filter((e) => e.source === "input").map((e) => e.target)).toEqual([flatten?.id]);
    expect(analyzeGraph(plan.graph).shapes[flatten?.id ?? ""]).toEqual([256]);
    noErrors(plan.graph);
  });

  it("a Reshape right after the Input follows its new width", () => {
    const g: ArchitectureGraph = {
      nodes: [
        { id: "in", type: "Input", params: { shape: [784] }, position: { x: 0, y: 0 } },
        { id: "r", type: "Reshape", params: { shape: [784] }, position: { x: 0, y: 1 } },
        { id: "d", type: "Dense", params: { units: 3 }, position: { x: 0, y: 2 } },
        { id: "out", type: "Output", params: { loss: "cross_entropy" }, position: { x: 0, y: 3 } },
      ],
      edges: [
        { id: "a", source: "in", target: "r" },
        { id: "b", source: "r", target: "d" },
        { id: "c", source: "d", target: "out" },
      ],
    };
    const plan = fitModelToDataset(g, table(6, 3));
    expect(node(plan.graph, "r")?.params.shape).toEqual([6]);
    noErrors(plan.graph);
  });

  it("the LSTM template on a text: vocabulary and next-character head", () => {
    const lstm = getTemplate("lstm-sequence").graph;
    const plan = fitModelToDataset(lstm, text(65));
    expect(plan.mismatches.map((m) => m.kind)).toEqual(["classes"]);
    expect(node(plan.graph, "logits")?.params.units).toBe(65);
    const small = structuredClone(lstm);
    small.nodes = small.nodes.map((n) =>
      n.type === "Embedding" ? { ...n, params: { ...n.params, num_embeddings: 20 } } : n,
    );
    const both = fitModelToDataset(small, text(65));
    expect(both.mismatches.map((m) => m.kind)).toEqual(["vocabulary", "classes"]);
    expect(both.graph.nodes.find((n) => n.type === "Embedding")?.params.num_embeddings).toBe(65);
    noErrors(both.graph);
  });

  it("what cannot be fitted is said, and nothing changes", () => {
    const mlp = getTemplate("mlp-classifier").graph;
    const onText = fitModelToDataset(mlp, text(40));
    expect(onText).toMatchObject({ changed: false, fits: false });
    expect(onText.mismatches[0]).toMatchObject({ kind: "task", fix: null, blocking: true });

    const lstm = getTemplate("lstm-sequence").graph;
    expect(fitModelToDataset(lstm, table(4, 3)).mismatches[0]).toMatchObject({ kind: "task", fix: null });

    // A LeNet cannot read a 4-value table: the layers after the Input break.
    const cnn = getTemplate("cnn-image").graph;
    const plan = fitModelToDataset(cnn, table(4, 3));
    expect(plan).toMatchObject({ changed: false, fits: false, graph: cnn });
    expect(plan.mismatches.at(-1)?.message).toMatch(/^The diagram cannot be fitted as it is/);

    const broken: ArchitectureGraph = { nodes: [], edges: [] };
    expect(fitModelToDataset(broken, table(4, 3)).mismatches[0].kind).toBe("model");
  });

  it("a head that is not a Dense layer is named", () => {
    const g = getTemplate("mlp-classifier").graph;
    g.nodes.push({ id: "drop", type: "Dropout", params: {}, position: { x: 0, y: 0 } });
    g.edges = g.edges.map((e) => (e.target === "output" ? { ...e, target: "drop" } : e));
    g.edges.push({ id: "x", source: "drop", target: "output" });
    const plan = fitModelToDataset(g, table(4, 5));
    expect(plan.fits).toBe(false);
    expect(plan.mismatches.map((m) => m.message)).toContain(
      "The layer before the Output is a Dropout, not a Dense layer: add a Dense layer of 5 units before the Output.",
    );
  });
});
