"use client";

import Link from "next/link";
import { LIST_ROW, ListTable } from "@/components/ui/list-table";
import { formatAgo } from "@/lib/training-ui/durations";
import { JobLink } from "./job-link";
import { DeploymentStateBadge } from "./state-badge";
import type { Deployment } from "./types";

/** Deployments as a table: name, state, revision, the model's job, created. */
export function DeploymentsTable({ deployments, now }: { deployments: Deployment[]; now: number }) {
  return (
    <ListTable
      caption="Deployments"
      columns={[
        { header: "Deployment" },
        { header: "State", width: "w-32" },
        { header: "Revision", width: "w-24", align: "right" },
        { header: "Model", width: "w-64" },
        { header: "Created", width: "w-32", align: "right" },
      ]}
    >
      {deployments.map((d) => (
        <tr key={d.id} className={LIST_ROW} data-testid="deployment-row">
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
    </ListTable>
  );
}
