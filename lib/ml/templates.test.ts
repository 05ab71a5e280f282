import { describe, expect, it } from "vitest";
import { trainingConfigSchema } from "./graph-types";
import { analyzeGraph } from "./infer-graph";
import { getTemplate, listTemplates, TEMPLATE_IDS } from "./templates";

describe("templates", () => {
  it("lists the six starters", () => {
    expect(listTemplates().map((t) => t.id)).toEqual([
      "mlp-classifier",
      "cnn-image",
      "cnn-vgg",
      "cnn-resnet",
      "lstm-sequence",
      "transformer-block",
    ]);
  });

  for (const id of TEMPLATE_IDS) {
    it(`${id} analyses with no issues and is laid out top to bottom`, () => {
      const t = getTemplate(id);
      const a = analyzeGraph(t.graph);
      expect(a.issues).toEqual([]);
      expect(a.order).toHaveLength(t.graph.nodes.length);
      const y = new Map(t.graph.nodes.map((n) => [n.id, n.position.y]));
      for (const e of t.graph.edges) expect(y.get(e.source)).toBeLessThan(y.get(e.target) as number);
      expect(trainingConfigSchema.parse(t.training)).toEqual(t.training);
      expect(new Set(t.graph.edges.map((e) => e.id)).size).toBe(t.graph.edges.length);
    });
  }

  it("has the documented shapes and sizes", () => {
    const mlp = analyzeGraph(getTemplate("mlp-classifier").graph);
    expect(mlp.totalParams).toBe(4 * 16 + 16 + 16 * 3 + 3);
    const cnn = analyzeGraph(getTemplate("cnn-image").graph);
    expect(cnn.shapes.pool2).toEqual([16, 5, 5]);
    expect(cnn.totalParams).toBe(61_706);
    const vgg = analyzeGraph(getTemplate("cnn-vgg").graph);
    expect(vgg.shapes.pool1).toEqual([32, 16, 16]);
    expect(vgg.shapes.pool2).toEqual([64, 8, 8]);
    expect(vgg.shapes.gap).toEqual([64]);
    const resnet = analyzeGraph(getTemplate("cnn-resnet").graph);
    expect(resnet.shapes.block1_out).toEqual([16, 32, 32]);
    expect(resnet.shapes.block2_out).toEqual([32, 16, 16]);
    expect(resnet.shapes.block3_out).toEqual([64, 8, 8]);
    expect(resnet.shapes.gap).toEqual([64]);
    for (const g of [vgg, resnet]) expect(g.totalParams).toBeLessThan(200_000);
    const lstm = analyzeGraph(getTemplate("lstm-sequence").graph);
    expect(lstm.shapes.lstm).toEqual([128]);
    const tr = analyzeGraph(getTemplate("transformer-block").graph);
    expect(tr.shapes.attention).toEqual([64, 128]);
    expect(tr.shapes.pool).toEqual([128]);
    expect(tr.dtypes.input).toBe("int64");
  });

  it("returns independent copies", () => {
    const a = getTemplate("mlp-classifier");
    a.graph.nodes[1].params.units = 1;
    expect(getTemplate("mlp-classifier").graph.nodes[1].params.units).toBe(16);
  });
});
