"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/api/client";
import { datasetKeys } from "@/lib/api/datasets/keys";
import { type Cell, toCell } from "@/lib/datasets-ui/cells";
import { pagesFor } from "@/lib/datasets-ui/windowing";
import { errorMessage } from "./error-message";
import type { DatasetVersion } from "./types";

/**
 * Rows of a version, read from the server a page at a time (GET /datasets/{id}/rows) as the table
 * needs them: a 1,000,000-row dataset scrolls without the file ever being downloaded. Pages are kept
 * in a small most-recently-used cache; requests wait for scrolling to settle for a moment, so that
 * flinging the scrollbar does not ask for every page on the way.
 */
export const PAGE_ROWS = 500;
/** Pages kept in memory (PAGE_ROWS × this many rows at most). */
const MAX_CACHED_PAGES = 64;
/** Rows fetched beyond each edge of the visible range. */
const PREFETCH_ROWS = 100;
const SETTLE_MS = 80;

/** A page of a version's rows (cells as strings), straight from the API. */
export async function fetchRowsPage(
  datasetId: string,
  versionId: string,
  offset: number,
  limit: number,
  signal?: AbortSignal,
  columns?: string,
): Promise<{ rows: Cell[][]; total: number; nextOffset: number | null }> {
  const { data } = await api.GET("/api/v1/datasets/{dataset_id}/rows", {
    params: {
      path: { dataset_id: datasetId },
      query: { offset, limit, version_id: versionId, ...(columns !== undefined ? { columns } : {}) },
    },
    signal,
  });
  if (!data) throw new Error("The rows could not be read.");
  return {
    rows: data.rows.map((row) => row.map(toCell)),
    total: data.total,
    nextOffset: data.next_offset,
  };
}

export interface PagedRows {
  /** Rows in the version (the server's count). */
  rowCount: number;
  /** The cells of row `index`, or undefined while its page is on its way. */
  rowAt: (index: number) => Cell[] | undefined;
  /** Tells which rows are in view; their pages are fetched (after a short pause). */
  requestRange: (start: number, end: number) => void;
  /** Pages being fetched. */
  loading: number;
  /** Pages fetched so far (for tests and the status line). */
  fetched: number;
  error: string | null;
  retry: () => void;
}

export function usePagedRows(datasetId: string, version: DatasetVersion): PagedRows {
  const rowCount = version.row_count ?? 0;
  const pages = useRef(new Map<number, Cell[][]>());
  const inflight = useRef(new Map<number, AbortController>());
  const wanted = useRef<{ start: number; end: number }>({ start: 0, end: Math.min(rowCount, PAGE_ROWS) });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const [loading, setLoading] = useState(0);
  const [fetched, setFetched] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    const { start, end } = wanted.current;
    for (const page of pagesFor(start, end, PAGE_ROWS, rowCount)) {
      if (pages.current.has(page) || inflight.current.has(page)) continue;
      const controller = new AbortController();
      inflight.current.set(page, controller);
      setLoading(inflight.current.size);
      fetchRowsPage(datasetId, version.id, page * PAGE_ROWS, PAGE_ROWS, controller.signal)
        .then((result) => {
          const cache = pages.current;
          cache.set(page, result.rows);
          // Least recently loaded first out, never a page in view.
          const keep = new Set(pagesFor(wanted.current.start, wanted.current.end, PAGE_ROWS, rowCount));
          for (const key of cache.keys()) {
            if (cache.size <= MAX_CACHED_PAGES) break;
            if (!keep.has(key)) cache.delete(key);
          }
          setError(null);
          setFetched((n) => n + 1);
          setTick((t) => t + 1);
        })
        .catch((err: unknown) => {
          if (!controller.signal.aborted) setError(errorMessage(err));
        })
        .finally(() => {
          inflight.current.delete(page);
          setLoading(inflight.current.size);
        });
    }
  }, [datasetId, version.id, rowCount]);

  const requestRange = useCallback(
    (start: number, end: number) => {
      wanted.current = {
        start: Math.max(0, start - PREFETCH_ROWS),
        end: Math.min(rowCount, end + PREFETCH_ROWS),
      };
      clearTimeout(timer.current);
      // Pages not in view any more are not worth waiting for.
      const keep = new Set(pagesFor(wanted.current.start, wanted.current.end, PAGE_ROWS, rowCount));
      for (const [page, controller] of inflight.current) {
        if (!keep.has(page)) {
          controller.abort();
          inflight.current.delete(page);
        }
      }
      timer.current = setTimeout(load, SETTLE_MS);
    },
    [load, rowCount],
  );

  // A new version: start over with its first page.
  useEffect(() => {
    const cache = pages.current;
    const running = inflight.current;
    cache.clear();
    wanted.current = { start: 0, end: Math.min(rowCount, PAGE_ROWS) };
    setFetched(0);
    setError(null);
    load();
    return () => {
      clearTimeout(timer.current);
      for (const controller of running.values()) controller.abort();
      running.clear();
    };
  }, [load, rowCount]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new identity whenever a page arrives, so the table re-renders
  const rowAt = useCallback(
    (index: number) => pages.current.get(Math.floor(index / PAGE_ROWS))?.[index % PAGE_ROWS],
    [tick],
  );

  return {
    rowCount,
    rowAt,
    requestRange,
    loading,
    fetched,
    error,
    retry: () => {
      setError(null);
      load();
    },
  };
}

// ---------------------------------------------------------------------------------------------------

/** Values of one column fetched per request (the API's limit for a single column). */
export const COLUMN_PAGE_VALUES = 100_000;
/** Columns of versions up to this many rows are read as soon as a tab needs them; larger on request. */
export const COLUMN_AUTO_ROWS = 2_000_000;

export interface ColumnValues {
  values: Cell[];
  /** The number of values read equals the server's row count (row indices can be used for splits). */
  matchesServer: boolean;
}

/**
 * Every value of one column (e.g. the class label, for stratified splits and class balance), read
 * from the server in pages of COLUMN_PAGE_VALUES: only that column travels, never whole rows.
 */
export function useColumnValues(
  datasetId: string,
  version: DatasetVersion,
  column: string,
  opts: { enabled: boolean },
) {
  const rowCount = version.row_count ?? 0;
  const [progress, setProgress] = useState(0);
  const [requested, setRequested] = useState(false);
  const auto = rowCount <= COLUMN_AUTO_ROWS;
  const query = useQuery({
    queryKey: datasetKeys.column(datasetId, version.id, column),
    enabled: opts.enabled && column !== "" && (auto || requested),
    // A version's content never changes.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
    retry: false,
    queryFn: async ({ signal }): Promise<ColumnValues> => {
      const values: Cell[] = [];
      setProgress(0);
      for (let offset: number | null = 0; offset !== null; ) {
        const page = await fetchRowsPage(datasetId, version.id, offset, COLUMN_PAGE_VALUES, signal, column);
        for (const row of page.rows) values.push(row[0] ?? null);
        setProgress(page.total > 0 ? Math.min(1, values.length / page.total) : 1);
        offset = page.nextOffset;
      }
      setProgress(1);
      return { values, matchesServer: version.row_count === null || values.length === version.row_count };
    },
  });
  return {
    ...query,
    progress,
    /** Large: waits for `load()`. */
    waitsForRequest: opts.enabled && column !== "" && !auto && !requested && query.data === undefined,
    load: () => setRequested(true),
  };
}
