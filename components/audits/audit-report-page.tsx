"use client";

import { useQueryClient } from "@tanstack/react-query";
import { FlaskConical } from "lucide-react";
import { ProblemAlert } from "@/components/deployments/problem-alert";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { auditKeys } from "@/lib/api/audits/keys";
import { useAuditReport } from "@/lib/api/audits/queries";
import { $api } from "@/lib/api/client";
import { AuditReportView } from "./audit-report-view";
import { DeleteAuditButton } from "./delete-audit-button";
import { RetrainButton } from "./retrain-button";
import { ShareAuditButton } from "./share-audit-button";

/** /audits/[id]: the owner's report, refreshed while anything trains, with its actions. */
export function AuditReportPage({ auditId }: { auditId: string }) {
  const queryClient = useQueryClient();
  const path = { audit_id: auditId };
  const report = useAuditReport(auditId, {
    refetchInterval: (q) => {
      const d = q.state.data;
      const busy =
        d?.audit.state === "running" ||
        d?.workloads.some((w) => w.candidates.some((c) => c.state === "training" || c.state === "trained"));
      return busy ? 4000 : false;
    },
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: auditKeys.reports });
  const cancel = $api.useMutation("post", "/api/v1/audits/{audit_id}/cancel", { onSuccess: refresh });
  const evaluate = $api.useMutation("post", "/api/v1/audits/{audit_id}/candidates/{candidate_id}/evaluate", {
    onSuccess: refresh,
  });
  if (report.isPending)
    return (
      <p className="py-16 text-center text-sm text-muted" role="status">
        Loading the report…
      </p>
    );
  if (report.isError) return <ProblemAlert error={report.error} />;
  const r = report.data;
  const trained = r.workloads.flatMap((w) => w.candidates.filter((c) => c.state === "trained"));
  return (
    <div className="space-y-4">
      {cancel.isError ? <ProblemAlert error={cancel.error} /> : null}
      {evaluate.isError ? <ProblemAlert error={evaluate.error} /> : null}
      {cancel.data ? (
        <p className="text-sm text-muted" role="status">
          Cancelled {cancel.data.cancelled_jobs.length} run(s), paused {cancel.data.paused_deployments.length}{" "}
          deployment(s).
        </p>
      ) : null}
      <AuditReportView
        report={r}
        owner
        actions={
          <>
            {trained.length > 0 ? (
              <Button
                size="sm"
                disabled={evaluate.isPending}
                onClick={() => {
                  for (const c of trained)
                    evaluate.mutate({ params: { path: { ...path, candidate_id: c.id } } });
                }}
              >
                <FlaskConical aria-hidden className="h-4 w-4" /> Evaluate {trained.length} trained
              </Button>
            ) : null}
            <ShareAuditButton auditId={auditId} />
            <ConfirmButton
              label="Cancel"
              confirmLabel="Cancel runs, pause deployments"
              pending={cancel.isPending}
              onConfirm={() => cancel.mutate({ params: { path } })}
            />
            <DeleteAuditButton auditId={auditId} name={r.audit.name} />
          </>
        }
        workloadActions={(w) => <RetrainButton auditId={auditId} workload={w} />}
      />
    </div>
  );
}
