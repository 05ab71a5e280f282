"use client";

import { BaseEdge, EdgeLabelRenderer, type EdgeProps, getBezierPath } from "@xyflow/react";
import { memo } from "react";
import type { ShapeFlowEdge } from "@/lib/editor/flow-types";
import { useAnalysis } from "./editor-store-context";
import { useZoomedOut } from "./use-zoomed-out";

const DIFF_STROKE = { added: "var(--ok)", removed: "var(--danger)", changed: "var(--warn)" } as const;

/** An edge labelled with the tensor shape that flows along it (the source's output). */
function ShapeEdgeView({
  id,
  source,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  selected,
  data,
}: EdgeProps<ShapeFlowEdge>) {
  const shape = useAnalysis((d) => d.nodes.get(source)?.shape);
  const zoomedOut = useZoomedOut();
  const [path, labelX, labelY] = getBezierPath({
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
  });
  const diff = data?.diff;
  const stroke = diff ? DIFF_STROKE[diff] : selected ? "var(--accent)" : undefined;
  return (
    <>
      <BaseEdge id={id} path={path} style={{ stroke, strokeWidth: diff || selected ? 2.5 : 1.5 }} />
      {shape && shape !== "?" && !zoomedOut ? (
        <EdgeLabelRenderer>
          <div
            data-testid="edge-shape"
            data-edge-id={id}
            className="pointer-events-none absolute rounded-md border border-border bg-panel px-1.5 py-px font-mono text-[10px] text-fg shadow-sm"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            {shape}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
}

export const ShapeEdge = memo(ShapeEdgeView);
