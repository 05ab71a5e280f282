import { CheckCircle2, Loader2 } from "lucide-react";
import { formatBytes } from "@/lib/datasets-ui/format";
import type { UploadState } from "./use-xhr-upload";

/** The upload's progress bar: bytes sent, then the server's processing, then done. */
export function UploadProgress({ state }: { state: UploadState }) {
  if (state.phase !== "uploading" && state.phase !== "processing" && state.phase !== "done") return null;
  const total = state.total;
  const loaded = state.phase === "uploading" ? state.loaded : total;
  const percent = total > 0 ? Math.floor((loaded / total) * 100) : 100;
  const label =
    state.phase === "uploading"
      ? `${formatBytes(loaded)} of ${formatBytes(total)}`
      : state.phase === "processing"
        ? "Uploaded. Reading and profiling the file…"
        : "Uploaded and profiled";
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="flex items-center gap-2 text-muted">
          {state.phase === "processing" ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
          {state.phase === "done" ? <CheckCircle2 aria-hidden className="h-4 w-4 text-ok" /> : null}
          {label}
        </span>
        <span className="font-medium tabular-nums" data-testid="upload-percent">
          {percent}%
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% (${label})`}
        className="h-2 overflow-hidden rounded-full bg-panel-2"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-150 ${state.phase === "done" ? "bg-ok" : "bg-accent"}`}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
