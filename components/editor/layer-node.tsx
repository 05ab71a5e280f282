"use client";

import { Handle, type NodeProps, Position, useUpdateNodeInternals } from "@xyflow/react";
import { AlertTriangle } from "lucide-react";
import { memo, useEffect, useRef } from "react";
import { cn } from "@/components/ui/cn";
import type { LayerFlowNode } from "@/lib/editor/flow-types";
import { formatCount } from "@/lib/editor/format";
import { keyParams } from "@/lib/editor/key-params";
import { inputHandles } from "@/lib/editor/ports";
import { layerCatalog } from "@/lib/ml";
import { CATEGORY_COLOR } from "./category-style";
import { useAnalysis } from "./editor-store-context";
import { useZoomedOut } from "./use-zoomed-out";

const DIFF_STYLE = {
  added: { box: "border-ok bg-ok-soft", badge: "bg-ok text-panel", text: "Added" },
  removed: { box: "border-danger bg-danger-soft", badge: "bg-danger text-panel", text: "Removed" },
  changed: { box: "border-warn bg-warn-soft", badge: "bg-warn text-panel", text: "Changed" },
} as const;

const handleClass = "h-2.5! w-2.5! border-2! border-panel! bg-muted! hover:bg-accent!";

/** A layer on the canvas: name, key params, output shape, parameter count, problems. */
function LayerNodeView({ id, data, selected }: NodeProps<LayerFlowNode>) {
  const info = useAnalysis((d) => d.nodes.get(id));
  const def = layerCatalog[data.layerType];
  const handles = inputHandles(data.layerType, info?.connectedPorts ?? 0);
  const updateNodeInternals = useUpdateNodeInternals();
  const handleCount = handles.length;
  // React Flow must re-measure handles when a free port is added or removed (it measures on mount).
  const mountedCount = useRef(handleCount);
  useEffect(() => {
    if (mountedCount.current === handleCount) return;
    mountedCount.current = handleCount;
    updateNodeInternals(id);
  }, [handleCount, id, updateNodeInternals]);

  const zoomedOut = useZoomedOut();
  const errors = info?.errors ?? [];
  const diff = data.diff ? DIFF_STYLE[data.diff] : null;
  const params = info?.params ?? 0;
  const handleElements = handles.map((h, i) => {
    const left = `${((i + 1) / (handles.length + 1)) * 100}%`;
    return (
      <span key={h.id}>
        <Handle
          id={h.id}
          type="target"
          position={Position.Top}
          style={{ left }}
          className={handleClass}
          title={`${def.label}: ${h.title}`}
          data-testid={`handle-${h.id}`}
        />
        {h.label && !zoomedOut ? (
          <span
            aria-hidden
            className="pointer-events-none absolute top-1 -translate-x-1/2 font-mono text-[9px] leading-none text-muted"
            style={{ left }}
          >
            {h.label}
          </span>
        ) : null}
      </span>
    );
  });
  const outputHandle = def.hasOutput ? (
    <Handle
      id="out"
      type="source"
      position={Position.Bottom}
      className={handleClass}
      title={`${def.label}: output`}
      data-testid="handle-out"
    />
  ) : null;
  const boxClass = cn(
    "relative flex h-[78px] w-[200px] flex-col border bg-panel text-fg",
    // No shadow or rounding when zoomed out: thousands of them are costly to paint and invisible.
    !zoomedOut && "rounded-lg shadow-sm",
    diff ? diff.box : errors.length > 0 ? "border-danger/70" : "border-border",
    selected && "ring-2 ring-accent ring-offset-1 ring-offset-bg",
  );

  // Zoomed far out: a coloured block with the layer's name, same size (no re-measuring), far less DOM.
  if (zoomedOut) {
    return (
      <div data-testid="layer-node" data-node-id={id} data-diff={data.diff} className={boxClass}>
        {handleElements}
        <span
          aria-hidden
          className={cn("absolute inset-y-0 left-0 w-3 rounded-l-lg", CATEGORY_COLOR[def.category])}
        />
        <span className="truncate py-6 pr-2 pl-6 text-2xl font-semibold" data-testid="node-title">
          {data.label || def.label}
        </span>
        {errors.length > 0 ? (
          <span aria-hidden className="absolute top-2 right-2 h-4 w-4 rounded-full bg-danger" />
        ) : null}
        {outputHandle}
      </div>
    );
  }

  const summary = keyParams(data.layerType, info?.resolved ?? data.params).join(" · ");

  return (
    <div data-testid="layer-node" data-node-id={id} data-diff={data.diff} className={boxClass}>
      {handleElements}
      <div className="flex items-stretch">
        <span aria-hidden className={cn("w-1 shrink-0 rounded-tl-lg", CATEGORY_COLOR[def.category])} />
        <div className={cn("min-w-0 flex-1 px-3 pb-1.5", handles.length > 1 ? "pt-3" : "pt-2")}>
          <div className="flex items-center gap-1.5">
            <span className="truncate text-sm font-semibold" data-testid="node-title">
              {data.label || def.label}
            </span>
            {data.label ? <span className="shrink-0 text-[11px] text-muted">{def.type}</span> : null}
            <span className="ml-auto flex shrink-0 items-center gap-1">
              {diff ? (
                <span className={cn("rounded px-1.5 py-px text-[10px] font-semibold", diff.badge)}>
                  {diff.text}
                </span>
              ) : null}
              {errors.length > 0 ? (
                <span
                  role="img"
                  aria-label={`${errors.length} problem${errors.length === 1 ? "" : "s"}: ${errors.join("; ")}`}
                  title={errors.join("\n")}
                  data-testid="node-error"
                  className="text-danger"
                >
                  <AlertTriangle aria-hidden className="h-4 w-4" />
                </span>
              ) : null}
            </span>
          </div>
          <p className="h-4 truncate text-xs text-muted">{summary}</p>
        </div>
      </div>
      <div className="mt-auto flex items-center justify-between gap-2 rounded-b-lg border-t border-border bg-panel-2 px-3 py-1 font-mono text-[11px]">
        <span data-testid="node-shape" className={cn("truncate", info?.shape === "?" && "text-muted")}>
          {info?.shape ?? "?"}
        </span>
        <span className="shrink-0 text-muted">{params > 0 ? `${formatCount(params)} params` : ""}</span>
      </div>
      {outputHandle}
    </div>
  );
}

export const LayerNode = memo(LayerNodeView);
