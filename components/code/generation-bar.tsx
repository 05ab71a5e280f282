"use client";

import { CheckCircle2, CircleAlert, CircleSlash, Loader2, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { type CodegenTask, formatTime, targetLabel } from "./format";
import type { GenerationPhase } from "./use-code-generation";

/** Below the header while a generation task runs (progress, Cancel), and once it is over (outcome). */
export function GenerationBar({
  phase,
  task,
  error,
  cancelling,
  target,
  onCancel,
  onDismiss,
  onRetry,
}: {
  phase: GenerationPhase;
  task: CodegenTask | undefined;
  error: string | null;
  cancelling: boolean;
  target: Parameters<typeof targetLabel>[0];
  onCancel: () => void;
  onDismiss: () => void;
  onRetry: () => void;
}) {
  if (phase === "idle" && !error) return null;
  const running = phase === "starting" || phase === "queued" || phase === "running";
  const progress = Math.round(Math.min(1, Math.max(0, task?.progress ?? 0)) * 100);
  const tone =
    phase === "succeeded"
      ? "bg-ok-soft text-ok border-ok/30"
      : phase === "failed" || error
        ? "bg-danger-soft text-danger border-danger/30"
        : "bg-panel text-fg border-border";

  return (
    <div
      className={cn("flex h-11 shrink-0 items-center gap-3 border-b px-4 text-sm", tone)}
      data-testid="generation-bar"
      data-phase={phase}
    >
      {running ? (
        <>
          <Loader2 aria-hidden className="h-4 w-4 shrink-0 animate-spin text-accent" />
          <span role="status" className="font-medium">
            {phase === "starting"
              ? `Starting ${targetLabel(target)} generation…`
              : phase === "queued"
                ? "Queued…"
                : `Generating ${targetLabel(target)} code…`}
          </span>
          <div
            role="progressbar"
            aria-label="Generation progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            className="h-1.5 w-56 overflow-hidden rounded-full bg-panel-2"
          >
            <div
              className="h-full rounded-full bg-accent transition-[width] duration-300"
              style={{ width: `${Math.max(progress, 4)}%` }}
            />
          </div>
          <span className="w-10 text-xs text-muted tabular-nums">{progress}%</span>
          <Button
            variant="secondary"
            size="sm"
            className="ml-auto"
            onClick={onCancel}
            disabled={cancelling || phase === "starting"}
          >
            <X aria-hidden className="h-4 w-4" />
            {cancelling ? "Cancelling…" : "Cancel"}
          </Button>
        </>
      ) : phase === "succeeded" ? (
        <>
          <CheckCircle2 aria-hidden className="h-4 w-4 shrink-0" />
          <span role="status" className="font-medium">
            Generated {task?.files?.length ?? 0} files
            {task?.generated_at ? ` at ${formatTime(task.generated_at)}` : ""}
          </span>
          <span className="text-xs text-fg/70">Showing the task&apos;s output.</span>
          <Button variant="ghost" size="sm" className="ml-auto" onClick={onDismiss}>
            Back to live preview
          </Button>
        </>
      ) : phase === "cancelled" ? (
        <>
          <CircleSlash aria-hidden className="h-4 w-4 shrink-0 text-muted" />
          <span role="status" className="font-medium">
            Generation cancelled
          </span>
          <Button variant="ghost" size="sm" className="ml-auto" onClick={onDismiss}>
            Dismiss
          </Button>
        </>
      ) : (
        <>
          <CircleAlert aria-hidden className="h-4 w-4 shrink-0" />
          <span role="alert" className="min-w-0 truncate font-medium">
            {error ?? "Code generation failed."}
          </span>
          <div className="ml-auto flex items-center gap-1">
            <Button variant="secondary" size="sm" onClick={onRetry}>
              Try again
            </Button>
            <Button variant="ghost" size="sm" onClick={onDismiss} aria-label="Dismiss">
              <X aria-hidden className="h-4 w-4" />
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
