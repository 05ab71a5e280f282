import Link from "next/link";
import type { ModelVersion } from "./types";

/** Where a version came from: its training job or fine-tuning run (linked), or uploaded files. */
export function VersionSource({ version }: { version: ModelVersion }) {
  if (version.source === "bare" || !version.job_id) return <span className="text-muted">Uploaded files</span>;
  return (
    <Link
      href={`/training/${encodeURIComponent(version.job_id)}`}
      className="text-accent hover:underline"
      data-testid="version-source"
    >
      {version.source === "run" ? "Fine-tuning run" : "Training job"}{" "}
      <span className="font-mono text-xs">{version.job_id}</span>
    </Link>
  );
}
