"use client";

import { memo, useMemo } from "react";
import { Badge } from "@/components/ui/badge";
import { formatCount, formatShapeText } from "@/lib/editor/format";
import { analyzeGraph } from "@/lib/ml/infer-graph";
import type { BaseModel } from "./catalog-format";

/** A base model's layers in order, with their output shapes and parameters; the head is marked. */
export const LayerTable = memo(function LayerTable({ model }: { model: BaseModel }) {
  const analysis = useMemo(() => analyzeGraph(model.architecture), [model.architecture]);
  const byId = new Map(model.architecture.nodes.map((n) => [n.id, n] as const));
  const head = new Set(model.head);
  return (
    <table className="w-full text-left text-xs" data-testid="layer-table">
      <thead className="text-muted">
        <tr className="border-b border-border">
          <th scope="col" className="py-1.5 pr-3 font-medium">
            Layer
          </th>
          <th scope="col" className="py-1.5 pr-3 font-medium">
            Output shape
          </th>
          <th scope="col" className="py-1.5 text-right font-medium">
            Params
          </th>
        </tr>
      </thead>
      <tbody className="font-mono">
        {analysis.order.map((id) => {
          const node = byId.get(id);
          if (!node) return null;
          return (
            <tr key={id} className="border-b border-border/60 last:border-0">
              <td className="py-1.5 pr-3">
                <span className="font-medium text-fg">{node.type}</span>{" "}
                <span className="text-muted">{id}</span>{" "}
                {head.has(id) ? <Badge tone="accent">head</Badge> : null}
              </td>
              <td className="py-1.5 pr-3 text-muted">{formatShapeText(analysis.shapes[id])}</td>
              <td className="py-1.5 text-right">
                {analysis.params[id] ? formatCount(analysis.params[id]) : "–"}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
});
