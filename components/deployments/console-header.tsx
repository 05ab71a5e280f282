"use client";

import { Alert } from "@/components/ui/alert";
import { LiveIndicator, PageHeader, HeaderStat as Stat } from "@/components/ui/page-header";
import type { StreamStatus } from "@/lib/api/deployments/use-deployment-stream";
import { formatAgo } from "@/lib/training-ui/durations";
import { DeploymentActions } from "./deployment-actions";
import { JobLink } from "./job-link";
import { DeploymentStateBadge } from "./state-badge";
import type { Deployment } from "./types";

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
    <PageHeader
      title={d.name}
      crumbs={[{ href: "/deployments", label: "Deployments" }]}
      badges={
        <>
          <DeploymentStateBadge state={d.state} />
          <LiveIndicator status={stream} />
        </>
      }
      actions={<DeploymentActions deployment={d} onError={onError} />}
    >
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
          <Stat label="Endpoint" className="min-w-0 sm:col-span-2">
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
    </PageHeader>
  );
}
