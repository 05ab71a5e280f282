/** The editor's "Export DAG file": the diagram and its training configuration as a DAG document. */
import { stringifyDag, toDag } from "@/lib/ml/dag-format";
import type { TrainingConfig } from "@/lib/ml/graph-types";
import type { LayerFlowNode, ShapeFlowEdge } from "./flow-types";
import { fromFlow } from "./graph-mapping";

/** A file name from the project's name: "MNIST classifier" → "mnist-classifier.dag.json". */
export function dagFileName(projectName: string): string {
  const slug = projectName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${slug || "diagram"}.dag.json`;
}

/** The DAG file's text: what `/projects/import-dag` takes back unchanged. */
export function dagDocument(
  nodes: readonly LayerFlowNode[],
  edges: readonly ShapeFlowEdge[],
  training: TrainingConfig,
  projectName: string,
): string {
  return stringifyDag(toDag(fromFlow(nodes, edges), training, projectName));
}
