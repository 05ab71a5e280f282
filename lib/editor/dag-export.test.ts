import { describe, expect, it } from "vitest";
import { DAG_FORMAT, parseDagText } from "@/lib/ml/dag-format";
import { DEFAULT_TRAINING_CONFIG } from "@/lib/ml/graph-types";
import { getTemplate } from "@/lib/ml/templates";
import { dagDocument, dagFileName } from "./dag-export";
import { toFlow } from "./graph-mapping";

describe("DAG export", () => {
  it("names the file after the project", () => {
    expect(dagFileName("MNIST classifier")).toBe("mnist-classifier.dag.json");
    expect(dagFileName("  Résumé — v2 (final)!  ")).toBe("resume-v2-final.dag.json");
    expect(dagFileName("???")).toBe("diagram.dag.json");
  });

  it("writes a document that parses back to the same diagram and configuration", () => {
    const { graph } = getTemplate("transformer-block");
    const { nodes, edges } = toFlow(graph);
    const training = { ...DEFAULT_TRAINING_CONFIG, epochs: 3, optimizer: "sgd" as const };
    const text = dagDocument(nodes, edges, training, "Encoder");
    const parsed = parseDagText(text);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.dag.format).toBe(DAG_FORMAT);
    expect(parsed.dag.name).toBe("Encoder");
    expect(parsed.dag.training).toEqual(training);
    expect(parsed.dag.graph.nodes.map((n) => [n.id, n.type, n.position])).toEqual(
      graph.nodes.map((n) => [n.id, n.type, n.position]),
    );
    expect(parsed.dag.graph.edges).toHaveLength(graph.edges.length);
  });
});
