"use client";

import { ChevronLeft, GitCompareArrows } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId } from "react";
import type { FlowElements } from "@/components/editor/editor-store-context";
import { ReadOnlyCanvas } from "@/components/editor/readonly-canvas";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import type { Schemas } from "@/lib/api/client";
import {
  useProject,
  useProjectVersion,
  useProjectVersions,
  useVersionComparison,
} from "@/lib/api/projects/queries";
import { diffStatuses, edgeKey, type SideStatus } from "@/lib/editor/diff-status";
import { formatRelativeTime } from "@/lib/editor/format";
import { handlePort } from "@/lib/editor/graph-mapping";
import { LayerlineError } from "@/sdk/src/errors";
import { DiffList } from "./diff-list";

type Version = Schemas["ProjectVersionSummary"];

function mark(status: SideStatus) {
  return ({ nodes, edges }: FlowElements): FlowElements => ({
    nodes: nodes.map((n) => {
      const diff = status.nodes.get(n.id);
      return diff ? { ...n, data: { ...n.data, diff } } : n;
    }),
    edges: edges.map((e) => {
      const diff = status.edges.get(
        edgeKey({ source: e.source, target: e.target, targetPort: handlePort(e.targetHandle) }),
      );
      return diff ? { ...e, data: { ...e.data, diff } } : e;
    }),
  });
}

/**
 * What the selectors offer: the newest versions, plus the two being compared when they are older
 * than that (a comparison reached from the panel or a link can be of any two versions), newest first.
 */
function versionChoices(newest: readonly Version[], compared: (Version | undefined)[]): Version[] {
  const byId = new Map(newest.map((v) => [v.id, v]));
  for (const v of compared) if (v && !byId.has(v.id)) byId.set(v.id, v);
  return [...byId.values()].sort((x, y) => y.number - x.number);
}

function VersionSelect({
  label,
  value,
  versions,
  onChange,
}: {
  label: string;
  value: string | null;
  versions: Version[];
  onChange: (id: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-muted">
        {label}
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value)}
        className="h-8 rounded-md border border-border bg-panel px-2 text-sm"
      >
        {value === null ? <option value="">Choose…</option> : null}
        {versions.map((v) => (
          <option key={v.id} value={v.id}>
            v{v.number}
            {v.message ? ` · ${v.message.slice(0, 40)}` : ""}
          </option>
        ))}
      </select>
    </div>
  );
}

function Side({
  title,
  version,
  graph,
  status,
}: {
  title: string;
  version: Schemas["ProjectVersion"] | undefined;
  graph: Schemas["ProjectVersion"]["graph"] | undefined;
  status: SideStatus | null;
}) {
  return (
    <Card className="overflow-hidden">
      <div className="flex items-center justify-between gap-2 border-b border-border px-4 py-2.5">
        <div className="min-w-0">
          <p className="text-sm font-semibold">
            {title}: v{version?.number ?? "…"}
          </p>
          <p className="truncate text-xs text-muted">
            {version
              ? `${version.message || "No message"} · ${formatRelativeTime(version.created_at)}`
              : "Loading…"}
          </p>
        </div>
      </div>
      <div className="h-[440px]" data-testid={`compare-${title.toLowerCase()}`}>
        {graph && version && status ? (
          <ReadOnlyCanvas
            key={version.id}
            graph={graph}
            label={`Version ${version.number} diagram`}
            minimap={false}
            decorate={mark(status)}
          />
        ) : null}
      </div>
    </Card>
  );
}

/** Two versions side by side: removed in red on the left, added in green on the right, changed in amber. */
export function CompareView({
  projectId,
  from,
  to,
}: {
  projectId: string;
  from: string | null;
  to: string | null;
}) {
  const router = useRouter();
  const project = useProject(projectId);
  const versions = useProjectVersions(projectId);
  const ready = Boolean(from && to);
  const comparison = useVersionComparison(projectId, from, to);
  const a = useProjectVersion(projectId, from);
  const b = useProjectVersion(projectId, to);
  const go = (next: { from?: string | null; to?: string | null }) => {
    const f = next.from ?? from;
    const t = next.to ?? to;
    router.replace(`/projects/${projectId}/compare?from=${f ?? ""}&to=${t ?? ""}`);
  };
  // Canvases mount once the differences are known, so their marks are there from the first frame.
  const status = comparison.data ? diffStatuses(comparison.data.nodes, comparison.data.edges) : null;
  const error = [comparison.error, a.error, b.error].find((e) => e instanceof LayerlineError) as
    | LayerlineError
    | undefined;
  const c = comparison.data;
  const choices = versionChoices(versions.data?.items ?? [], [a.data, b.data]);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <Link
            href={`/projects/${projectId}`}
            className="mb-1 inline-flex items-center gap-1 text-sm text-muted hover:text-fg"
          >
            <ChevronLeft aria-hidden className="h-4 w-4" /> Back to {project.data?.name ?? "the editor"}
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight">Compare versions</h1>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <VersionSelect label="From" value={from} versions={choices} onChange={(id) => go({ from: id })} />
          <GitCompareArrows aria-hidden className="h-4 w-4 text-muted" />
          <VersionSelect label="To" value={to} versions={choices} onChange={(id) => go({ to: id })} />
        </div>
      </div>

      {!ready ? (
        <EmptyState icon={GitCompareArrows} title="Choose two versions">
          Pick the versions to compare above, or select two in the editor&apos;s Versions panel.
        </EmptyState>
      ) : (
        <>
          {error ? <Alert>{error.message}</Alert> : null}
          {c ? (
            <div className="flex flex-wrap gap-2">
              <Badge tone="ok">{c.nodes.added.length} added</Badge>
              <Badge tone="danger">{c.nodes.removed.length} removed</Badge>
              <Badge tone="warn">{c.nodes.changed.length} changed</Badge>
              <Badge>
                {c.edges.added.length + c.edges.removed.length} connection
                {c.edges.added.length + c.edges.removed.length === 1 ? "" : "s"} changed
              </Badge>
              <Badge>
                {c.config.length} configuration change{c.config.length === 1 ? "" : "s"}
              </Badge>
            </div>
          ) : null}
          <div className="grid gap-4 lg:grid-cols-2">
            <Side title="From" version={a.data} graph={a.data?.graph} status={status?.from ?? null} />
            <Side title="To" version={b.data} graph={b.data?.graph} status={status?.to ?? null} />
          </div>
          <Card>
            <CardHeader title="Differences" description="Parameters are compared with defaults applied." />
            <div className="px-5 py-4">
              {c ? <DiffList comparison={c} /> : <p className="text-sm text-muted">Loading…</p>}
            </div>
          </Card>
        </>
      )}
    </div>
  );
}
