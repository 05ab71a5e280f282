"use client";

import { Info, Loader2 } from "lucide-react";
import { type ReactNode, useCallback, useMemo } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { $api } from "@/lib/api/client";
import { formatBytes, formatCount, formatPercent } from "@/lib/datasets-ui/format";
import type { Cell } from "@/lib/datasets-ui/parse-rows";
import { errorMessage } from "./error-message";
import type { DatasetTabProps } from "./types";
import { canLoadAllRows, ROWS_MAX_BYTES, useDatasetRows } from "./use-dataset-rows";
import { VirtualTable } from "./virtual-table";

const PREVIEW_ROWS = 100;

function toCell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** The rows of the version: all of them when the file can be read here, else the API's preview. */
export function DataTab({ dataset, version }: DatasetTabProps) {
  const preview = $api.useQuery("get", "/api/v1/datasets/{dataset_id}/preview", {
    params: { path: { dataset_id: dataset.id }, query: { rows: PREVIEW_ROWS, version_id: version.id } },
  });
  const full = useDatasetRows(dataset.id, version);
  const columns = version.schema.columns;
  const all = full.data;

  const previewRows = useMemo(
    () => (preview.data?.rows ?? []).map((r) => columns.map((c) => toCell(r[c.name]))),
    [preview.data, columns],
  );
  const rows = all?.rows ?? previewRows;
  const rowAt = useCallback((i: number) => rows[i] ?? [], [rows]);
  const total = version.row_count ?? preview.data?.row_count ?? rows.length;
  const images = preview.data?.images ?? [];

  let note: ReactNode;
  if (all) {
    note = all.matchesServer ? (
      <>All {formatCount(all.rows.length)} rows, read from the file.</>
    ) : (
      <>
        {formatCount(all.rows.length)} rows read from the file; the server counted{" "}
        {formatCount(version.row_count)}.
      </>
    );
  } else if (full.isFetching) {
    note = (
      <span className="inline-flex items-center gap-1.5">
        <Loader2 aria-hidden className="h-3.5 w-3.5 animate-spin" />
        Loading all {formatCount(total)} rows… {formatPercent(full.progress)}
        <span className="text-muted">(showing the first {formatCount(previewRows.length)} meanwhile)</span>
      </span>
    );
  } else if (full.waitsForRequest) {
    note = (
      <span className="inline-flex flex-wrap items-center gap-2">
        The first {formatCount(previewRows.length)} of {formatCount(total)} rows.
        <Button size="sm" variant="secondary" onClick={full.load}>
          Load all rows ({formatBytes(version.size_bytes)})
        </Button>
      </span>
    );
  } else if (!canLoadAllRows(version) && total > previewRows.length) {
    note = (
      <>
        The first {formatCount(previewRows.length)} of {formatCount(total)} rows: the preview returns at most{" "}
        {PREVIEW_ROWS} rows, and{" "}
        {version.size_bytes > ROWS_MAX_BYTES ? "this file is too large" : "this format cannot be"} read in the
        browser. Download the file for every row.
      </>
    );
  } else {
    note = <>{formatCount(rows.length)} rows.</>;
  }

  return (
    <div className="space-y-4">
      {images.length > 0 ? (
        <section aria-labelledby="samples-heading" className="rounded-lg border border-border bg-panel p-4">
          <h2 id="samples-heading" className="mb-3 text-sm font-semibold">
            Samples
          </h2>
          <ul className="flex flex-wrap gap-3">
            {images.slice(0, 24).map((img) => (
              <li key={`${img.row}-${img.path}`} className="w-16 text-center">
                {img.thumbnail ? (
                  // biome-ignore lint/performance/noImgElement: data-URL thumbnails from the API
                  <img
                    src={img.thumbnail}
                    alt={`Row ${img.row + 1}: ${img.label}`}
                    width={64}
                    height={64}
                    className="h-16 w-16 rounded border border-border bg-white object-contain [image-rendering:pixelated]"
                  />
                ) : (
                  <div className="flex h-16 w-16 items-center justify-center rounded border border-border text-xs text-muted">
                    {img.width}×{img.height}
                  </div>
                )}
                <span className="mt-1 block truncate text-xs text-muted">{img.label}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="flex items-start gap-2 text-sm text-muted" data-testid="rows-note">
        <Info aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        <span>{note}</span>
      </p>
      {full.error ? <Alert tone="warn">{full.error.message} Showing the preview instead.</Alert> : null}
      {preview.error && !all ? <Alert>{errorMessage(preview.error)}</Alert> : null}
      {preview.isPending && !all ? (
        <p className="text-sm text-muted">Loading rows…</p>
      ) : (
        <VirtualTable
          columns={columns}
          rowCount={rows.length}
          rowAt={rowAt}
          label={`Rows of ${dataset.name}`}
        />
      )}
    </div>
  );
}
