"use client";

import { ChevronRight, Radio } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { cn } from "@/components/ui/cn";
import type { StreamStatus } from "@/lib/api/deployments/use-deployment-stream";
import { formatAgo } from "@/lib/training-ui/durations";
import { DeploymentActions } from "./deployment-actions";
import { JobLink } from "./job-link";
import { DeploymentStateBadge } from "./state-badge";
import type { Deployment } from "./types";

function Stat({
  label,
  children,
  testId,
  wide = false,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  return (
    <div className={cn("min-w-0", wide && "sm:col-span-2")}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 truncate text-sm font-medium tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const TASKS: Record<string, string> = {
  classification: "Classification",
  multiclass_classification: "Classification",
  binary_classification: "Binary classification",
  regression: "Regression",
  language_model: "Language model",
};

/** Name, state, revision, what it serves, the live indicator and the actions. */
export function ConsoleHeader({
  deployment: d,
  stream,
  onError,
}: {
  deployment: Deployment;
  stream: StreamStatus;
  onError: (error: unknown) => void;
}) {
  return (
    <header className="mb-6 space-y-4">
      <nav aria-label="Breadcrumb" className="flex items-center gap-1 text-sm text-muted">
        <Link href="/deployments" className="hover:text-fg hover:underline">
          Deployments
        </Link>
        <ChevronRight aria-hidden className="h-3.5 w-3.5" />
        <span aria-current="page" className="truncate text-fg">
          {d.name}
        </span>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-wrap items-center gap-3">
          <h1 className="truncate text-2xl font-semibold tracking-tight">{d.name}</h1>
          <DeploymentStateBadge state={d.state} />
          <span
            className={cn(
              "inline-flex items-center gap-1 text-xs",
              stream === "live" ? "text-ok" : "text-muted",
            )}
            role="status"
          >
            <Radio aria-hidden className="h-3.5 w-3.5" />
            {stream === "live" ? "Live" : stream === "reconnecting" ? "Reconnecting…" : "Connecting…"}
          </span>
        </div>
        <DeploymentActions deployment={d} onError={onError} />
      </div>
      {d.state === "paused" ? (
        <Alert tone="warn">Paused: predictions answer 503 until you resume the deployment.</Alert>
      ) : d.state === "failed" ? (
        <Alert>The deployment failed to load its model; deploy another revision or delete it.</Alert>
      ) : null}
      <div className="rounded-lg border border-border bg-panel px-5 py-4">
        <dl className="grid grid-cols-2 gap-x-8 gap-y-3 sm:grid-cols-3 lg:grid-cols-7">
          <Stat label="Revision" testId="deployment-revision">
            {d.revision ?? "–"}
          </Stat>
          <Stat label="Model">
            <JobLink jobId={d.job_id} />
            {d.follows ? (
              <span className="block text-xs text-muted" data-testid="deployment-follows">
                follows “{d.follows.alias}”
              </span>
            ) : null}
          </Stat>
          <Stat label="Task">{d.task ? (TASKS[d.task] ?? d.task) : "–"}</Stat>
          <Stat label="Key" testId="deployment-key-prefix">
            <span className="font-mono">{d.key_prefix}…</span>
          </Stat>
          <Stat label="Endpoint" wide>
            <span className="font-mono text-xs" title={`${d.inference_url}/predict`}>
              {d.inference_url}/predict
            </span>
          </Stat>
          <Stat label="Created">
            <time dateTime={d.created_at} title={new Date(d.created_at).toLocaleString()}>
              {formatAgo(d.created_at, Date.now())}
            </time>
          </Stat>
        </dl>
      </div>
    </header>
  );
}
