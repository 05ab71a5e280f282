"use client";

import { Activity, Code2, History, MessageSquare, Play, ScrollText, SearchX } from "lucide-react";
import Link from "next/link";
import { useId, useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { useDeployment, useDeploymentLogs } from "@/lib/api/deployments/queries";
import { useDeploymentStream } from "@/lib/api/deployments/use-deployment-stream";
import { LayerlineError } from "@/sdk/src/errors";
import { ChatPlayground } from "./chat-playground";
import { ConsoleHeader } from "./console-header";
import { type ConsoleTab, ConsoleTabs } from "./console-tabs";
import { LogsPanel } from "./logs-panel";
import { MetricsPanel } from "./metrics-panel";
import { ProblemAlert } from "./problem-alert";
import { RevisionsPanel } from "./revisions-panel";
import { SnippetsPanel } from "./snippets-panel";
import { TryItPanel } from "./try-it-panel";

type TabId = "try" | "chat" | "snippets" | "metrics" | "logs" | "revisions";

const TABS: ConsoleTab<TabId>[] = [
  { id: "try", label: "Try it", icon: Play },
  { id: "chat", label: "Chat", icon: MessageSquare },
  { id: "snippets", label: "Snippets", icon: Code2 },
  { id: "metrics", label: "Metrics", icon: Activity },
  { id: "logs", label: "Logs", icon: ScrollText },
  { id: "revisions", label: "Revisions", icon: History },
];

/**
 * /deployments/[id]: the deployment's console. Its event stream stays open on every tab, writing
 * requests, state changes and revisions into the cache the panels read.
 */
export function DeploymentConsole({ deploymentId }: { deploymentId: string }) {
  const deployment = useDeployment(deploymentId);
  const logs = useDeploymentLogs(deploymentId);
  const stream = useDeploymentStream(deploymentId, deployment.isSuccess && logs.isFetched);
  const [tab, setTab] = useState<TabId>("try");
  const [actionError, setActionError] = useState<unknown>(null);
  const panelId = useId();

  if (deployment.isPending)
    return (
      <p className="py-16 text-center text-sm text-muted" role="status">
        Loading the deployment…
      </p>
    );
  if (deployment.isError) {
    const missing = deployment.error instanceof LayerlineError && deployment.error.status === 404;
    return (
      <div className="max-w-3xl">
        <EmptyState
          icon={SearchX}
          title={missing ? "No such deployment" : "Could not load the deployment"}
          action={
            <Link href="/deployments" className={buttonClass("secondary")}>
              All deployments
            </Link>
          }
        >
          {missing
            ? "It may have been deleted, or it belongs to another account."
            : errorMessage(deployment.error)}
        </EmptyState>
      </div>
    );
  }
  const d = deployment.data;
  const languageModel = d.task === "language_model";
  const tabs = TABS.filter((t) => t.id !== "chat" || languageModel);
  const shown = tabs.some((t) => t.id === tab) ? tab : "try";
  return (
    <div className="max-w-7xl">
      <ConsoleHeader deployment={d} stream={stream} onError={setActionError} />
      {actionError ? (
        <div className="-mt-2 mb-4">
          <ProblemAlert error={actionError} />
        </div>
      ) : null}
      <ConsoleTabs tabs={tabs} selected={shown} onSelect={setTab} panelId={panelId} />
      <div id={panelId} role="tabpanel" aria-label={tabs.find((t) => t.id === shown)?.label}>
        {shown === "try" ? <TryItPanel deployment={d} /> : null}
        {shown === "chat" ? <ChatPlayground deploymentId={d.id} /> : null}
        {shown === "snippets" ? <SnippetsPanel deployment={d} languageModel={languageModel} /> : null}
        {shown === "metrics" ? <MetricsPanel deploymentId={d.id} /> : null}
        {shown === "logs" ? <LogsPanel deploymentId={d.id} /> : null}
        {shown === "revisions" ? <RevisionsPanel deployment={d} /> : null}
      </div>
    </div>
  );
}
