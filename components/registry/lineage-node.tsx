"use client";

import { Handle, type Node, type NodeProps, Position } from "@xyflow/react";
import {
  Box,
  Boxes,
  Database,
  FolderKanban,
  GitBranch,
  Layers,
  Library,
  type LucideIcon,
  Rocket,
  Save,
  Server,
  Sparkles,
  TrendingUp,
} from "lucide-react";
import Link from "next/link";
import { memo } from "react";
import { cn } from "@/components/ui/cn";
import { NODE_HEIGHT, NODE_WIDTH } from "@/lib/registry-ui/lineage-layout";
import type { LineageKind } from "./types";

export interface LineageNodeData extends Record<string, unknown> {
  kind: LineageKind;
  label: string;
  href: string | null;
  current: boolean;
}
export type LineageFlowNode = Node<LineageNodeData, "lineage">;

export const KIND_META: Record<LineageKind, { label: string; icon: LucideIcon; tone: string }> = {
  dataset: { label: "Dataset", icon: Database, tone: "border-l-sky-500" },
  dataset_version: { label: "Dataset version", icon: GitBranch, tone: "border-l-sky-500" },
  project: { label: "Project", icon: FolderKanban, tone: "border-l-violet-500" },
  architecture_version: { label: "Architecture", icon: Layers, tone: "border-l-violet-500" },
  base_model: { label: "Base model", icon: Library, tone: "border-l-fuchsia-500" },
  job: { label: "Training job", icon: TrendingUp, tone: "border-l-amber-500" },
  run: { label: "Fine-tuning run", icon: Sparkles, tone: "border-l-amber-500" },
  checkpoint: { label: "Checkpoint", icon: Save, tone: "border-l-amber-500" },
  model_version: { label: "Model version", icon: Boxes, tone: "border-l-emerald-500" },
  deployment_revision: { label: "Revision", icon: Server, tone: "border-l-rose-500" },
  deployment: { label: "Deployment", icon: Rocket, tone: "border-l-rose-500" },
};

/** One lineage node: its kind, its name, and a link to its page (the whole card is the link). */
export const LineageNodeView = memo(function LineageNodeView({ data }: NodeProps<LineageFlowNode>) {
  const meta = KIND_META[data.kind] ?? { label: data.kind, icon: Box, tone: "border-l-border" };
  const Icon = meta.icon;
  const body = (
    <>
      <span className="flex items-center gap-1.5 text-[11px] font-medium tracking-wide text-muted uppercase">
        <Icon aria-hidden className="h-3.5 w-3.5" />
        {meta.label}
      </span>
      <span className="mt-0.5 line-clamp-2 text-[13px] leading-tight font-medium text-fg" title={data.label}>
        {data.label}
      </span>
    </>
  );
  const box = cn(
    "nodrag nopan block overflow-hidden rounded-md border border-l-4 border-border bg-panel px-2.5 py-1.5 text-left shadow-sm",
    meta.tone,
    data.current && "ring-2 ring-accent",
  );
  return (
    <div style={{ width: NODE_WIDTH, height: NODE_HEIGHT }} data-testid="lineage-node" data-kind={data.kind}>
      <Handle id="left" type="target" position={Position.Left} className="opacity-0" isConnectable={false} />
      <Handle id="top" type="target" position={Position.Top} className="opacity-0" isConnectable={false} />
      {data.href ? (
        <Link
          href={data.href}
          className={cn(box, "h-full transition-colors hover:border-accent hover:bg-panel-2")}
          aria-label={`${meta.label}: ${data.label}`}
        >
          {body}
        </Link>
      ) : (
        <div className={cn(box, "h-full")}>{body}</div>
      )}
      <Handle
        id="right"
        type="source"
        position={Position.Right}
        className="opacity-0"
        isConnectable={false}
      />
      <Handle
        id="bottom"
        type="source"
        position={Position.Bottom}
        className="opacity-0"
        isConnectable={false}
      />
    </div>
  );
});

export const lineageNodeTypes = { lineage: LineageNodeView };
