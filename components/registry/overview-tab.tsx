"use client";

import type { ReactNode } from "react";
import { SamplePredictions } from "@/components/hub/sample-predictions";
import { useTaskContract } from "@/lib/api/registry/queries";
import { useVersionSamples } from "@/lib/api/registry/samples";
import { formatMetricValue, metricLabel } from "./format";
import type { ModelVersion } from "./types";
import { VersionSource } from "./version-source";

/** The part of manifest.json the overview reads (written by training's artifact export). */
interface ManifestSummary {
  format?: string;
  framework?: string;
  task?: string | null;
  input_features?: { name?: string; kind?: string }[];
  input?: { shape?: number[]; dtype?: string; features?: string[] };
  output?: { kind?: string; labels?: string[]; target?: string | null; shape?: number[] };
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-3 py-1.5 text-sm">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function TaskContract({ contract }: { contract: NonNullable<ModelVersion["task_contract"]> }) {
  const found = useTaskContract(contract.key, contract.version);
  return (
    <>
      <span className="font-mono text-xs">
        {contract.key} v{contract.version}
      </span>
      {found.data ? <p className="mt-0.5 text-xs text-muted">{found.data.description}</p> : null}
    </>
  );
}

function outputText(o: NonNullable<ManifestSummary["output"]>): string {
  if (o.kind === "labels" && o.labels) return `Class label, one of ${o.labels.join(", ")}`;
  if (o.kind === "value") return `A value${o.target ? ` (${o.target})` : ""}`;
  return o.kind ?? "–";
}

/** Metrics, task contract, and what the model takes and gives (from its manifest). */
function VersionSamples({ versionId }: { versionId: string }) {
  const samples = useVersionSamples(versionId);
  return samples.data && samples.data.length > 0 ? (
    <div className="mt-5">
      <SamplePredictions samples={samples.data} />
    </div>
  ) : null;
}

export function OverviewTab({ version }: { version: ModelVersion }) {
  const manifest = (version.artifact_manifest ?? null) as ManifestSummary | null;
  const metrics = Object.entries(version.metrics).sort(([a], [b]) => a.localeCompare(b));
  const features = manifest?.input_features?.map((f) => f.name).filter(Boolean) ?? [];
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div>
        <h3 className="mb-2 text-sm font-semibold">Metrics</h3>
        {metrics.length === 0 ? (
          <p className="text-sm text-muted">No metrics recorded.</p>
        ) : (
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3" data-testid="version-metrics">
            {metrics.map(([k, v]) => (
              <div key={k} className="rounded-md border border-border bg-panel-2/40 px-3 py-2">
                <dt className="truncate text-xs text-muted" title={k}>
                  {metricLabel(k)}
                </dt>
                <dd className="mt-0.5 font-mono text-lg font-semibold tabular-nums">
                  {formatMetricValue(k, v)}
                </dd>
              </div>
            ))}
          </dl>
        )}
        <VersionSamples versionId={version.id} />
        {version.description ? (
          <>
            <h3 className="mt-5 mb-1 text-sm font-semibold">Description</h3>
            <p className="text-sm whitespace-pre-line text-muted">{version.description}</p>
          </>
        ) : null}
      </div>
      <div>
        <h3 className="mb-2 text-sm font-semibold">Model</h3>
        <dl className="divide-y divide-border">
          <Row label="Source">
            <VersionSource version={version} />
          </Row>
          <Row label="Task contract">
            {version.task_contract ? (
              <TaskContract contract={version.task_contract} />
            ) : (
              <span className="text-muted">None declared</span>
            )}
          </Row>
          <Row label="Format">
            {version.artifact_format ?? manifest?.format ?? "–"}
            {manifest?.framework ? (
              <span className="text-muted"> · trained with {manifest.framework}</span>
            ) : null}
          </Row>
          {manifest ? (
            <>
              <Row label="Input">
                {features.length > 0 ? (
                  <span>
                    {features.length} feature{features.length === 1 ? "" : "s"}:{" "}
                    <span className="font-mono text-xs">{features.join(", ")}</span>
                  </span>
                ) : null}
                {manifest.input?.shape ? (
                  <span className="block text-xs text-muted">
                    Encoded as {manifest.input.dtype ?? "tensor"} [{manifest.input.shape.join(" × ")}]
                  </span>
                ) : null}
              </Row>
              <Row label="Output">{manifest.output ? outputText(manifest.output) : "–"}</Row>
            </>
          ) : (
            <Row label="Manifest">
              <span className="text-muted">No manifest.json</span>
            </Row>
          )}
        </dl>
      </div>
    </div>
  );
}
