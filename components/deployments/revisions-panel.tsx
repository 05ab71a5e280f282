"use client";

import { useQueryClient } from "@tanstack/react-query";
import { History } from "lucide-react";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { $api } from "@/lib/api/client";
import { deploymentKeys, deploymentQuery, revisionsQuery } from "@/lib/api/deployments/keys";
import { useDeploymentRevisions } from "@/lib/api/deployments/queries";
import { type RevisionChange, withChanges } from "@/lib/deployments-ui/revision-diff";
import { formatAgo } from "@/lib/training-ui/durations";
import { JobLink } from "./job-link";
import { ProblemAlert } from "./problem-alert";
import type { Deployment } from "./types";

function show(v: unknown): string {
  return v === undefined ? "default" : JSON.stringify(v);
}

function Change({ change }: { change: RevisionChange }) {
  switch (change.kind) {
    case "first":
      return <li>First revision</li>;
    case "model":
      return (
        <li>
          Model: <span className="font-mono text-xs">{change.from ?? "–"}</span> →{" "}
          <span className="font-mono text-xs">{change.to ?? "–"}</span>
        </li>
      );
    case "format":
      return (
        <li>
          Artifact: {change.from} → {change.to}
        </li>
      );
    case "setting":
      return (
        <li>
          <span className="font-mono text-xs">{change.name}</span>: {show(change.from)} → {show(change.to)}
        </li>
      );
  }
}

/** Every revision, newest first, with what it changed; any older one can be rolled back to. */
export function RevisionsPanel({ deployment }: { deployment: Deployment }) {
  const queryClient = useQueryClient();
  const revisions = useDeploymentRevisions(deployment.id);
  const rollBack = $api.useMutation("put", "/api/v1/deployments/{deployment_id}", {
    onSuccess: (d) => {
      queryClient.setQueryData(deploymentQuery(d.id).queryKey, d);
      void queryClient.invalidateQueries({ queryKey: revisionsQuery(d.id).queryKey });
      void queryClient.invalidateQueries({ queryKey: deploymentKeys.list });
    },
  });
  const list = withChanges(revisions.data ?? []);
  return (
    <Card>
      <CardHeader
        title="Revisions"
        description="Every change of model or settings is a revision. Rolling back makes a new one."
      />
      <div className="px-5 py-4">
        {rollBack.isError ? (
          <div className="mb-3">
            <ProblemAlert error={rollBack.error} />
          </div>
        ) : null}
        {revisions.isError ? (
          <ProblemAlert error={revisions.error} />
        ) : revisions.isPending ? (
          <p className="text-sm text-muted">Loading revisions…</p>
        ) : (
          <ol className="divide-y divide-border" aria-label="Revisions">
            {list.map(({ revision: r, changes }) => {
              const current = r.number === deployment.revision;
              return (
                <li
                  key={r.id}
                  className="flex flex-wrap items-start justify-between gap-3 py-3"
                  data-testid="revision-row"
                  data-revision={r.number}
                >
                  <div className="min-w-0 space-y-1">
                    <p className="flex flex-wrap items-center gap-2 text-sm">
                      <History aria-hidden className="h-4 w-4 text-muted" />
                      <span className="font-semibold">Revision {r.number}</span>
                      {current ? (
                        <span className="rounded-full bg-ok-soft px-2 py-0.5 text-xs font-medium text-ok">
                          Serving
                        </span>
                      ) : null}
                      <time
                        dateTime={r.created_at}
                        className="text-xs text-muted"
                        title={new Date(r.created_at).toLocaleString()}
                      >
                        {formatAgo(r.created_at, Date.now())}
                      </time>
                    </p>
                    <p className="text-sm text-muted">
                      Model: <JobLink jobId={r.job_id} underline /> · {r.artifact_format.toUpperCase()}
                    </p>
                    <ul className="list-disc pl-5 text-sm" aria-label={`Changes in revision ${r.number}`}>
                      {changes.length === 0 ? (
                        <li className="text-muted">Same model and settings as the revision before</li>
                      ) : (
                        changes.map((c) => <Change key={c.kind === "setting" ? c.name : c.kind} change={c} />)
                      )}
                    </ul>
                  </div>
                  {current ? null : (
                    <ConfirmButton
                      // Remounted (asked again) once the deployment serves another revision.
                      key={deployment.revision}
                      label="Roll back to this revision"
                      confirmLabel={`Serve revision ${r.number}'s model`}
                      pending={rollBack.isPending}
                      onConfirm={() =>
                        rollBack.mutate({
                          params: { path: { deployment_id: deployment.id } },
                          body: { from_revision: r.number },
                        })
                      }
                    />
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </Card>
  );
}
