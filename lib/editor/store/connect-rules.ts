import type { Connection } from "@xyflow/react";
import { layerCatalog } from "@/lib/ml";
import type { LayerFlowNode, ShapeFlowEdge } from "../flow-types";
import { handlePort } from "../graph-mapping";

/** True when `to` can reach `from` along edges, i.e. from → to would close a cycle. */
function reaches(edges: readonly ShapeFlowEdge[], from: string, to: string): boolean {
  const out = new Map<string, string[]>();
  for (const e of edges) {
    const list = out.get(e.source);
    if (list) list.push(e.target);
    else out.set(e.source, [e.target]);
  }
  const stack = [from];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of out.get(id) ?? []) stack.push(next);
  }
  return false;
}

/** Whether a connection may be made: no self-loops, no cycles, no port beyond the layer's inputs. */
export function canConnect(
  nodes: readonly LayerFlowNode[],
  edges: readonly ShapeFlowEdge[],
  c: Pick<Connection, "source" | "target" | "targetHandle">,
): boolean {
  if (!c.source || !c.target || c.source === c.target) return false;
  const source = nodes.find((n) => n.id === c.source);
  const target = nodes.find((n) => n.id === c.target);
  if (!source || !target) return false;
  if (!layerCatalog[source.data.layerType].hasOutput) return false;
  if (handlePort(c.targetHandle) >= layerCatalog[target.data.layerType].inputs.max) return false;
  return !reaches(edges, c.target, c.source);
}

/** A new edge id not in use. */
export function edgeId(
  edges: readonly ShapeFlowEdge[],
  source: string,
  target: string,
  port: number,
): string {
  const base = `e-${source}-${target}${port ? `-${port}` : ""}`;
  const taken = new Set(edges.map((e) => e.id));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}
