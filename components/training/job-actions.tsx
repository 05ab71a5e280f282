"use client";

import { useQueryClient } from "@tanstack/react-query";
import { RotateCcw, Square } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { $api } from "@/lib/api/client";
import { jobQuery, trainingKeys } from "@/lib/api/training/keys";
import { canCancel, canRestart } from "@/lib/training-ui/states";
import type { TrainingJob } from "./types";

/**
 * Cancel (asks first, in place) and Restart. Both answer with the job, written into the cache; the
 * event stream then carries what follows.
 */
export function JobActions({
  job,
  onError,
}: {
  job: TrainingJob;
  onError: (message: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const settle = {
    onSuccess: (updated: TrainingJob) => {
      queryClient.setQueryData(jobQuery(updated.id).queryKey, updated);
      queryClient.invalidateQueries({ queryKey: trainingKeys.jobs });
      onError(null);
    },
    onError: (err: { detail?: string } | Error) =>
      onError(err instanceof Error ? err.message : (err.detail ?? null)),
  };
  const cancel = $api.useMutation("post", "/api/v1/training/jobs/{job_id}/cancel", settle);
  const restart = $api.useMutation("post", "/api/v1/training/jobs/{job_id}/restart", settle);
  const path = { params: { path: { job_id: job.id } } };

  if (canCancel(job.state)) {
    if (job.cancel_requested) {
      return (
        <Button variant="secondary" size="sm" disabled>
          <Square aria-hidden className="h-4 w-4" /> Cancelling…
        </Button>
      );
    }
    if (!confirming) {
      return (
        <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
          <Square aria-hidden className="h-4 w-4" /> Cancel job
        </Button>
      );
    }
    return (
      <span className="inline-flex items-center gap-1.5 rounded-md border border-danger/40 bg-danger-soft py-0.5 pr-0.5 pl-3">
        <span className="text-sm text-danger">Stop this job?</span>
        <Button
          variant="danger"
          size="sm"
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(path, { onSettled: () => setConfirming(false) })}
        >
          {cancel.isPending ? "Cancelling…" : "Yes, cancel it"}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
          Keep running
        </Button>
      </span>
    );
  }
  if (canRestart(job.state)) {
    return (
      <Button
        variant="secondary"
        size="sm"
        disabled={restart.isPending}
        onClick={() => restart.mutate(path)}
        title="Queue the job again; it resumes from its last checkpoint"
      >
        <RotateCcw aria-hidden className="h-4 w-4" /> {restart.isPending ? "Restarting…" : "Restart"}
      </Button>
    );
  }
  return null;
}
