"use client";

import { Download, FileArchive } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import { Button } from "@/components/ui/button";
import { useDownloadLink } from "@/lib/api/hub/mutations";

/**
 * Asks the API for a signed link (one file, or every file as a ZIP without `fileId`) and follows it:
 * the browser downloads the content from the link, which is what counts as a download.
 */
function useDownload(modelId: string, fileId?: string) {
  const link = useDownloadLink();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setPending(true);
    setError(null);
    try {
      const data = await link.mutateAsync({
        params: { path: { model_id: modelId } },
        body: fileId ? { file_id: fileId } : {},
      });
      if (data) window.location.assign(data.url);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  };
  return { pending, error, start };
}

export function DownloadFileButton({
  modelId,
  fileId,
  path,
}: {
  modelId: string;
  fileId: string;
  path: string;
}) {
  const d = useDownload(modelId, fileId);
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        size="sm"
        onClick={d.start}
        disabled={d.pending}
        aria-label={`Download ${path}`}
      >
        <Download aria-hidden className="h-4 w-4" /> {d.pending ? "Preparing…" : "Download"}
      </Button>
      {d.error ? (
        <span role="alert" className="text-xs text-danger">
          {d.error}
        </span>
      ) : null}
    </span>
  );
}

export function DownloadAllButton({ modelId, disabled }: { modelId: string; disabled?: boolean }) {
  const d = useDownload(modelId);
  return (
    <span className="inline-flex flex-col gap-1">
      <Button variant="secondary" size="sm" onClick={d.start} disabled={disabled || d.pending}>
        <FileArchive aria-hidden className="h-4 w-4" /> {d.pending ? "Preparing…" : "Download all (ZIP)"}
      </Button>
      {d.error ? (
        <span role="alert" className="text-xs text-danger">
          {d.error}
        </span>
      ) : null}
    </span>
  );
}
