"use client";

import { Eye, UploadCloud } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { useDatasetVersions } from "@/lib/api/datasets/queries";
import { formatBytes, formatCount, formatDate, formatRelative, shortHash } from "@/lib/datasets-ui/format";
import { errorMessage } from "./error-message";
import type { DatasetTabProps } from "./types";

const LIMIT = 20;

/** Every version, newest first: rows, size, content hash, who made it and when. */
export function VersionsTab({
  dataset,
  version,
  onView,
  onUpload,
}: DatasetTabProps & { onView: (versionId: string) => void; onUpload: () => void }) {
  const [page, setPage] = useState(1);
  const versions = useDatasetVersions(dataset.id, { page, limit: LIMIT });
  const data = versions.data;
  return (
    <Card>
      <CardHeader
        title="Versions"
        description="Each upload of new content becomes a version. Roles carry over; splits and scans belong to a version."
        actions={
          dataset.read_only ? null : (
            <Button variant="secondary" size="sm" onClick={onUpload}>
              <UploadCloud aria-hidden className="h-4 w-4" /> Upload new version
            </Button>
          )
        }
      />
      <div className="px-5 py-4">
        {versions.error ? <Alert>{errorMessage(versions.error)}</Alert> : null}
        <div className="overflow-x-auto">
          <table className="w-full min-w-[860px] text-sm">
            <caption className="sr-only">Versions of {dataset.name}</caption>
            <thead>
              <tr className="border-b border-border text-left text-xs text-muted">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Version
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  File
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Rows
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Size
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  SHA-256
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Checks
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Created
                </th>
                <th scope="col" className="py-2 pl-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data?.items.map((v) => (
                <tr key={v.id} className="border-b border-border last:border-b-0" data-testid="version-row">
                  <th scope="row" className="py-2.5 pr-3 text-left font-medium whitespace-nowrap">
                    v{v.number} {v.is_current ? <Badge tone="ok">Current</Badge> : null}{" "}
                    {v.id === version.id && !v.is_current ? <Badge tone="warn">Viewing</Badge> : null}
                  </th>
                  <td className="max-w-48 truncate px-3 py-2.5 font-mono text-xs" title={v.file_name}>
                    {v.file_name}
                  </td>
                  <td className="px-3 py-2.5 text-right tabular-nums">{formatCount(v.row_count)}</td>
                  <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">
                    {formatBytes(v.size_bytes)}
                  </td>
                  <td className="px-3 py-2.5">
                    <code className="font-mono text-xs text-muted" title={v.content_hash}>
                      {shortHash(v.content_hash)}…
                    </code>
                  </td>
                  <td className="px-3 py-2.5">
                    <span className="flex flex-wrap gap-1">
                      {v.pii_report === null ? (
                        <Badge>Not scanned</Badge>
                      ) : v.pii_report.has_pii ? (
                        <Badge tone="danger">PII found</Badge>
                      ) : (
                        <Badge tone="ok">No PII</Badge>
                      )}
                      {v.splits ? (
                        <Badge tone="accent">
                          Split {v.splits.train}/{v.splits.validation}/{v.splits.test}
                        </Badge>
                      ) : null}
                    </span>
                  </td>
                  <td className="px-3 py-2.5 whitespace-nowrap">
                    <time dateTime={v.created_at} title={formatDate(v.created_at)}>
                      {dataset.builtin ? "Built-in" : formatRelative(v.created_at)}
                    </time>
                    {v.created_by ? <span className="text-muted"> by {v.created_by.username}</span> : null}
                  </td>
                  <td className="py-2 pl-3 text-right whitespace-nowrap">
                    <span className="inline-flex gap-1">
                      <CopyButton value={v.content_hash} label="Copy hash" />
                      {v.id === version.id ? null : (
                        <Button variant="ghost" size="sm" onClick={() => onView(v.id)}>
                          <Eye aria-hidden className="h-4 w-4" /> View
                          <span className="sr-only"> version {v.number}</span>
                        </Button>
                      )}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {data && data.pages > 1 ? (
          <div className="mt-3 flex items-center justify-end gap-2 text-sm">
            <span className="text-muted">
              Page {data.page} of {data.pages}
            </span>
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Newer
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={page >= data.pages}
              onClick={() => setPage((p) => p + 1)}
            >
              Older
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
