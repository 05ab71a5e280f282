"use client";

import { Download, Star } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { useCheckpoints } from "@/lib/api/training/queries";
import { formatBytes, formatStat } from "@/lib/datasets-ui/format";
import { downloadHref } from "./download-href";

/** The job's checkpoints (one per epoch, newest first), the best flagged, each downloadable. */
export function CheckpointsCard({ jobId }: { jobId: string }) {
  const list = useCheckpoints(jobId);
  const items = list.data?.items ?? [];
  const metricNames = [...new Set(items.flatMap((c) => Object.keys(c.metrics)))].sort().slice(0, 4);
  return (
    <Card>
      <CardHeader
        title="Checkpoints"
        description="Saved after each epoch; a restart resumes from the last one."
      />
      {list.isPending ? (
        <p className="px-5 py-4 text-sm text-muted">Loading…</p>
      ) : items.length === 0 ? (
        <p className="px-5 py-4 text-sm text-muted">No checkpoint yet.</p>
      ) : (
        <div className="max-h-80 overflow-auto">
          <table className="w-full text-sm whitespace-nowrap">
            <caption className="sr-only">Checkpoints</caption>
            <thead className="sticky top-0 bg-panel">
              <tr className="border-b border-border text-left text-xs text-muted">
                <th scope="col" className="py-2 pr-3 pl-5 font-medium">
                  Epoch
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Step
                </th>
                {metricNames.map((m) => (
                  <th key={m} scope="col" className="px-3 py-2 text-right font-medium">
                    {m}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Size
                </th>
                <th scope="col" className="py-2 pr-4 pl-2 text-right font-medium">
                  <span className="sr-only">Download</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((c) => (
                <tr
                  key={c.id}
                  className="border-t border-border first:border-t-0 hover:bg-panel-2/50"
                  data-testid="checkpoint-row"
                >
                  <td className="py-1.5 pr-3 pl-5">
                    <span className="flex items-center gap-2 tabular-nums">
                      {c.epoch}
                      {c.is_best ? (
                        <Badge tone="ok">
                          <span className="inline-flex items-center gap-1">
                            <Star aria-hidden className="h-3 w-3" /> Best
                          </span>
                        </Badge>
                      ) : null}
                    </span>
                  </td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{c.step}</td>
                  {metricNames.map((m) => (
                    <td key={m} className="px-3 py-1.5 text-right font-mono text-xs tabular-nums">
                      {c.metrics[m] === undefined ? "–" : formatStat(c.metrics[m])}
                    </td>
                  ))}
                  <td className="px-3 py-2 text-right text-muted tabular-nums">
                    {formatBytes(c.size_bytes)}
                  </td>
                  <td className="py-1.5 pr-4 pl-2 text-right">
                    <a
                      href={downloadHref(
                        "/api/v1/training/jobs/{job_id}/checkpoints/{checkpoint_id}/download",
                        {
                          job_id: jobId,
                          checkpoint_id: c.id,
                        },
                      )}
                      download
                      className="inline-flex h-7 w-7 items-center justify-center rounded-md text-accent hover:bg-accent-soft"
                      aria-label={`Download the checkpoint of epoch ${c.epoch}`}
                      title="Download"
                    >
                      <Download aria-hidden className="h-4 w-4" />
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
