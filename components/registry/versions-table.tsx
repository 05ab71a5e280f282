"use client";

import Link from "next/link";
import { useNow } from "@/components/training/use-now";
import { cn } from "@/components/ui/cn";
import { versionHref } from "@/lib/api/registry/keys";
import { formatAgo } from "@/lib/training-ui/durations";
import { AliasChip } from "./alias-chip";
import { formatMetricValue, keyMetrics, metricLabel } from "./format";
import type { ModelVersion } from "./types";
import { VersionSource } from "./version-source";
import { VersionStateBadge } from "./version-state-badge";

/** The model's versions, newest first; the selected one is highlighted, each number selects its row. */
export function VersionsTable({
  modelId,
  versions,
  selectedId,
}: {
  modelId: string;
  versions: ModelVersion[];
  selectedId: string | null;
}) {
  const now = useNow(false);
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-panel">
      <table className="w-full text-sm" aria-label="Versions">
        <thead className="border-b border-border text-left text-xs text-muted">
          <tr>
            <th className="px-4 py-2.5 font-medium">Version</th>
            <th className="px-4 py-2.5 font-medium">State</th>
            <th className="px-4 py-2.5 font-medium">Source</th>
            <th className="px-4 py-2.5 font-medium">Metrics</th>
            <th className="px-4 py-2.5 font-medium">Aliases</th>
            <th className="px-4 py-2.5 text-right font-medium">Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {versions.map((v) => {
            const selected = v.id === selectedId;
            const metrics = keyMetrics(v.metrics);
            return (
              <tr
                key={v.id}
                className={cn(selected ? "bg-accent-soft/50" : "hover:bg-panel-2/60")}
                aria-current={selected ? "true" : undefined}
                data-testid="version-row"
              >
                <td className="px-4 py-3">
                  <Link
                    href={versionHref(modelId, v.id)}
                    scroll={false}
                    className="font-medium text-accent tabular-nums hover:underline"
                  >
                    v{v.version}
                  </Link>
                </td>
                <td className="px-4 py-3">
                  <VersionStateBadge state={v.state} />
                </td>
                <td className="px-4 py-3">
                  <VersionSource version={v} />
                </td>
                <td className="px-4 py-3 tabular-nums">
                  {metrics.length === 0 ? (
                    <span className="text-muted">–</span>
                  ) : (
                    <span className="flex flex-wrap gap-x-3">
                      {metrics.map(([k, value]) => (
                        <span key={k}>
                          <span className="text-muted">{metricLabel(k)}</span>{" "}
                          <span className="font-mono">{formatMetricValue(k, value)}</span>
                        </span>
                      ))}
                    </span>
                  )}
                </td>
                <td className="px-4 py-3">
                  {v.aliases.length === 0 ? (
                    <span className="text-muted">–</span>
                  ) : (
                    <span className="flex flex-wrap gap-1">
                      {v.aliases.map((a) => (
                        <AliasChip key={a} alias={a} />
                      ))}
                    </span>
                  )}
                </td>
                <td className="px-4 py-3 text-right text-muted">
                  <time dateTime={v.created_at} title={new Date(v.created_at).toLocaleString()}>
                    {formatAgo(v.created_at, now)}
                  </time>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
