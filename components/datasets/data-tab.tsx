"use client";

import { Info, Loader2, RotateCw } from "lucide-react";
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useDatasetPreview } from "@/lib/api/datasets/queries";
import { formatCount } from "@/lib/datasets-ui/format";
import { errorMessage } from "./error-message";
import type { DatasetTabProps } from "./types";
import { PAGE_ROWS, usePagedRows } from "./use-dataset-rows";
import { VirtualTable } from "./virtual-table";

/** Thumbnails shown above the table of an image dataset. */
const SAMPLE_IMAGES = 24;

/**
 * The rows of the version, fetched from the server a page at a time as the table scrolls (the file
 * itself is never downloaded), with thumbnails first for image datasets.
 */
export function DataTab({ dataset, version }: DatasetTabProps) {
  const hasImages = version.schema.format === "image_zip" || dataset.image_layout !== null;
  const preview = useDatasetPreview(
    dataset.id,
    { rows: SAMPLE_IMAGES, version_id: version.id },
    { enabled: hasImages },
  );
  const paged = usePagedRows(dataset.id, version);
  const columns = version.schema.columns;
  const total = paged.rowCount;
  const images = preview.data?.images ?? [];

  let note: ReactNode;
  if (total <= PAGE_ROWS) {
    note = total === 0 ? <>This version has no rows.</> : <>All {formatCount(total)} rows.</>;
  } else {
    note = (
      <>
        {formatCount(total)} rows, read from the server {formatCount(PAGE_ROWS)} at a time as you scroll.
      </>
    );
  }

  return (
    <div className="space-y-4">
      {hasImages && images.length > 0 ? (
        <section aria-labelledby="samples-heading" className="rounded-lg border border-border bg-panel p-4">
          <h2 id="samples-heading" className="text-sm font-semibold">
            Samples
          </h2>
          {version.schema.format === "image_zip" ? <ImageLayoutNote version={version} /> : null}
          <ul className="flex flex-wrap gap-3">
            {images.slice(0, SAMPLE_IMAGES).map((img) => (
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
      {preview.error ? <Alert tone="warn">Samples: {errorMessage(preview.error)}</Alert> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-start gap-2 text-sm text-muted">
          <Info aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
          <span data-testid="rows-note">{note}</span>
        </p>
        <p
          className="flex min-h-5 items-center gap-1.5 text-xs text-muted"
          role="status"
          data-testid="rows-status"
        >
          {paged.loading > 0 ? (
            <>
              <Loader2 aria-hidden className="h-3.5 w-3.5 animate-spin" /> Loading rows…
            </>
          ) : null}
        </p>
      </div>
      {paged.error ? (
        <Alert>
          <span className="flex flex-wrap items-center justify-between gap-2">
            <span>Rows could not be loaded: {paged.error}</span>
            <Button size="sm" variant="secondary" onClick={paged.retry}>
              <RotateCw aria-hidden className="h-3.5 w-3.5" /> Try again
            </Button>
          </span>
        </Alert>
      ) : null}
      <VirtualTable
        key={version.id}
        columns={columns}
        rowCount={total}
        rowAt={paged.rowAt}
        onRangeChange={paged.requestRange}
        label={`Rows of ${dataset.name}`}
      />
    </div>
  );
}

const LAYOUT_LABEL = {
  classes: "one folder per class",
  wrapped: "one folder per class, inside one top folder",
  splits: "train/, validation/ and test/ folders of class folders (the version's split)",
} as const;

/** Which image ZIP layouts are read, and how this version was read. */
function ImageLayoutNote({ version }: Pick<DatasetTabProps, "version">) {
  const images = version.profile?.images;
  return (
    <p className="mb-3 mt-1 text-xs text-muted" data-testid="image-layout-note">
      Image ZIPs are read as one folder per class (<code>cats/1.png</code>), optionally inside one top folder,
      or as top-level <code>train/</code>, <code>validation/</code> (or <code>val/</code>) and{" "}
      <code>test/</code> folders of class folders, which become the version&apos;s split. PNG, JPEG, WebP, GIF
      (first frame) of any size and mode; files that cannot be read are skipped.
      {images?.layout ? <> This version: {LAYOUT_LABEL[images.layout]}.</> : null}
      {images && images.skipped > 0 ? (
        <>
          {" "}
          {formatCount(images.skipped)} unreadable {images.skipped === 1 ? "file was" : "files were"} skipped
          (listed under Columns).
        </>
      ) : null}
    </p>
  );
}
