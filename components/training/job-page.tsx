"use client";

import { SearchX } from "lucide-react";
import Link from "next/link";
import { EvaluationsCard } from "@/components/evaluations/evaluations-card";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { useJob, useMetricHistory } from "@/lib/api/training/queries";
import { useJobStream } from "@/lib/api/training/use-job-stream";
import { isActive } from "@/lib/training-ui/states";
import { LayerlineError } from "@/sdk/src/errors";
import { ArtifactCard } from "./artifact-card";
import { CheckpointsCard } from "./checkpoints-card";
import { ConfigCard } from "./config-card";
import { errorMessage } from "./error-message";
import { ExternalCard } from "./external-card";
import { JobHeader } from "./job-header";
import { LogPanel } from "./log-panel";
import { MetricsPanel } from "./metrics-panel";
import { StateTimeline } from "./state-timeline";

/**
 * /training/[id]: one job, live. Its history is read once (job, metrics downsampled to 2,000 points a
 * series, log tail), then the event stream writes what follows into the same cache entries.
 */
export function JobPage({ jobId }: { jobId: string }) {
  const job = useJob(jobId);
  const history = useMetricHistory(jobId);
  const active = job.data ? isActive(job.data.state) : false;
  const stream = useJobStream(jobId, active && history.isSuccess);

  if (job.isPending) {
    return (
      <p className="py-16 text-center text-sm text-muted" role="status">
        Loading the job…
      </p>
    );
  }
  if (job.isError) {
    const missing = job.error instanceof LayerlineError ? job.error.status === 404 : false;
    return (
      <div className="max-w-3xl">
        <EmptyState
          icon={SearchX}
          title={missing ? "No such training job" : "Could not load the job"}
          action={
            <Link href="/training" className={buttonClass("secondary")}>
              All training jobs
            </Link>
          }
        >
          {missing ? "It may have been deleted, or it belongs to another account." : errorMessage(job.error)}
        </EmptyState>
      </div>
    );
  }
  const data = job.data;
  return (
    <div className="max-w-7xl">
      <JobHeader job={data} stream={stream} />
      <div className="space-y-6">
        {data.runtime === "external" ? <ExternalCard job={data} /> : null}
        <MetricsPanel jobId={jobId} live={active} />
        <div className="grid items-start gap-6 lg:grid-cols-3">
          <div className="min-w-0 space-y-6 lg:col-span-2">
            <EvaluationsCard job={data} />
            <LogPanel jobId={jobId} live={active} />
            <CheckpointsCard jobId={jobId} />
            <ArtifactCard job={data} />
          </div>
          <div className="min-w-0 space-y-6">
            <StateTimeline job={data} />
            <ConfigCard job={data} />
          </div>
        </div>
      </div>
    </div>
  );
}
