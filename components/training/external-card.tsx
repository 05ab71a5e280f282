"use client";

import { KeyRound, Laptop } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { $api } from "@/lib/api/client";
import { isActive } from "@/lib/training-ui/states";
import { downloadHref } from "./download-href";
import { errorMessage } from "./error-message";
import type { TrainingJob } from "./types";

/**
 * An external job runs on the user's machine: download the code, mint an upload token (shown once),
 * and run the snippet; metrics and logs then appear here as the program uploads them.
 */
export function ExternalCard({ job }: { job: TrainingJob }) {
  const mint = $api.useMutation("post", "/api/v1/training/jobs/{job_id}/stream-token");
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const token = mint.data?.token;
  const snippet = token
    ? `python train.py --data-dir data --job ${job.id} --token ${token} --api ${origin}`
    : null;
  const open = isActive(job.state);
  return (
    <Card>
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <Laptop aria-hidden className="h-4 w-4 text-muted" /> Run it on your hardware
          </span>
        }
        description="This job runs where you start it; its metrics and logs appear here as it uploads them."
      />
      <ol className="list-decimal space-y-3 py-4 pr-5 pl-10 text-sm">
        <li>
          <a
            href={downloadHref(
              "/api/v1/training/jobs/{job_id}/download-code",
              { job_id: job.id },
              { target: "pytorch" },
            )}
            download
            className="font-medium text-accent hover:underline"
          >
            Download the PyTorch code
          </a>{" "}
          and unzip it: its <code className="font-mono text-xs">data</code> folder holds the job's dataset,
          prepared as the service prepares it (a dataset above 64 MiB is left out: pass your CSV with{" "}
          <code className="font-mono text-xs">--data</code> instead).
        </li>
        <li>
          Create an upload token for this job (it is shown once and works until the job finishes).
          <div className="mt-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={!open || mint.isPending}
              onClick={() => mint.mutate({ params: { path: { job_id: job.id } } })}
            >
              <KeyRound aria-hidden className="h-4 w-4" />
              {mint.isPending ? "Creating…" : token ? "Create another token" : "Create upload token"}
            </Button>
            {!open ? (
              <p className="mt-1 text-xs text-muted">The job has finished: it takes no more uploads.</p>
            ) : null}
          </div>
        </li>
        <li>
          Run:
          {snippet ? (
            <div className="mt-2 flex items-start gap-2">
              <pre
                className="min-w-0 flex-1 rounded-md border border-border bg-panel-2 px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap"
                data-testid="external-snippet"
              >
                {snippet}
              </pre>
              <CopyButton value={snippet} />
            </div>
          ) : (
            <pre className="mt-2 rounded-md border border-dashed border-border px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap text-muted">
              python train.py --data-dir data --job {job.id} --token lut_… --api {origin || "…"}
            </pre>
          )}
        </li>
      </ol>
      {mint.error ? (
        <div className="px-5 pb-4">
          <Alert>{errorMessage(mint.error)}</Alert>
        </div>
      ) : null}
      {mint.data?.expires_at ? (
        <p className="px-5 pb-4 text-xs text-muted">
          Valid until {new Date(mint.data.expires_at).toLocaleString()}.
        </p>
      ) : null}
    </Card>
  );
}
