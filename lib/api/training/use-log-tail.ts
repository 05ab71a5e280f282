"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, type Schemas } from "@/lib/api/client";
import { type LogFilter, lastPage } from "@/lib/training-ui/log-tail";
import { trainingKeys } from "./keys";

type LogLine = Schemas["TrainingLogLine"];

/** Lines read when the tail opens (or its filter changes). */
const TAIL = 500;

async function fetchPage(jobId: string, filter: LogFilter, page: number, limit: number) {
  const { data } = await api.GET("/api/v1/training/jobs/{job_id}/logs", {
    params: {
      path: { job_id: jobId },
      query: { level: filter.level, q: filter.q || undefined, page, limit },
    },
  });
  if (!data) throw new Error("No logs returned.");
  return data;
}

/**
 * The last lines of a job's log that pass a filter (the server filters, so a search covers the whole
 * log). Logs are paged oldest first: the first page tells the total, then the last two pages give the
 * tail. Live lines are appended to this cache entry by the event stream (useJobStream).
 */
export function useLogTail(jobId: string, filter: LogFilter) {
  return useQuery({
    queryKey: trainingKeys.logTail(jobId, filter),
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<readonly LogLine[]> => {
      const first = await fetchPage(jobId, filter, 1, TAIL);
      if (first.total <= TAIL) return first.items;
      const last = lastPage(first.total, TAIL);
      const [before, end] = await Promise.all([
        fetchPage(jobId, filter, last - 1, TAIL),
        fetchPage(jobId, filter, last, TAIL),
      ]);
      return [...before.items, ...end.items].slice(-TAIL);
    },
  });
}
