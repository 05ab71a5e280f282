"use client";

import { Download, Link2 } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClass } from "@/components/ui/field";
import { api, type Schemas } from "@/lib/api/client";
import { formatBytes, formatLabel } from "@/lib/datasets-ui/format";
import { shStr } from "@/lib/ml/codegen/literals";
import { LayerlineError } from "@/sdk/src/errors";
import type { DatasetTabProps } from "./types";

type Meta = Schemas["DatasetMeta"];

async function fetchMeta(datasetId: string): Promise<Meta> {
  const { data } = await api.GET("/api/v1/datasets/{dataset_id}/meta", {
    params: { path: { dataset_id: datasetId } },
  });
  if (!data) throw new Error("No metadata returned.");
  return data;
}

function startDownload(url: string) {
  const a = document.createElement("a");
  a.href = url;
  a.download = "";
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * Download through /meta's signed link: it needs no credential, works once and for five minutes,
 * so it can also be handed to a script (curl, a notebook).
 */
export function DownloadTab({ dataset, version }: DatasetTabProps) {
  const [busy, setBusy] = useState<"download" | "link" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<Meta | null>(null);
  const [downloaded, setDownloaded] = useState<string | null>(null);
  const current = version.is_current;

  const run = async (kind: "download" | "link") => {
    setBusy(kind);
    setError(null);
    try {
      const meta = await fetchMeta(dataset.id);
      if (kind === "download") {
        startDownload(meta.download_url);
        setDownloaded(meta.file_name);
        setLink(null);
      } else {
        setLink(meta);
        setDownloaded(null);
      }
    } catch (err) {
      setError(err instanceof LayerlineError || err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <Card>
        <CardHeader title="Download the file" description="The file exactly as it was uploaded." />
        <div className="space-y-4 px-5 py-4">
          <dl className="grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
            <dt className="text-muted">File</dt>
            <dd className="truncate font-mono text-xs leading-5" title={version.file_name}>
              {version.file_name}
            </dd>
            <dt className="text-muted">Format</dt>
            <dd>{formatLabel(version.schema.format)}</dd>
            <dt className="text-muted">Size</dt>
            <dd className="tabular-nums">{formatBytes(version.size_bytes)}</dd>
            <dt className="text-muted">Version</dt>
            <dd>v{version.number}</dd>
            <dt className="text-muted">SHA-256</dt>
            <dd className="font-mono text-xs leading-5 break-all">{version.content_hash}</dd>
          </dl>
          {!current ? (
            <Alert tone="warn">
              Signed links are for the current version. You are looking at version {version.number}.
            </Alert>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => run("download")} disabled={busy !== null || !current}>
              <Download aria-hidden className="h-4 w-4" />
              {busy === "download" ? "Preparing…" : "Download file"}
            </Button>
            <Button variant="secondary" onClick={() => run("link")} disabled={busy !== null || !current}>
              <Link2 aria-hidden className="h-4 w-4" />
              {busy === "link" ? "Creating…" : "Create single-use link"}
            </Button>
          </div>
          {downloaded ? (
            <p className="text-sm text-ok" role="status">
              Download of {downloaded} started. The link it used is now spent.
            </p>
          ) : null}
          {error ? <Alert>{error}</Alert> : null}
        </div>
      </Card>

      <Card>
        <CardHeader
          title="Single-use link"
          description="For a script or another machine: no sign-in needed, valid for 5 minutes, works once."
        />
        <div className="space-y-3 px-5 py-4">
          {link ? (
            <>
              <label htmlFor="download-link" className="block text-sm font-medium">
                Link
              </label>
              <div className="flex gap-2">
                <input
                  id="download-link"
                  readOnly
                  className={`${inputClass} font-mono text-xs`}
                  value={link.download_url}
                  onFocus={(e) => e.target.select()}
                />
                <CopyButton value={link.download_url} />
              </div>
              <p className="text-xs text-muted">
                Expires at {new Date(link.download_expires_at).toLocaleTimeString()}. Example:
              </p>
              <pre className="rounded-md bg-panel-2 px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap">
                curl -fLo {shStr(link.file_name)} {shStr(link.download_url)}
              </pre>
            </>
          ) : (
            <p className="text-sm text-muted">
              Create a link to fetch this file without your session. Each link can be used once; create
              another for the next download.
            </p>
          )}
        </div>
      </Card>
    </div>
  );
}
