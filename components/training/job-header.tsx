"use client";

import { Download } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { DeployButton } from "@/components/deployments/deploy-button";
import { PublishToHubButton } from "@/components/hub/publish-to-hub-button";
import { PushToRegistryButton } from "@/components/registry/push-to-registry-button";
import { Alert } from "@/components/ui/alert";
import { cn } from "@/components/ui/cn";
import { LiveIndicator, PageHeader, HeaderStat as Stat } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress-bar";
import { useDataset } from "@/lib/api/datasets/queries";
import type { StreamStatus } from "@/lib/api/training/use-job-stream";
import { formatAgo, formatDuration, jobDurations } from "@/lib/training-ui/durations";
import { isActive } from "@/lib/training-ui/states";
import { downloadHref } from "./download-href";
import { JobActions } from "./job-actions";
import { RUNTIME_LABELS } from "./runtime-picker";
import { StateBadge } from "./state-badge";
import type { TrainingJob } from "./types";
import { useNow } from "./use-now";

/** A dataset's name (its id until it is known, or when it was deleted). */
function DatasetName({ id }: { id: string }) {
  const dataset = useDataset(id);
  return <>{dataset.data?.name ?? id}</>;
}

function runtimeText(job: TrainingJob): string {
  if (job.runtime === "auto")
    return job.resolved_runtime ? `${RUNTIME_LABELS[job.resolved_runtime]} (auto)` : "Auto";
  return RUNTIME_LABELS[job.runtime];
}

/** Epoch x of y, from the job's progress (steps within the epoch when known). */
function progressOf(job: TrainingJob): { percent: number; label: string } | null {
  const p = job.progress;
  if (!p || p.epochs <= 0) return null;
  const fraction = p.steps > 0 ? p.step / p.steps : p.epoch / p.epochs;
  const percent = job.state === "succeeded" ? 100 : Math.max(0, Math.min(100, Math.floor(fraction * 100)));
  return { percent, label: `Epoch ${p.epoch} of ${p.epochs}` };
}

const downloadLink = "inline-flex h-8 items-center gap-1.5 px-2.5 text-sm font-medium hover:bg-panel-2";

/** Name, state, where it runs, what it trains on, how long it took; cancel/restart and downloads. */
export function JobHeader({ job, stream }: { job: TrainingJob; stream: StreamStatus }) {
  const now = useNow(isActive(job.state));
  const [actionError, setActionError] = useState<string | null>(null);
  const d = jobDurations(job, now);
  const progress = progressOf(job);
  const active = isActive(job.state);
  return (
    <PageHeader
      title={job.name}
      crumbs={[{ href: "/training", label: "Training" }]}
      badges={
        <>
          <StateBadge state={job.state} cancelling={job.cancel_requested} />
          {job.base_model_id ? (
            <Link
              href={`/training/fine-tune?base=${encodeURIComponent(job.base_model_id)}`}
              className="text-xs text-muted hover:text-fg hover:underline"
              data-testid="job-base-model"
              title="A fine-tuning run: its weights started from this base model"
            >
              Fine-tuned from <span className="font-medium">{job.base_model_name ?? job.base_model_id}</span>
            </Link>
          ) : null}
          {active ? <LiveIndicator status={stream} /> : null}
        </>
      }
      actions={
        <>
          <JobActions job={job} onError={setActionError} />
          <PushToRegistryButton job={job} />
          {job.state === "succeeded" && job.artifact ? (
            <DeployButton jobId={job.id} jobName={job.name} />
          ) : null}
          {job.state === "succeeded" && job.artifact ? (
            <PublishToHubButton jobId={job.id} jobName={job.name} />
          ) : null}
          <div className="inline-flex items-center overflow-hidden rounded-md border border-border bg-panel">
            <span className="flex h-8 items-center gap-1.5 border-r border-border px-2.5 text-xs text-muted">
              <Download aria-hidden className="h-3.5 w-3.5" /> Download
            </span>
            <a
              className={downloadLink}
              href={downloadHref(
                "/api/v1/training/jobs/{job_id}/download-code",
                { job_id: job.id },
                { target: "pytorch" },
              )}
              download
            >
              PyTorch code
            </a>
            <a
              className={cn(downloadLink, "border-l border-border")}
              href={downloadHref(
                "/api/v1/training/jobs/{job_id}/download-code",
                { job_id: job.id },
                { target: "tfjs" },
              )}
              download
            >
              TF.js code
            </a>
            <a
              className={cn(downloadLink, "border-l border-border")}
              href={downloadHref("/api/v1/training/jobs/{job_id}/dag", { job_id: job.id })}
              download
            >
              DAG file
            </a>
          </div>
        </>
      }
    >
      {actionError ? <Alert>{actionError}</Alert> : null}
      {job.reason && (job.state === "failed" || job.state === "timed_out") ? (
        <Alert tone={job.state === "failed" ? "danger" : "warn"}>{job.reason}</Alert>
      ) : null}
      {job.state === "queued" && job.waiting_for_slot ? (
        <Alert tone="warn">
          Waiting for a free slot: your plan runs a limited number of jobs at once; this one starts when
          another finishes.
        </Alert>
      ) : null}
      <div className="rounded-lg border border-border bg-panel px-5 py-4">
        <dl className="grid grid-cols-2 gap-x-8 gap-y-3 sm:grid-cols-3 lg:grid-cols-6">
          <Stat label="Project">
            <Link href={`/projects/${job.project_id}`} className="text-accent hover:underline">
              {job.project_name}
            </Link>
          </Stat>
          <Stat label="Dataset">
            <Link href={`/datasets/${job.dataset_id}`} className="text-accent hover:underline">
              <DatasetName id={job.dataset_id} />
            </Link>
          </Stat>
          <Stat label="Runtime" testId="job-runtime">
            {runtimeText(job)}
          </Stat>
          <Stat label="Created">
            <time dateTime={job.created_at} title={new Date(job.created_at).toLocaleString()}>
              {formatAgo(job.created_at, now)}
            </time>
          </Stat>
          <Stat label={job.started_at ? "Waited" : "Waiting"}>
            {d.queued === null ? "–" : formatDuration(d.queued)}
          </Stat>
          <Stat label={job.finished_at ? "Ran for" : "Running for"} testId="job-run-time">
            {d.running === null ? "–" : formatDuration(d.running)}
          </Stat>
        </dl>
        {progress ? (
          <div className="mt-4 border-t border-border pt-4">
            <ProgressBar
              percent={progress.percent}
              label={progress.label}
              ariaLabel="Training progress"
              busy={job.state === "running"}
              done={job.state === "succeeded"}
              percentTestId="progress-percent"
            />
          </div>
        ) : null}
      </div>
    </PageHeader>
  );
}
