"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type Cell, parseDelimited, parseJsonLines, parseTextLines } from "@/lib/datasets-ui/parse-rows";
import { datasetKeys } from "./keys";
import type { DatasetVersion } from "./types";

/**
 * Every row of a version, for the data table and for splits. The preview route returns at most the
 * first 100 rows and has no offset, so text formats (CSV, TSV, JSON Lines, plain text) up to
 * ROWS_MAX_BYTES are read whole through the download route (with the session) and parsed here, in
 * file order. Parquet and image archives are not parsed in the browser.
 */
export const ROWS_MAX_BYTES = 64 * 1024 * 1024;
/** Files up to this size are read as soon as a tab needs them; larger ones on request. */
export const ROWS_AUTO_BYTES = 16 * 1024 * 1024;

const PARSEABLE = new Set(["csv", "tsv", "jsonl", "text"]);

export function canLoadAllRows(version: DatasetVersion): boolean {
  return PARSEABLE.has(version.schema.format) && version.size_bytes <= ROWS_MAX_BYTES;
}

export interface DatasetRows {
  columns: string[];
  rows: Cell[][];
  /** The parsed row count equals the server's (row indices can be used for splits). */
  matchesServer: boolean;
}

async function readText(res: Response, onProgress: (share: number) => void): Promise<string> {
  const total = Number(res.headers.get("Content-Length") ?? 0);
  if (!res.body || !total) return res.text();
  const reader = res.body.getReader();
  const decoder = new TextDecoder("utf-8");
  const parts: string[] = [];
  let received = 0;
  let lastReport = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    parts.push(decoder.decode(value, { stream: true }));
    if (received - lastReport > total / 50) {
      lastReport = received;
      onProgress(received / total);
    }
  }
  parts.push(decoder.decode());
  onProgress(1);
  return parts.join("");
}

export function parseVersionText(version: DatasetVersion, text: string): DatasetRows {
  const columns = version.schema.columns.map((c) => c.name);
  const { format, dialect } = version.schema;
  const parsed =
    format === "jsonl"
      ? parseJsonLines(text, columns)
      : format === "text"
        ? parseTextLines(text)
        : parseDelimited(text, {
            delimiter: dialect?.delimiter ?? (format === "tsv" ? "\t" : ","),
            quote: dialect?.quote ?? '"',
            escape: dialect?.escape ?? '"',
            hasHeader: dialect?.has_header ?? true,
            skipRows: (dialect as { skip_rows?: number } | undefined)?.skip_rows,
          });
  return {
    columns,
    rows: parsed.rows,
    matchesServer: version.row_count === null || parsed.rows.length === version.row_count,
  };
}

export function useDatasetRows(datasetId: string, version: DatasetVersion) {
  const [progress, setProgress] = useState(0);
  const [requested, setRequested] = useState(false);
  const loadable = canLoadAllRows(version);
  const auto = version.size_bytes <= ROWS_AUTO_BYTES;
  const query = useQuery({
    queryKey: datasetKeys.rows(datasetId, version.id),
    enabled: loadable && (auto || requested),
    // A version's content never changes.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
    retry: false,
    queryFn: async ({ signal }) => {
      const url = `/api/v1/datasets/${encodeURIComponent(datasetId)}/download?version_id=${encodeURIComponent(version.id)}`;
      const res = await fetch(url, { signal, credentials: "same-origin" });
      if (!res.ok) throw new Error(`The file could not be read (status ${res.status}).`);
      const text = await readText(res, setProgress);
      return parseVersionText(version, text);
    },
  });
  return {
    ...query,
    progress,
    /** The file can be read here but is large: it waits for `load()`. */
    waitsForRequest: loadable && !auto && !requested && query.data === undefined,
    load: () => setRequested(true),
  };
}
