"use client";

import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { useDeploymentLogs } from "@/lib/api/deployments/queries";
import { ProblemAlert } from "./problem-alert";
import type { DeploymentLogEntry } from "./types";

function statusClass(status: number | null): string {
  if (status === null) return "text-muted";
  if (status >= 500) return "text-danger";
  if (status >= 400) return "text-warn";
  return "text-ok";
}

function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ""
    : d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function Entry({ e }: { e: DeploymentLogEntry }) {
  return (
    <li
      className="grid grid-cols-[5rem_3rem_7rem_5rem_minmax(0,1fr)] gap-3 border-b border-border/60 px-4 py-1 last:border-b-0"
      data-testid="deployment-log-entry"
      data-status={e.status ?? undefined}
    >
      <time dateTime={e.at} className="text-muted tabular-nums">
        {clock(e.at)}
      </time>
      <span className={cn("font-semibold tabular-nums", statusClass(e.status))}>
        {e.kind === "request" ? e.status : "log"}
      </span>
      <span className="truncate">{e.route ?? ""}</span>
      <span className="text-right text-muted tabular-nums">
        {e.latency_ms === null ? "" : `${e.latency_ms.toFixed(1)} ms`}
      </span>
      <span
        className={cn("truncate", e.error ? "text-danger" : "text-muted")}
        title={e.error ?? e.message ?? ""}
      >
        {e.kind === "log"
          ? e.message
          : (e.error ?? (e.instances ? `${e.instances} instance${e.instances === 1 ? "" : "s"}` : ""))}
        {e.weight !== null && e.weight > 1 ? (
          <span
            className="text-muted"
            title="A busy second keeps a sample: this line stands for several calls"
          >
            {" "}
            · stands for {e.weight} calls
          </span>
        ) : null}
      </span>
    </li>
  );
}

/** The request log, newest first: the route's last entries, then every request as it happens. */
export function LogsPanel({ deploymentId }: { deploymentId: string }) {
  const logs = useDeploymentLogs(deploymentId);
  const items = logs.data?.items ?? [];
  return (
    <Card>
      <CardHeader title="Logs" description="Requests and events, newest first, as they happen." />
      {logs.isError ? (
        <div className="p-4">
          <ProblemAlert error={logs.error} />
        </div>
      ) : (
        <div
          role="log"
          aria-label="Deployment log"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
          tabIndex={0}
          className="max-h-[28rem] overflow-y-auto bg-panel-2/40 py-1 font-mono text-xs leading-5"
        >
          {logs.isPending ? (
            <p className="px-4 py-2 text-muted">Loading the log…</p>
          ) : items.length === 0 ? (
            <p className="px-4 py-2 text-muted">No requests yet. They appear here as they arrive.</p>
          ) : (
            <ul>
              {items.map((e) => (
                <Entry key={e.id} e={e} />
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}
