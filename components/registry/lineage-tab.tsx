"use client";

import { errorMessage } from "@/components/training/error-message";
import "@xyflow/react/dist/style.css";
import { Background, Controls, type Edge, MarkerType, ReactFlow, ReactFlowProvider } from "@xyflow/react";
import { useMemo } from "react";
import { useDarkTheme } from "@/components/code/use-dark-theme";
import { canvasClassName, canvasThemeStyle } from "@/components/editor/flow-config";
import { Alert } from "@/components/ui/alert";
import { useVersionLineage } from "@/lib/api/registry/queries";
import { layoutLineage, shortEdgeLabel } from "@/lib/registry-ui/lineage-layout";
import { KIND_META, type LineageFlowNode, lineageNodeTypes } from "./lineage-node";
import type { Lineage } from "./types";

const fitViewOptions = { padding: 0.1, maxZoom: 1.1 };
/**
 * React Flow gives nodes pointer events only when they are selectable, draggable or have a click
 * handler: this one keeps the nodes' own links clickable (they navigate; nothing else to do here).
 */
const keepNodesClickable = () => {};

function toFlow(graph: Lineage): { nodes: LineageFlowNode[]; edges: Edge[] } {
  const placed = new Map(layoutLineage(graph).map((p) => [p.id, p]));
  const nodes: LineageFlowNode[] = graph.nodes.map((n) => ({
    id: n.id,
    type: "lineage",
    position: { x: placed.get(n.id)?.x ?? 0, y: placed.get(n.id)?.y ?? 0 },
    data: { kind: n.kind, label: n.label, href: n.href, current: n.kind === "model_version" },
    draggable: false,
    selectable: false,
    connectable: false,
  }));
  const edges: Edge[] = graph.edges.map((e, i) => {
    // Within a column (a revision and its deployment) the edge runs down; between columns, right.
    const down = placed.get(e.from)?.column === placed.get(e.to)?.column;
    return {
      id: `e${i}`,
      source: e.from,
      target: e.to,
      sourceHandle: down ? "bottom" : "right",
      targetHandle: down ? "top" : "left",
      label: shortEdgeLabel(e.label),
      type: "smoothstep",
      markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16, color: "var(--muted)" },
      style: { stroke: "var(--muted)", strokeWidth: 1.25 },
      labelStyle: { fill: "var(--muted)", fontSize: 11 },
      labelBgStyle: { fill: "var(--panel)" },
      labelBgPadding: [4, 2] as [number, number],
      labelBgBorderRadius: 4,
    };
  });
  return { nodes, edges };
}

function LineageGraph({ graph }: { graph: Lineage }) {
  const dark = useDarkTheme();
  const { nodes, edges } = useMemo(() => toFlow(graph), [graph]);
  return (
    <div className="h-[320px] overflow-hidden rounded-md border border-border" data-testid="lineage-graph">
      <ReactFlow<LineageFlowNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={lineageNodeTypes}
        colorMode={dark ? "dark" : "light"}
        style={canvasThemeStyle}
        className={canvasClassName}
        fitView
        fitViewOptions={fitViewOptions}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        edgesFocusable={false}
        onNodeClick={keepNodesClickable}
        minZoom={0.3}
        aria-label="Lineage graph"
      >
        <Background gap={20} size={1} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

/** Where the version came from and where it is served, as a graph and as a list of relations. */
export function LineageTab({ versionId }: { versionId: string }) {
  const lineage = useVersionLineage(versionId);
  if (lineage.error) return <Alert>{errorMessage(lineage.error)}</Alert>;
  if (!lineage.data) return <p className="text-sm text-muted">Loading…</p>;
  const graph = lineage.data;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted">
        From the data it was trained on to the deployments serving it. Select a node to open its page.
      </p>
      <ReactFlowProvider>
        <LineageGraph graph={graph} />
      </ReactFlowProvider>
      <details className="text-sm">
        <summary className="cursor-pointer text-muted hover:text-fg">Relations as text</summary>
        <ul className="mt-2 space-y-1" aria-label="Lineage relations">
          {graph.edges.map((e) => {
            const from = byId.get(e.from);
            const to = byId.get(e.to);
            return (
              <li key={`${e.from}->${e.to}`}>
                <span className="text-muted">{from ? KIND_META[from.kind].label : ""}</span>{" "}
                {from?.label ?? e.from}
                <span className="text-muted"> — {e.label ?? "leads to"} → </span>
                <span className="text-muted">{to ? KIND_META[to.kind].label : ""}</span> {to?.label ?? e.to}
              </li>
            );
          })}
        </ul>
      </details>
    </div>
  );
}
