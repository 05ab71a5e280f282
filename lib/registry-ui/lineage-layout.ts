/**
 * Places a lineage graph left to right: each node one column after the furthest node it comes
 * from (data → architecture → training → checkpoint → model version → serving), and a node nothing
 * leads to (a dataset, a project, a base model) right before the first node it feeds, so that no
 * edge runs behind another column. A deployment sits right under the revision that serves it (one
 * column for serving keeps the graph narrow enough to read; not when several revisions lead to it). Pure (no React): a column's nodes are
 * stacked in kind order and centred on the model version's row.
 */
import type { Schemas } from "@/lib/api/client";

type Lineage = Schemas["ModelVersionLineage"];
type LineageKind = Lineage["nodes"][number]["kind"];

/** Top-to-bottom order of kinds within a column. */
const KIND_ORDER: LineageKind[] = [
  "dataset",
  "dataset_version",
  "project",
  "architecture_version",
  "base_model",
  "job",
  "run",
  "checkpoint",
  "model_version",
  "deployment_revision",
  "deployment",
];

export const NODE_WIDTH = 188;
export const NODE_HEIGHT = 64;
const COLUMN_GAP = 64;
const ROW_GAP = 28;

export interface PlacedNode {
  id: string;
  column: number;
  x: number;
  y: number;
}

/** Column of every node: longest path from a source, sources then pulled right to their targets. */
export function lineageColumns(graph: Lineage): Map<string, number> {
  const ids = graph.nodes.map((n) => n.id);
  const known = new Set(ids);
  const edges = graph.edges.filter((e) => known.has(e.from) && known.has(e.to) && e.from !== e.to);
  const column = new Map(ids.map((id) => [id, 0]));
  // Bellman-Ford style relaxation, bounded by the node count (a cycle cannot loop forever).
  for (let pass = 0; pass < ids.length; pass++) {
    let changed = false;
    for (const e of edges) {
      const next = (column.get(e.from) ?? 0) + 1;
      if (next > (column.get(e.to) ?? 0)) {
        column.set(e.to, next);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const hasIncoming = new Set(edges.map((e) => e.to));
  for (const id of ids) {
    if (hasIncoming.has(id)) continue;
    const targets = edges.filter((e) => e.from === id).map((e) => column.get(e.to) ?? 1);
    if (targets.length > 0) column.set(id, Math.max(0, Math.min(...targets) - 1));
  }
  const kind = new Map(graph.nodes.map((n) => [n.id, n.kind]));
  // A deployment with one revision in the graph goes under it; one with several (a rollout
  // history) keeps its own column, so that no edge runs up or behind a sibling revision.
  const revisionsOf = (id: string) =>
    edges.filter((e) => e.to === id && kind.get(e.from) === "deployment_revision");
  for (const id of ids) {
    const revisions = kind.get(id) === "deployment" ? revisionsOf(id) : [];
    if (revisions.length === 1) column.set(id, column.get(revisions[0].from) ?? 0);
  }
  // Columns left empty close up.
  const used = [...new Set(column.values())].sort((a, b) => a - b);
  return new Map([...column].map(([id, c]) => [id, used.indexOf(c)]));
}

/** Kind order, except that each deployment follows the revision serving it. */
function stackOrder(nodes: Lineage["nodes"], edges: Lineage["edges"]): Lineage["nodes"] {
  const byKind = [...nodes].sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  const deployments = byKind.filter((n) => n.kind === "deployment");
  const out: Lineage["nodes"] = [];
  for (const n of byKind) {
    if (n.kind === "deployment") continue;
    out.push(n);
    if (n.kind !== "deployment_revision") continue;
    for (const d of deployments)
      if (!out.includes(d) && edges.some((e) => e.from === n.id && e.to === d.id)) out.push(d);
  }
  return [...out, ...deployments.filter((d) => !out.includes(d))];
}

export function layoutLineage(graph: Lineage): PlacedNode[] {
  const columns = lineageColumns(graph);
  const byColumn = new Map<number, Lineage["nodes"]>();
  for (const n of graph.nodes) {
    const c = columns.get(n.id) ?? 0;
    byColumn.set(c, [...(byColumn.get(c) ?? []), n]);
  }
  const placed: PlacedNode[] = [];
  for (const [c, nodes] of byColumn) {
    const sorted = stackOrder(nodes, graph.edges);
    const height = sorted.length * NODE_HEIGHT + (sorted.length - 1) * ROW_GAP;
    sorted.forEach((n, row) => {
      placed.push({
        id: n.id,
        column: c,
        x: c * (NODE_WIDTH + COLUMN_GAP),
        y: row * (NODE_HEIGHT + ROW_GAP) - height / 2,
      });
    });
  }
  return placed;
}

/** "trained on (random split, …)" → "trained on": the details are listed below the graph. */
export function shortEdgeLabel(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const i = label.indexOf(" (");
  return i === -1 ? label : label.slice(0, i);
}
