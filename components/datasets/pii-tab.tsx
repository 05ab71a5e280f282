"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Lock, ScanSearch, ShieldAlert, ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { $api } from "@/lib/api/client";
import { datasetKeys } from "@/lib/api/datasets/keys";
import { useDatasetTask } from "@/lib/api/datasets/queries";
import { formatCount, formatDate, formatPercent, formatRelative } from "@/lib/datasets-ui/format";
import { piiColumns, piiKindLabel, sortFlaggedFirst } from "@/lib/datasets-ui/pii";
import { errorMessage } from "./error-message";
import type { DatasetTabProps } from "./types";

const FINISHED = new Set(["succeeded", "failed", "cancelled"]);

/** Run a personal-data scan of the version, follow its task, and show what it found per column. */
export function PiiTab({ dataset, version }: DatasetTabProps) {
  const queryClient = useQueryClient();
  const [taskId, setTaskId] = useState<string | null>(null);
  const report = version.pii_report;
  const start = $api.useMutation("post", "/api/v1/datasets/{dataset_id}/versions/{version_id}/pii-scan", {
    onSuccess: (t) => setTaskId(t.task_id),
  });
  const task = useDatasetTask(taskId, {
    refetchInterval: (q) => (q.state.data && FINISHED.has(q.state.data.state) ? false : 600),
  });
  const state = task.data?.state;
  useEffect(() => {
    if (state === "succeeded") queryClient.invalidateQueries({ queryKey: datasetKeys.version });
  }, [state, queryClient]);

  const waitingForReport =
    taskId !== null && state !== "failed" && state !== "cancelled" && report?.task_id !== taskId;
  const running = start.isPending || waitingForReport;
  const views = report
    ? sortFlaggedFirst(
        piiColumns(
          version.schema.columns.map((c) => c.name),
          report.findings,
          report.rows_scanned,
        ),
      )
    : [];
  const flagged = views.filter((v) => v.flagged);

  return (
    <div className="space-y-5">
      <Card>
        <CardHeader
          title="Personal data scan"
          description="Checks every cell for e-mail addresses, phone numbers, payment cards, IBANs, US social security numbers and IP addresses, and name columns for person names. Examples are masked."
          actions={
            dataset.read_only ? null : (
              <Button
                onClick={() =>
                  start.mutate({ params: { path: { dataset_id: dataset.id, version_id: version.id } } })
                }
                disabled={running}
                className="shrink-0"
              >
                <ScanSearch aria-hidden className="h-4 w-4" />
                {running ? "Scanning…" : report ? "Scan again" : "Run scan"}
              </Button>
            )
          }
        />
        <div className="space-y-3 px-5 py-4">
          {dataset.read_only ? (
            <p className="flex items-center gap-2 text-sm text-muted">
              <Lock aria-hidden className="h-4 w-4" />
              {dataset.builtin
                ? "Built-in datasets cannot be scanned."
                : "Only the owner can scan this dataset."}
            </p>
          ) : null}
          {running ? (
            <div className="space-y-1.5">
              <div className="flex justify-between text-sm text-muted">
                <span>
                  {task.data?.message ??
                    (state === "running"
                      ? "Scanning…"
                      : state === "succeeded"
                        ? "Loading the report…"
                        : "Queued…")}
                </span>
                <span className="tabular-nums">{formatPercent(task.data?.progress ?? 0)}</span>
              </div>
              <div
                role="progressbar"
                aria-label="Scan progress"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round((task.data?.progress ?? 0) * 100)}
                className="h-2 overflow-hidden rounded-full bg-panel-2"
              >
                <div
                  className="h-full rounded-full bg-accent transition-[width]"
                  style={{ width: `${Math.round((task.data?.progress ?? 0) * 100)}%` }}
                />
              </div>
            </div>
          ) : null}
          {start.error ? <Alert>{errorMessage(start.error)}</Alert> : null}
          {state === "failed" || state === "cancelled" ? (
            <Alert>
              The scan{" "}
              {state === "failed" ? `failed: ${task.data?.error ?? "unknown error"}` : "was cancelled"}.
            </Alert>
          ) : null}
          {!report && !running && !dataset.read_only ? (
            <p className="text-sm text-muted">This version has not been scanned yet.</p>
          ) : null}
          {report ? (
            <div
              className={cn(
                "flex items-start gap-3 rounded-md border px-4 py-3 text-sm",
                report.has_pii ? "border-danger/40 bg-danger-soft" : "border-ok/40 bg-ok-soft",
              )}
              data-testid="pii-summary"
            >
              {report.has_pii ? (
                <ShieldAlert aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-danger" />
              ) : (
                <ShieldCheck aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-ok" />
              )}
              <div>
                <p className={cn("font-medium", report.has_pii ? "text-danger" : "text-ok")}>
                  {report.has_pii
                    ? `Personal data found in ${flagged.length} of ${views.length} columns`
                    : "No personal data found"}
                </p>
                <p className="mt-0.5 text-fg">
                  {formatCount(report.cells_scanned)} cells in {formatCount(report.rows_scanned)} rows scanned{" "}
                  <time dateTime={report.scanned_at} title={formatDate(report.scanned_at)}>
                    {formatRelative(report.scanned_at)}
                  </time>
                  .
                </p>
              </div>
            </div>
          ) : null}
        </div>
      </Card>

      {report ? (
        <Card>
          <CardHeader
            title="Columns"
            description="Flagged columns first. Consider dropping or masking them before sharing."
          />
          <div className="overflow-x-auto px-5 py-3">
            <table className="w-full min-w-[640px] text-sm">
              <caption className="sr-only">Personal data per column</caption>
              <thead>
                <tr className="border-b border-border text-left text-xs text-muted">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Column
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Found
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Cells
                  </th>
                  <th scope="col" className="py-2 pl-3 font-medium">
                    Masked examples
                  </th>
                </tr>
              </thead>
              <tbody>
                {views.map((v) => (
                  <tr
                    key={v.column}
                    className={cn(
                      "border-b border-border align-top last:border-b-0",
                      v.flagged && "bg-danger-soft/60",
                    )}
                    data-testid="pii-column"
                    data-flagged={v.flagged}
                  >
                    <th scope="row" className="py-2.5 pr-3 text-left font-mono text-sm font-medium">
                      {v.column}
                    </th>
                    <td className="px-3 py-2.5">
                      {v.flagged ? <Badge tone="danger">Flagged</Badge> : <Badge tone="ok">Clean</Badge>}
                    </td>
                    <td className="px-3 py-2.5">
                      {v.findings.length === 0 ? (
                        <span className="text-muted">–</span>
                      ) : (
                        <ul className="space-y-1">
                          {v.findings.map((f) => (
                            <li key={f.kind}>
                              {piiKindLabel(f.kind)}{" "}
                              <span className="text-muted tabular-nums">× {formatCount(f.count)}</span>
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td className="px-3 py-2.5 text-right tabular-nums">
                      {v.flagged ? (
                        <>
                          {formatCount(v.cells)}{" "}
                          <span className="text-muted">({formatPercent(v.share)})</span>
                        </>
                      ) : (
                        "0"
                      )}
                    </td>
                    <td className="py-2.5 pl-3">
                      <ul className="space-y-0.5 font-mono text-xs">
                        {v.findings.flatMap((f) =>
                          f.examples.map((ex) => (
                            <li key={`${f.kind}:${ex}`} className="text-muted">
                              {ex}
                            </li>
                          )),
                        )}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
    </div>
  );
}
