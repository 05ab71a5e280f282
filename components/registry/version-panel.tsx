"use client";

import { Sparkles } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { PublishToHubButton } from "@/components/hub/publish-to-hub-button";
import { useNow } from "@/components/training/use-now";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { formatAgo } from "@/lib/training-ui/durations";
import { AliasesTab } from "./aliases-tab";
import { ArtifactsTab } from "./artifacts-tab";
import { DeployVersionButton } from "./deploy-version-button";
import { EvaluationsTab } from "./evaluations-tab";
import { FinalizeButton } from "./finalize-button";
import { carriesWeights } from "./format";
import { LineageTab } from "./lineage-tab";
import { OverviewTab } from "./overview-tab";
import type { ModelVersion, RegisteredModel } from "./types";
import { VersionStateBadge } from "./version-state-badge";
import { type VersionTab, VersionTabs } from "./version-tabs";

/** The selected version: its actions (Finalize or Deploy) and its tabs. */
export function VersionPanel({ model, version }: { model: RegisteredModel; version: ModelVersion }) {
  const [tab, setTab] = useState<VersionTab>("overview");
  const [actionError, setActionError] = useState<string | null>(null);
  const now = useNow(false);
  return (
    <section
      aria-labelledby="version-heading"
      className="rounded-lg border border-border bg-panel"
      data-testid="version-panel"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 px-5 pt-4 pb-3">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="version-heading" className="text-lg font-semibold">
            {model.name} <span className="tabular-nums">v{version.version}</span>
          </h2>
          <VersionStateBadge state={version.state} />
          <span className="text-xs text-muted">
            {version.finalized_at
              ? `Finalized ${formatAgo(version.finalized_at, now)}`
              : `Pushed ${formatAgo(version.created_at, now)}`}
          </span>
        </div>
        <div className="flex items-center gap-2">
          {version.state === "pending" ? (
            <FinalizeButton versionId={version.id} onError={setActionError} />
          ) : (
            <>
              {carriesWeights(version) ? (
                <Link
                  href={`/training/fine-tune?base=${encodeURIComponent(version.id)}`}
                  className={buttonClass("secondary", "sm")}
                  title="Start a fine-tuning run from this version's weights"
                >
                  <Sparkles aria-hidden className="h-4 w-4" /> Fine-tune
                </Link>
              ) : null}
              <PublishToHubButton modelVersionId={version.id} name={model.name} />
              <DeployVersionButton
                versionId={version.id}
                modelId={model.id}
                modelName={model.name}
                version={version.version}
                aliases={version.aliases}
              />
            </>
          )}
        </div>
      </div>
      {actionError ? (
        <div className="px-5 pb-3">
          <Alert>{actionError}</Alert>
        </div>
      ) : null}
      {version.state === "pending" && !actionError ? (
        <div className="px-5 pb-3">
          <Alert tone="warn">
            Pending: finalize the version once its artifacts are uploaded. It can then be deployed and carry
            aliases, and it no longer changes.
          </Alert>
        </div>
      ) : null}
      <VersionTabs active={tab} onChange={setTab} />
      <div
        role="tabpanel"
        id={`version-panel-${tab}`}
        aria-labelledby={`version-tab-${tab}`}
        className="px-5 py-5"
      >
        {tab === "overview" ? <OverviewTab version={version} /> : null}
        {tab === "artifacts" ? <ArtifactsTab versionId={version.id} /> : null}
        {tab === "lineage" ? <LineageTab versionId={version.id} /> : null}
        {tab === "evaluations" ? <EvaluationsTab version={version} /> : null}
        {tab === "aliases" ? <AliasesTab model={model} version={version} /> : null}
      </div>
    </section>
  );
}
