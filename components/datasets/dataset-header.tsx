"use client";

import { Globe2, Lock, Settings, Sparkle, UploadCloud } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClass } from "@/components/ui/button";
import { HeaderStat, PageHeader } from "@/components/ui/page-header";
import { formatBytes, formatCount, formatLabel, formatRelative, taskLabel } from "@/lib/datasets-ui/format";
import { TrainOnDataButton } from "./train-on-data-button";
import type { Dataset, DatasetVersion } from "./types";

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <HeaderStat label={label} testId={testId} className="min-w-20">
      {value}
    </HeaderStat>
  );
}

/**
 * The column the studio guessed (or the owner chose) as what a model predicts, with one click to the
 * Roles tab to change it.
 */
function TargetStat({ dataset }: { dataset: Dataset }) {
  const target = Object.entries(dataset.roles ?? {}).find(([, role]) => role === "target")?.[0] ?? null;
  return (
    <HeaderStat label="Target" className="min-w-20">
      <span className="inline-flex items-baseline gap-2">
        <span data-testid="guessed-target" className={target ? "font-mono" : "text-muted"}>
          {target ?? "None"}
        </span>
        {dataset.read_only ? null : (
          <Link href="?tab=roles" scroll={false} className="text-xs font-normal text-accent hover:underline">
            {target ? "Change" : "Choose"}
            <span className="sr-only"> the target column</span>
          </Link>
        )}
      </span>
    </HeaderStat>
  );
}

/** Fine-tuning starts from pretrained weights: the wizard opens with this dataset chosen. */
function FineTuneLink({ datasetId }: { datasetId: string }) {
  return (
    <Link
      href={`/training/fine-tune?dataset=${encodeURIComponent(datasetId)}`}
      className={buttonClass("secondary")}
      title="Start from a pretrained base model that fits this data"
    >
      <Sparkle aria-hidden className="h-4 w-4" /> Fine-tune a base model
    </Link>
  );
}

/** Name, badges, description and the key numbers of a dataset and the version in view. */
export function DatasetHeader({
  dataset,
  version,
  onUploadVersion,
  onOpenSettings,
}: {
  dataset: Dataset;
  version: DatasetVersion | undefined;
  onUploadVersion: () => void;
  onOpenSettings: () => void;
}) {
  return (
    <PageHeader
      title={dataset.name}
      crumbs={[{ href: "/datasets", label: "Datasets" }]}
      badges={
        <>
          {dataset.builtin ? <Badge tone="accent">Built-in</Badge> : null}
          {!dataset.builtin && dataset.read_only ? <Badge>Public · {dataset.owner?.username}</Badge> : null}
          {!dataset.read_only ? (
            <Badge tone={dataset.visibility === "public" ? "ok" : "neutral"}>
              <span className="inline-flex items-center gap-1" data-testid="visibility-badge">
                {dataset.visibility === "public" ? (
                  <Globe2 aria-hidden className="h-3 w-3" />
                ) : (
                  <Lock aria-hidden className="h-3 w-3" />
                )}
                {dataset.visibility === "public" ? "Public" : "Private"}
              </span>
            </Badge>
          ) : null}
          {dataset.task ? <Badge tone="ok">{taskLabel(dataset.task)}</Badge> : null}
        </>
      }
      description={
        dataset.description || dataset.source || dataset.license ? (
          <>
            {dataset.description ? <p>{dataset.description}</p> : null}
            {dataset.source || dataset.license ? (
              <p className="mt-1 text-xs">
                {dataset.source ? <>Source: {dataset.source}. </> : null}
                {dataset.license ? <>Licence: {dataset.license}.</> : null}
              </p>
            ) : null}
          </>
        ) : null
      }
      actions={
        dataset.read_only ? (
          <>
            <TrainOnDataButton datasetId={dataset.id} format={version?.schema.format ?? dataset.format} />
            <FineTuneLink datasetId={dataset.id} />
          </>
        ) : (
          <>
            <TrainOnDataButton datasetId={dataset.id} format={version?.schema.format ?? dataset.format} />
            <FineTuneLink datasetId={dataset.id} />
            <Button variant="secondary" onClick={onUploadVersion}>
              <UploadCloud aria-hidden className="h-4 w-4" /> New version
            </Button>
            <Button variant="ghost" onClick={onOpenSettings} aria-label="Dataset settings" title="Settings">
              <Settings aria-hidden className="h-4 w-4" />
            </Button>
          </>
        )
      }
    >
      <dl className="flex flex-wrap gap-x-8 gap-y-3 rounded-lg border border-border bg-panel px-5 py-3">
        <Stat label="Format" value={formatLabel(version?.schema.format ?? dataset.format)} />
        <Stat
          label="Rows"
          value={formatCount(version?.row_count ?? dataset.row_count)}
          testId="header-rows"
        />
        <Stat label="Columns" value={formatCount((version?.schema.columns ?? dataset.columns).length)} />
        <TargetStat dataset={dataset} />
        <Stat label="Size" value={formatBytes(version?.size_bytes ?? dataset.size_bytes)} />
        <Stat
          label="Version"
          value={version ? `v${version.number} of ${dataset.version_count}` : `${dataset.version_count}`}
          testId="header-version"
        />
        <Stat
          label="Updated"
          value={dataset.builtin ? "Built-in" : formatRelative(version?.created_at ?? dataset.updated_at)}
        />
      </dl>
    </PageHeader>
  );
}
