import { describe, expect, it } from "vitest";
import { getTemplate } from "@/lib/ml";
import { CLIP_FORMAT, encodeClip, readClip, sameClip } from "./clip-format";
import { copySubgraph } from "./clipboard";
import { toFlow } from "./graph-mapping";

const flow = toFlow(getTemplate("transformer-block").graph);

function clipOf(ids: string[]) {
  const clip = copySubgraph(flow.nodes, flow.edges, new Set(ids));
  if (!clip) throw new Error("nothing copied");
  return clip;
}

/** A clip as someone else's program (or an older tab) might have written it. */
function envelope(nodes: unknown[], edges: unknown[] = [], extra: object = {}) {
  return JSON.stringify({ format: CLIP_FORMAT, nodes, edges, ...extra });
}

describe("clip format", () => {
  it("writes a versioned envelope of DAG-format nodes and edges", () => {
    const clip = clipOf(["input", "embedding"]);
    expect(JSON.parse(encodeClip(clip))).toEqual({
      format: "layerline.clip/v1",
      nodes: [
        expect.objectContaining({ id: "input", type: "Input", params: { shape: [64], dtype: "int64" } }),
        expect.objectContaining({ id: "embedding", type: "Embedding" }),
      ],
      edges: [{ id: expect.any(String), source: "input", target: "embedding" }],
    });
  });

  it("reads back what it wrote, ports and labels included", () => {
    const nodes = flow.nodes.map((n) => n.id);
    const clip = clipOf(nodes);
    const read = readClip(encodeClip(clip));
    if (read.kind !== "clip") throw new Error(JSON.stringify(read));
    expect(sameClip(read.clip, clip)).toBe(true);
    expect(read.clip.nodes.find((n) => n.id === "input")?.data.label).toBe("Token ids");
    const multiPort = read.clip.edges.filter((e) => e.targetHandle !== "in-0");
    expect(multiPort.length).toBeGreaterThan(0);
    expect(multiPort).toEqual(clip.edges.filter((e) => e.targetHandle !== "in-0"));
  });

  it("tells other text apart without judging it", () => {
    for (const text of ["", "hello", "{ not json", '{"format":"something.else"}', "[1,2]", "null"]) {
      expect(readClip(text)).toEqual({ kind: "other" });
    }
    expect(readClip('"layerline."')).toEqual({ kind: "other" });
  });

  it("refuses other Layerline formats and versions, politely", () => {
    const dag = readClip(JSON.stringify({ format: "layerline.dag/v1", graph: { nodes: [], edges: [] } }));
    expect(dag).toEqual({ kind: "invalid", message: expect.stringContaining('"layerline.dag/v1"') });
    const newer = readClip(envelope([]).replace("clip/v1", "clip/v2"));
    expect(newer).toMatchObject({ kind: "invalid", message: expect.stringMatching(/^Nothing was pasted/) });
  });

  it("refuses unknown layer types, bad params and broken edges", () => {
    const unknownType = readClip(envelope([{ id: "a", type: "Teleporter" }]));
    expect(unknownType).toEqual({
      kind: "invalid",
      message: 'Nothing was pasted: the copied layers are not valid (Unknown layer type "Teleporter").',
    });
    const badParams = readClip(envelope([{ id: "d", type: "Dense", params: { units: -3, colour: "red" } }]));
    expect(badParams).toMatchObject({
      kind: "invalid",
      message: expect.stringMatching(/and 1 more problem\)/),
    });
    const dangling = readClip(
      envelope([{ id: "f", type: "Flatten" }], [{ id: "e", source: "gone", target: "f" }]),
    );
    expect(dangling).toMatchObject({ kind: "invalid", message: expect.stringContaining('"gone"') });
    const badPort = readClip(
      envelope(
        [
          { id: "f", type: "Flatten" },
          { id: "g", type: "Flatten" },
        ],
        [{ id: "e", source: "f", target: "g", targetPort: 3 }],
      ),
    );
    expect(badPort).toMatchObject({ kind: "invalid", message: expect.stringContaining("input ports") });
  });

  it("refuses a malformed envelope", () => {
    expect(readClip(envelope([]))).toMatchObject({ kind: "invalid" });
    expect(readClip(envelope([{ id: "f", type: "Flatten" }], [], { extra: 1 }))).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("extra"),
    });
    expect(readClip(JSON.stringify({ format: CLIP_FORMAT, nodes: "all of them", edges: [] }))).toMatchObject({
      kind: "invalid",
    });
    expect(readClip(envelope([{ id: "f", type: "Flatten", position: { x: "left", y: 0 } }]))).toMatchObject({
      kind: "invalid",
    });
  });
});
