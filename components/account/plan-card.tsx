"use client";

import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { useEntitlements } from "@/lib/api/account/queries";

const LIMIT_LABELS: Record<string, string> = {
  storage_bytes: "Storage (all files)",
  upload_file_bytes: "Largest upload",
  hub_file_bytes: "Largest hub file",
  checkpoint_bytes: "Largest checkpoint",
  checkpoints_kept_per_job: "Checkpoints kept per job (besides the best)",
  projects: "Projects",
  deployments: "Deployments",
  concurrent_training_jobs: "Concurrent training jobs",
  api_keys: "Active API keys",
  requests_per_minute: "API requests per minute",
};

function formatLimit(key: string, value: number): string {
  if (key.endsWith("_bytes")) {
    const gb = value / 1024 ** 3;
    return gb >= 1 ? `${gb.toLocaleString()} GB` : `${(value / 1024 ** 2).toLocaleString()} MB`;
  }
  return value.toLocaleString();
}

const FEATURE_LABELS: Record<string, string> = {
  gpu_training: "GPU training",
  distributed_training: "Distributed training",
  private_hub_models: "Private hub models",
  openai_compatible_endpoints: "OpenAI-compatible endpoints",
  audit_sharing: "Audit sharing",
};

function humanize(key: string): string {
  const s = key.replaceAll("_", " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function PlanCard() {
  const { data, isLoading } = useEntitlements();
  return (
    <Card>
      <CardHeader
        title="Plan"
        description="Features and limits of your plan."
        actions={data ? <Badge tone="accent">{data.plan.name}</Badge> : null}
      />
      <div className="grid gap-6 px-5 py-4 md:grid-cols-2">
        <div>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">Limits</h3>
          {isLoading || !data ? (
            <p className="text-sm text-muted">Loading…</p>
          ) : (
            <dl className="space-y-1.5 text-sm">
              {Object.entries(data.limits).map(([k, v]) => (
                <div key={k} className="flex justify-between gap-4">
                  <dt className="text-muted">{LIMIT_LABELS[k] ?? humanize(k)}</dt>
                  <dd className="whitespace-nowrap font-medium tabular-nums">{formatLimit(k, v)}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
        <div>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">Features</h3>
          {data ? (
            <ul className="space-y-1.5 text-sm">
              {Object.entries(data.features).map(([k, on]) => (
                <li key={k} className="flex justify-between gap-4">
                  <span className="text-muted">{FEATURE_LABELS[k] ?? humanize(k)}</span>
                  <Badge tone={on ? "ok" : "neutral"}>{on ? "Included" : "Not included"}</Badge>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>
    </Card>
  );
}
