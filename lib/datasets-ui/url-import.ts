import { baseName, formatBytes } from "./format";

/** Helpers of the "From URL" import: a default name from the URL and the task's progress in words. */

/** "https://host/data/iris%20v2.csv?x=1" → "iris v2"; the host when the path names no file. */
export function nameFromUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return "";
  }
  const last = url.pathname.split("/").filter(Boolean).pop() ?? "";
  let segment = last;
  try {
    segment = decodeURIComponent(last);
  } catch {
    // Keep it encoded.
  }
  const name = baseName(segment).trim() || url.hostname;
  return name.slice(0, 120);
}

export interface TaskLike {
  state: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  progress: number;
  message: string | null;
}

/** What the progress bar says about a URL fetch task. */
export function describeFetchProgress(task: TaskLike | undefined): string {
  if (!task || task.state === "queued") return "Waiting to start…";
  if (task.state === "succeeded") return "Downloaded and profiled";
  if (task.state === "failed") return "The import failed";
  if (task.state === "cancelled") return "Cancelled";
  const downloaded = /^Downloaded (\d+) bytes$/.exec(task.message ?? "");
  if (downloaded) return `Downloading… ${formatBytes(Number(downloaded[1]))}`;
  if (task.message === "Profiling") return "Downloaded. Reading and profiling the file…";
  return "Downloading…";
}

/** True once the task will not change any more. */
export function isFinished(task: TaskLike | undefined): boolean {
  return (
    task !== undefined &&
    (task.state === "succeeded" || task.state === "failed" || task.state === "cancelled")
  );
}
