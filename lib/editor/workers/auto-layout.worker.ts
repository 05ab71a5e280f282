/// <reference lib="webworker" />
/**
 * Auto-layout off the main thread: elkjs runs synchronously and takes seconds on big diagrams, which
 * would freeze the editor (no paint, no input) for that long.
 */
import { type AutoLayoutOptions, autoLayout } from "@/lib/ml/auto-layout";
import type { ArchitectureGraph } from "@/lib/ml/graph-types";

export interface LayoutRequest {
  id: number;
  graph: ArchitectureGraph;
  options: AutoLayoutOptions;
}

export type LayoutResponse =
  | { id: number; positions: [string, { x: number; y: number }][] }
  | { id: number; error: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = async (e: MessageEvent<LayoutRequest>) => {
  const { id, graph, options } = e.data;
  try {
    const laid = await autoLayout(graph, options);
    const reply: LayoutResponse = { id, positions: laid.nodes.map((n) => [n.id, n.position]) };
    scope.postMessage(reply);
  } catch (err) {
    const reply: LayoutResponse = { id, error: err instanceof Error ? err.message : String(err) };
    scope.postMessage(reply);
  }
};
