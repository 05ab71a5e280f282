import { describe, expect, it } from "vitest";
import { getTemplate } from "@/lib/ml";
import { copySubgraph, pasteSubgraph, uniqueNodeId } from "./clipboard";
import { toFlow } from "./graph-mapping";

describe("clipboard", () => {
  const flow = toFlow(getTemplate("cnn-image").graph);

  it("copies the chosen nodes and only the edges between them", () => {
    const clip = copySubgraph(flow.nodes, flow.edges, new Set(["conv1", "pool1", "fc1"]));
    expect(clip?.nodes.map((n) => n.id)).toEqual(["conv1", "pool1", "fc1"]);
    expect(clip?.edges.map((e) => [e.source, e.target])).toEqual([["conv1", "pool1"]]);
    expect(copySubgraph(flow.nodes, flow.edges, new Set())).toBeNull();
  });

  it("pastes with fresh ids, remapped edges, an offset and the copies selected", () => {
    const clip = copySubgraph(flow.nodes, flow.edges, new Set(["conv1", "pool1"]));
    if (!clip) throw new Error("nothing copied");
    const taken = new Set(flow.nodes.map((n) => n.id));
    const pasted = pasteSubgraph(clip, taken, { x: 40, y: 40 });
    const ids = pasted.nodes.map((n) => n.id);
    expect(ids).toEqual(["conv2d_1", "maxpool2d_1"]);
    for (const id of ids) expect(taken.has(id)).toBe(false);
    expect(pasted.nodes.every((n) => n.selected)).toBe(true);
    expect(pasted.nodes[0].position).toEqual({
      x: flow.nodes[1].position.x + 40,
      y: flow.nodes[1].position.y + 40,
    });
    expect(pasted.edges).toHaveLength(1);
    expect(pasted.edges[0]).toMatchObject({
      source: "conv2d_1",
      target: "maxpool2d_1",
      targetHandle: "in-0",
    });
    // Params are copies, not shared objects.
    expect(pasted.nodes[0].data.params).not.toBe(clip.nodes[0].data.params);
    expect(pasted.nodes[0].data.params).toEqual(clip.nodes[0].data.params);
  });

  it("makes unique readable ids", () => {
    expect(uniqueNodeId("Conv2D", new Set(["conv2d_1", "conv2d_2"]))).toBe("conv2d_3");
    expect(uniqueNodeId("MultiHeadAttention", new Set())).toBe("multiheadattention_1");
  });
});
