"use client";

import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { formatDuration } from "@/lib/training-ui/durations";
import { isActive, stateLabel, stateTone } from "@/lib/training-ui/states";
import type { TrainingJob } from "./types";
import { useNow } from "./use-now";

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? "–"
    : d.toLocaleString("en-US", {
        month: "short",
        day: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
}

/** Every change of the job's state, oldest first, with how long each state lasted and why. */
export function StateTimeline({ job }: { job: TrainingJob }) {
  const now = useNow(isActive(job.state));
  const history = job.status_history;
  return (
    <Card>
      <CardHeader
        title="Timeline"
        description={`${history.length} change${history.length === 1 ? "" : "s"} of state`}
      />
      <ol className="px-5 py-4" aria-label="State changes">
        {history.map((h, i) => {
          const next = history[i + 1];
          const end = next ? Date.parse(next.at) : job.finished_at ? null : now;
          const lasted = end === null ? null : end - Date.parse(h.at);
          const lastItem = i === history.length - 1;
          return (
            <li key={`${h.status}-${h.at}`} className="relative flex gap-3 pb-4 last:pb-0">
              {!lastItem ? (
                <span aria-hidden className="absolute top-3 bottom-0 left-[5px] w-px bg-border" />
              ) : null}
              <span
                aria-hidden
                className={`relative mt-1.5 h-[11px] w-[11px] shrink-0 rounded-full border-2 border-panel ${
                  {
                    neutral: "bg-muted",
                    accent: "bg-accent",
                    ok: "bg-ok",
                    warn: "bg-warn",
                    danger: "bg-danger",
                  }[stateTone(h.status)]
                }`}
              />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={stateTone(h.status)}>{stateLabel(h.status)}</Badge>
                  <time dateTime={h.at} className="text-xs text-muted">
                    {when(h.at)}
                  </time>
                  {lasted !== null && (next || h.status === "queued" || h.status === "running") ? (
                    <span className="text-xs text-muted">· {formatDuration(lasted)}</span>
                  ) : null}
                </div>
                {h.reason ? <p className="mt-1 text-xs text-muted">{h.reason}</p> : null}
              </div>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
