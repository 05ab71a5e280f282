import { ProgressBar } from "@/components/ui/progress-bar";
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
    <ProgressBar
      percent={percent}
      label={label}
      ariaLabel="Upload progress"
      busy={state.phase === "processing"}
      done={state.phase === "done"}
      percentTestId="upload-percent"
    />
  );
}
