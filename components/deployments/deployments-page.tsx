"use client";

import { keepPreviousData } from "@tanstack/react-query";
import { Rocket } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import { useNow } from "@/components/training/use-now";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { useDeployments } from "@/lib/api/deployments/queries";
import { DeploymentsTable } from "./deployments-table";

const PAGE_SIZE = 25;

/** /deployments: every deployment of the account, newest first. */
export function DeploymentsPage() {
  const [page, setPage] = useState(1);
  const now = useNow(false);
  const list = useDeployments({ page, limit: PAGE_SIZE }, { placeholderData: keepPreviousData });
  const data = list.data;
  return (
    <div className="max-w-6xl">
      <PageHeader title="Deployments" description="Trained models served behind their own key" />
      {list.isPending ? (
        <p className="py-16 text-center text-sm text-muted" role="status">
          Loading deployments…
        </p>
      ) : list.isError ? (
        <Alert>{errorMessage(list.error)}</Alert>
      ) : data && data.total === 0 ? (
        <EmptyState
          icon={Rocket}
          title="No deployments yet"
          action={
            <Link href="/training" className={buttonClass("primary")}>
              Go to training jobs
            </Link>
          }
        >
          Open a succeeded training job or fine-tuning run and choose Deploy: you get a prediction endpoint,
          its key, a console to try it, and live metrics.
        </EmptyState>
      ) : data ? (
        <div className="space-y-3">
          <DeploymentsTable deployments={data.items} now={now} />
          <Pager data={data} noun="deployment" onPage={setPage} />
        </div>
      ) : null}
    </div>
  );
}
