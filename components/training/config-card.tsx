import { Card, CardHeader } from "@/components/ui/card";
import { fieldLabel } from "@/lib/editor/param-form";
import { formatDuration } from "@/lib/training-ui/durations";
import { RUNTIME_LABELS } from "./runtime-picker";
import type { TrainingJob } from "./types";

/** What the job was started with: the training configuration and its setup. */
export function ConfigCard({ job }: { job: TrainingJob }) {
  const rows: [string, string][] = [
    ...Object.entries(job.config).map(([k, v]): [string, string] => [fieldLabel(k), String(v)]),
    [
      "Runtime",
      job.resolved_runtime && job.runtime === "auto"
        ? `Auto → ${RUNTIME_LABELS[job.resolved_runtime]}`
        : RUNTIME_LABELS[job.runtime],
    ],
    ["Strategy", job.strategy],
    ["Architecture", job.version_id ? `Version ${job.version_id}` : "Project state when started"],
    ["Dataset version", job.dataset_version_id],
    ["Compute", `${formatDuration(job.compute_seconds * 1000)} · ${job.credits_charged.toFixed(2)} credits`],
    ...(job.restart_count > 0 ? [["Restarts", String(job.restart_count)] as [string, string]] : []),
  ];
  return (
    <Card>
      <CardHeader title="Configuration" />
      <dl
        className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1.5 px-5 py-4 text-sm"
        data-testid="job-config"
      >
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-muted">{k}</dt>
            <dd className="min-w-0 font-mono text-xs leading-5 break-words">{v}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
