"use client";

import { Download } from "lucide-react";
import { downloadHref } from "@/components/training/download-href";
import { errorMessage } from "@/components/training/error-message";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { useVersionArtifacts } from "@/lib/api/registry/queries";
import { formatBytes } from "./format";

/** The version's files with size and SHA-256 (copyable); complete ones download with the session cookie. */
export function ArtifactsTab({ versionId }: { versionId: string }) {
  const list = useVersionArtifacts(versionId);
  if (list.error) return <Alert>{errorMessage(list.error)}</Alert>;
  if (!list.data) return <p className="text-sm text-muted">Loading…</p>;
  if (list.data.length === 0) return <p className="text-sm text-muted">No artifact uploaded yet.</p>;
  const total = list.data.reduce((n, a) => n + a.size_bytes, 0);
  return (
    <div className="space-y-2">
      <p className="text-sm text-muted">
        {list.data.length} file{list.data.length === 1 ? "" : "s"}, {formatBytes(total)}. Check a download
        with <code className="font-mono text-xs">sha256sum</code>.
      </p>
      <div className="overflow-x-auto rounded-md border border-border">
        <table className="w-full text-sm" aria-label="Artifacts">
          <thead className="border-b border-border bg-panel-2/50 text-left text-xs text-muted">
            <tr>
              <th className="px-3 py-2 font-medium">Name</th>
              <th className="px-3 py-2 text-right font-medium">Size</th>
              <th className="px-3 py-2 font-medium">SHA-256</th>
              <th className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {list.data.map((a) => (
              <tr key={a.id} data-testid="artifact-row">
                <td className="px-3 py-2.5">
                  <span className="font-mono text-xs font-medium">{a.name}</span>
                  {a.state !== "complete" ? (
                    <span className="ml-2">
                      <Badge tone="warn">Uploading</Badge>
                    </span>
                  ) : null}
                </td>
                <td
                  className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums"
                  title={`${a.size_bytes} bytes`}
                >
                  {formatBytes(a.size_bytes)}
                </td>
                <td className="px-3 py-2.5">
                  <code
                    className="block max-w-[18rem] truncate font-mono text-xs text-muted xl:max-w-none"
                    title={a.sha256}
                    data-testid="artifact-sha256"
                  >
                    {a.sha256}
                  </code>
                </td>
                <td className="px-3 py-2.5">
                  <span className="flex justify-end gap-2">
                    <CopyButton value={a.sha256} label="Copy SHA-256" />
                    {a.state === "complete" ? (
                      <a
                        className={buttonClass("secondary", "sm")}
                        href={downloadHref(
                          "/api/v1/model-versions/{version_id}/artifacts/{artifact_id}/download",
                          {
                            version_id: versionId,
                            artifact_id: a.id,
                          },
                        )}
                        download={a.name}
                        aria-label={`Download ${a.name}`}
                      >
                        <Download aria-hidden className="h-4 w-4" /> Download
                      </a>
                    ) : null}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
