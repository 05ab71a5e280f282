/**
 * The graph analysis, derived from the store's nodes and edges and never stored: recomputed only
 * when the model changes (layer data or connections), not when nodes move or get selected, and with
 * per-node results that keep their identity when unchanged so memoised nodes do not re-render.
 */
import { analyzeGraph, type GraphAnalysis, type GraphEdge, type GraphIssue } from "@/lib/ml";
import type { LayerFlowNode, ShapeFlowEdge } from "./flow-types";
import { formatShapeText } from "./format";
import { handlePort } from "./graph-mapping";

/** What one node shows: its output shape, params, and the problems analysis found on it. */
export interface NodeInfo {
  shape: string;
  params: number;
  flops: number;
  /** Error messages attributed to this node. */
  errors: readonly string[];
  warnings: readonly string[];
  resolved: Record<string, unknown> | null;
  /** 1 + the highest connected input port (0 when nothing is connected). */
  connectedPorts: number;
}

export interface DerivedAnalysis {
  analysis: GraphAnalysis;
  nodes: ReadonlyMap<string, NodeInfo>;
  errors: readonly GraphIssue[];
  warnings: readonly GraphIssue[];
}

function sameModelNodes(a: readonly LayerFlowNode[], b: readonly LayerFlowNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].id !== b[i].id || a[i].data !== b[i].data) return false;
  return true;
}

function sameModelEdges(a: readonly ShapeFlowEdge[], b: readonly ShapeFlowEdge[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.id !== y.id || x.source !== y.source || x.target !== y.target || x.targetHandle !== y.targetHandle)
      return false;
  }
  return true;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

function sameInfo(a: NodeInfo, b: NodeInfo): boolean {
  return (
    a.shape === b.shape &&
    a.params === b.params &&
    a.flops === b.flops &&
    a.resolved === b.resolved &&
    a.connectedPorts === b.connectedPorts &&
    sameStrings(a.errors, b.errors) &&
    sameStrings(a.warnings, b.warnings)
  );
}

function sameResolved(a: Record<string, unknown> | null, b: Record<string, unknown> | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/** Analysis of React Flow nodes and edges (no memo). */
export function analyzeFlow(nodes: readonly LayerFlowNode[], edges: readonly ShapeFlowEdge[]): GraphAnalysis {
  return analyzeGraph({
    nodes: nodes.map((n) => ({
      id: n.id,
      type: n.data.layerType,
      params: n.data.params,
      label: n.data.label,
    })),
    edges: edges.map((e): GraphEdge => {
      const port = handlePort(e.targetHandle);
      return port > 0
        ? { id: e.id, source: e.source, target: e.target, targetPort: port }
        : { id: e.id, source: e.source, target: e.target };
    }),
  });
}

function derive(analysis: GraphAnalysis, nodes: readonly LayerFlowNode[], previous: DerivedAnalysis | null) {
  const errorsBy = new Map<string, string[]>();
  const warningsBy = new Map<string, string[]>();
  const errors: GraphIssue[] = [];
  const warnings: GraphIssue[] = [];
  for (const issue of analysis.issues) {
    (issue.severity === "error" ? errors : warnings).push(issue);
    if (!issue.nodeId) continue;
    const map = issue.severity === "error" ? errorsBy : warningsBy;
    const list = map.get(issue.nodeId);
    if (list) list.push(issue.message);
    else map.set(issue.nodeId, [issue.message]);
  }
  const infos = new Map<string, NodeInfo>();
  const none: string[] = [];
  for (const n of nodes) {
    const prev = previous?.nodes.get(n.id);
    const resolvedNow = analysis.resolvedParams[n.id] ?? null;
    const info: NodeInfo = {
      shape: formatShapeText(analysis.shapes[n.id]),
      params: analysis.params[n.id] ?? 0,
      flops: analysis.flops[n.id] ?? 0,
      errors: errorsBy.get(n.id) ?? none,
      warnings: warningsBy.get(n.id) ?? none,
      resolved: prev && sameResolved(prev.resolved, resolvedNow) ? prev.resolved : resolvedNow,
      connectedPorts: analysis.inputs[n.id]?.length ?? 0,
    };
    infos.set(n.id, prev && sameInfo(prev, info) ? prev : info);
  }
  return { analysis, nodes: infos, errors, warnings };
}

/** A memoised `(nodes, edges) → DerivedAnalysis`; one per store. */
export function createAnalysisMemo() {
  let lastNodes: readonly LayerFlowNode[] | null = null;
  let lastEdges: readonly ShapeFlowEdge[] | null = null;
  let last: DerivedAnalysis | null = null;
  return (nodes: readonly LayerFlowNode[], edges: readonly ShapeFlowEdge[]): DerivedAnalysis => {
    if (last && nodes === lastNodes && edges === lastEdges) return last;
    if (
      !last ||
      !lastNodes ||
      !lastEdges ||
      !sameModelNodes(lastNodes, nodes) ||
      !sameModelEdges(lastEdges, edges)
    ) {
      last = derive(analyzeFlow(nodes, edges), nodes, last);
    }
    lastNodes = nodes;
    lastEdges = edges;
    return last;
  };
}
