import { Boxes, Download } from "lucide-react";
import { Card, CardHeader } from "@/components/ui/card";
import { formatBytes } from "@/lib/datasets-ui/format";
import { downloadHref } from "./download-href";
import type { TrainingJob } from "./types";

/** The trained model's files (ONNX or TF.js, and the manifest), once the job succeeded. */
export function ArtifactCard({ job }: { job: TrainingJob }) {
  const artifact = job.artifact;
  if (!artifact) return null;
  return (
    <Card>
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <Boxes aria-hidden className="h-4 w-4 text-muted" /> Model
          </span>
        }
        description={
          artifact.format === "onnx" ? "ONNX model and its manifest" : "TensorFlow.js model and its manifest"
        }
      />
      <ul className="divide-y divide-border text-sm" aria-label="Model files">
        {artifact.files.map((f) => (
          <li key={f.name} className="flex items-center justify-between gap-3 px-5 py-2">
            <span className="min-w-0 truncate font-mono text-xs" title={f.sha256}>
              {f.name}
            </span>
            <span className="flex items-center gap-3">
              <span className="text-xs text-muted tabular-nums">{formatBytes(f.size_bytes)}</span>
              <a
                href={downloadHref("/api/v1/training/jobs/{job_id}/artifact/{file_name}", {
                  job_id: job.id,
                  file_name: f.name,
                })}
                download
                aria-label={`Download ${f.name}`}
                className="inline-flex h-7 items-center gap-1 rounded-md px-2 text-xs font-medium text-accent hover:bg-accent-soft"
              >
                <Download aria-hidden className="h-3.5 w-3.5" /> Download
              </a>
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
