"use client";

import { HardDrive } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { useStorageQuota } from "@/lib/api/datasets/queries";
import { formatBytes, formatPercent } from "@/lib/datasets-ui/format";
import { quotaUsage } from "@/lib/datasets-ui/upload-errors";

const BAR_TONES = { ok: "bg-accent", warn: "bg-warn", danger: "bg-danger" } as const;

const KIND_LABELS = {
  datasets: "Datasets",
  checkpoints: "Checkpoints",
  artifacts: "Model files",
  hub: "Hub",
  registry: "Registry",
} as const;

/** Everything the caller stores (datasets, checkpoints, model files, hub, registry) against the plan's quota. */
export function QuotaBar() {
  const { data } = useStorageQuota();
  const usage = data ? quotaUsage(data.used_bytes, data.limit_bytes) : null;
  return (
    <div className="flex min-w-64 flex-[1_1_18rem] items-center gap-3 rounded-lg border border-border bg-panel px-4 py-3">
      <div className="flex h-9 w-9 shrink-0 items-center justify-center rounded-md bg-panel-2 text-muted">
        <HardDrive aria-hidden className="h-4 w-4" />
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline justify-between gap-3 text-sm">
          <span className="font-medium">Storage</span>
          <span className="text-muted tabular-nums" data-testid="quota-text">
            {data ? `${formatBytes(data.used_bytes)} of ${formatBytes(data.limit_bytes)}` : "…"}
          </span>
        </div>
        <meter
          className="sr-only"
          aria-label="Storage used"
          min={0}
          max={data?.limit_bytes ?? 1}
          value={data?.used_bytes ?? 0}
        >
          {data && usage ? `${formatPercent(usage.share)} used` : "Loading"}
        </meter>
        <div aria-hidden className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-panel-2">
          <div
            className={cn("h-full rounded-full", usage ? BAR_TONES[usage.tone] : "bg-border")}
            style={{ width: `${usage ? Math.max(usage.share * 100, usage.share > 0 ? 1 : 0) : 0}%` }}
          />
        </div>
        {data ? (
          <p className="mt-1 text-xs text-muted" data-testid="quota-breakdown">
            {(Object.keys(KIND_LABELS) as (keyof typeof KIND_LABELS)[])
              .filter((k) => data.breakdown[k] > 0)
              .map((k) => `${KIND_LABELS[k]} ${formatBytes(data.breakdown[k])}`)
              .concat(`Files up to ${formatBytes(data.per_file_limit_bytes)} each`)
              .join(" · ")}
          </p>
        ) : null}
      </div>
    </div>
  );
}
