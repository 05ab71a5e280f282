"use client";

import Link from "next/link";
import { formatAgo } from "@/lib/training-ui/durations";
import { JobLink } from "./job-link";
import { DeploymentStateBadge } from "./state-badge";
import type { Deployment } from "./types";

/** Deployments as a table: name, state, revision, the model's job, created. */
export function DeploymentsTable({ deployments, now }: { deployments: Deployment[]; now: number }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-panel">
      <table className="w-full min-w-[760px] table-fixed text-sm">
        <caption className="sr-only">Deployments</caption>
        <colgroup>
          <col />
          <col className="w-32" />
          <col className="w-24" />
          <col className="w-64" />
          <col className="w-32" />
        </colgroup>
        <thead>
          <tr className="border-b border-border bg-panel-2/60 text-left text-xs text-muted">
            <th scope="col" className="px-4 py-2 font-medium">
              Deployment
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              State
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Revision
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Model
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Created
            </th>
          </tr>
        </thead>
        <tbody>
          {deployments.map((d) => (
            <tr
              key={d.id}
              className="border-t border-border first:border-t-0 hover:bg-panel-2/50"
              data-testid="deployment-row"
            >
              <td className="px-4 py-2.5">
                <Link
                  href={`/deployments/${d.id}`}
                  className="block truncate font-medium text-fg hover:text-accent hover:underline"
                >
                  {d.name}
                </Link>
                <span className="block truncate font-mono text-xs text-muted">{d.key_prefix}…</span>
              </td>
              <td className="px-3 py-2.5">
                <DeploymentStateBadge state={d.state} />
              </td>
              <td className="px-3 py-2.5 text-right tabular-nums">{d.revision ?? "–"}</td>
              <td className="px-3 py-2.5">
                <span className="block truncate">
                  <JobLink jobId={d.job_id} />
                </span>
              </td>
              <td className="whitespace-nowrap px-4 py-2.5 text-right text-muted">
                <time dateTime={d.created_at} title={new Date(d.created_at).toLocaleString()}>
                  {formatAgo(d.created_at, now)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
