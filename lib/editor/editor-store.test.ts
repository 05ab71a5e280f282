import { describe, expect, it } from "vitest";
import { getTemplate } from "@/lib/ml";
import { fromFlow } from "./graph-mapping";
import { createEditorStore } from "./store/create-editor-store";

function mlp() {
  const t = getTemplate("mlp-classifier");
  return createEditorStore(t.graph, t.training);
}

describe("editor store", () => {
  it("adds a layer with default params, selected, as one undoable step", () => {
    const store = mlp();
    const id = store.getState().addLayer("Dropout", { x: 10, y: 20 });
    const s = store.getState();
    expect(id).toBe("dropout_1");
    expect(s.nodes.at(-1)).toMatchObject({
      id,
      selected: true,
      data: { layerType: "Dropout", params: { p: 0.5 } },
    });
    expect(s.rev).toBe(1);
    s.undo();
    expect(store.getState().nodes.map((n) => n.id)).not.toContain(id);
    store.getState().redo();
    expect(store.getState().nodes.map((n) => n.id)).toContain(id);
  });

  it("connects, replacing what occupied the port, and refuses cycles", () => {
    const store = mlp();
    store.getState().addLayer("Dense", { x: 0, y: 0 });
    store
      .getState()
      .connect({ source: "input", target: "dense_1", sourceHandle: "out", targetHandle: "in-0" });
    store
      .getState()
      .connect({ source: "dense_1", target: "hidden", sourceHandle: "out", targetHandle: "in-0" });
    const into = store.getState().edges.filter((e) => e.target === "hidden");
    expect(into.map((e) => e.source)).toEqual(["dense_1"]);
    // hidden → logits → ... can not feed back into dense_1's ancestors
    const before = store.getState().edges.length;
    store
      .getState()
      .connect({ source: "logits", target: "dense_1", sourceHandle: "out", targetHandle: "in-0" });
    expect(store.getState().edges).toHaveLength(before);
    // Output has no output handle
    store
      .getState()
      .connect({ source: "output", target: "dense_1", sourceHandle: "out", targetHandle: "in-0" });
    expect(store.getState().edges).toHaveLength(before);
  });

  it("coalesces typing in one field into one undo step", () => {
    const store = mlp();
    store.getState().updateParam("hidden", "units", 3);
    store.getState().updateParam("hidden", "units", 32);
    store.getState().updateParam("hidden", "units", 320);
    expect(store.getState().history.past).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().nodes.find((n) => n.id === "hidden")?.data.params.units).toBe(16);
  });

  it("removes a param set to undefined", () => {
    const store = mlp();
    store.getState().updateParam("output", "num_classes", undefined);
    expect(store.getState().nodes.find((n) => n.id === "output")?.data.params).toEqual({
      loss: "cross_entropy",
    });
  });

  it("deletes the selection with its edges", () => {
    const store = mlp();
    store.getState().selectNode("hidden");
    store.getState().deleteSelection();
    const g = fromFlow(store.getState().nodes, store.getState().edges);
    expect(g.nodes.map((n) => n.id)).toEqual(["input", "logits", "output"]);
    expect(g.edges.map((e) => `${e.source}>${e.target}`)).toEqual(["logits>output"]);
    store.getState().undo();
    expect(store.getState().nodes).toHaveLength(4);
  });

  it("copies and pastes with fresh ids, offset further on each paste", () => {
    const store = mlp();
    store.getState().selectNode("hidden");
    expect(
      store
        .getState()
        .copySelection()
        ?.nodes.map((n) => n.id),
    ).toEqual(["hidden"]);
    store.getState().paste();
    store.getState().paste();
    const ids = store.getState().nodes.map((n) => n.id);
    expect(ids).toEqual(["input", "hidden", "logits", "output", "dense_1", "dense_2"]);
    const hidden = store.getState().nodes[1].position;
    expect(store.getState().nodes[5].position).toEqual({ x: hidden.x + 80, y: hidden.y + 80 });
  });

  it("pastes layers copied in another editor, and steps further when the same layers come again", () => {
    const source = mlp();
    source.getState().selectAll(true);
    const clip = source.getState().copySelection();
    if (!clip) throw new Error("nothing copied");
    const target = createEditorStore({ nodes: [], edges: [] });
    target.getState().paste(structuredClone(clip));
    target.getState().paste(structuredClone(clip));
    const s = target.getState();
    expect(s.nodes.map((n) => n.id)).toEqual([
      "input_1",
      "dense_1",
      "dense_2",
      "output_1",
      "input_2",
      "dense_3",
      "dense_4",
      "output_2",
    ]);
    expect(s.nodes[0].position).toEqual({
      x: clip.nodes[0].position.x + 40,
      y: clip.nodes[0].position.y + 40,
    });
    expect(s.nodes[4].position).toEqual({
      x: clip.nodes[0].position.x + 80,
      y: clip.nodes[0].position.y + 80,
    });
    expect(s.edges.map((e) => `${e.source}>${e.target}`).slice(0, 3)).toEqual([
      "input_1>dense_1",
      "dense_1>dense_2",
      "dense_2>output_1",
    ]);
    expect(s.rev).toBe(2);
  });

  it("records a drag as one step only when something moved, and counts moves as edits", () => {
    const store = mlp();
    store.getState().beginGesture();
    store.getState().endGesture();
    expect(store.getState().history.past).toHaveLength(0);
    store.getState().beginGesture();
    store
      .getState()
      .onNodesChange([{ type: "position", id: "hidden", position: { x: 50, y: 110 }, dragging: true }]);
    store
      .getState()
      .onNodesChange([{ type: "position", id: "hidden", position: { x: 90, y: 110 }, dragging: true }]);
    store.getState().endGesture();
    expect(store.getState().history.past).toHaveLength(1);
    expect(store.getState().rev).toBe(2);
    store.getState().undo();
    expect(store.getState().nodes[1].position).toEqual({ x: 0, y: 110 });
  });

  it("selection changes are not edits", () => {
    const store = mlp();
    store.getState().onNodesChange([{ type: "select", id: "hidden", selected: true }]);
    store.getState().onEdgesChange([{ type: "select", id: store.getState().edges[0].id, selected: true }]);
    expect(store.getState().rev).toBe(0);
    expect(store.getState().history.past).toHaveLength(0);
  });

  it("tracks saved revisions", () => {
    const store = mlp();
    store.getState().setTraining("epochs", 20);
    const { rev } = store.getState();
    expect(store.getState().savedRev).not.toBe(rev);
    store.getState().markSaved(rev);
    expect(store.getState().savedRev).toBe(rev);
    store.getState().markSaved(0);
    expect(store.getState().savedRev).toBe(rev);
  });

  it("replaces everything (restore) undoably", () => {
    const store = mlp();
    const cnn = getTemplate("cnn-image");
    store.getState().replaceAll(cnn.graph, cnn.training);
    expect(fromFlow(store.getState().nodes, store.getState().edges)).toEqual(cnn.graph);
    store.getState().undo();
    expect(store.getState().nodes).toHaveLength(4);
  });
});

describe("selection", () => {
  it("selects and clears everything without counting as an edit", () => {
    const store = mlp();
    store.getState().selectAll(true);
    expect(store.getState().nodes.every((n) => n.selected)).toBe(true);
    expect(store.getState().edges.every((e) => e.selected)).toBe(true);
    store.getState().selectAll(false);
    expect(store.getState().nodes.some((n) => n.selected)).toBe(false);
    expect(store.getState().rev).toBe(0);
  });
});
