"use client";

import { keepPreviousData, useQueryClient } from "@tanstack/react-query";
import { FolderKanban, GitCompareArrows, Search, Sparkles, TrendingUp, X } from "lucide-react";
import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { EmptyState } from "@/components/ui/empty-state";
import { inputClass } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { $api } from "@/lib/api/client";
import { useProjects } from "@/lib/api/projects/queries";
import { trainingKeys } from "@/lib/api/training/keys";
import { useJobs } from "@/lib/api/training/queries";
import {
  isJobState,
  JOB_STATES,
  type JobState,
  listRefetchInterval,
  stateLabel,
} from "@/lib/training-ui/states";
import { errorMessage } from "./error-message";
import { JobsTable } from "./jobs-table";
import type { TrainingJob } from "./types";
import { useNow } from "./use-now";

const PAGE_SIZE = 25;
/** Jobs the compare page overlays at most. */
export const MAX_COMPARE = 20;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** /training: every job, live while some are queued or running; filter, select, compare, delete. */
export function JobsPage() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [state, setState] = useState<JobState | "">("");
  const [projectId, setProjectId] = useState("");
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<string, TrainingJob>>(new Map());
  const [notice, setNotice] = useState<{ tone: "ok" | "warn"; text: string } | null>(null);
  const searchId = useId();
  const stateId = useId();
  const projectSelectId = useId();

  const list = useJobs(
    {
      q: q || undefined,
      state: state || undefined,
      project_id: projectId || undefined,
      page,
      limit: PAGE_SIZE,
    },
    {
      placeholderData: keepPreviousData,
      // Live badges: refresh only while a job on screen can still change.
      refetchInterval: (query) => listRefetchInterval(query.state.data?.items.map((j) => j.state)),
    },
  );
  const projects = useProjects({ limit: 100, sort: "name" });
  const data = list.data;
  const items = data?.items ?? [];
  const filtering = Boolean(q || state || projectId);
  const isNewUser = data !== undefined && data.total === 0 && !filtering;
  const now = useNow(items.some((j) => j.state === "running" || j.state === "queued"));

  useEffect(() => {
    if (data && data.items.length === 0 && data.total > 0 && page > 1) setPage(data.pages);
  }, [data, page]);

  const remove = $api.useMutation("post", "/api/v1/training/jobs/bulk-delete", {
    onSuccess: (result) => {
      queryClient.invalidateQueries({ queryKey: trainingKeys.jobs });
      setSelected((s) => {
        const next = new Map(s);
        for (const id of result.deleted) next.delete(id);
        for (const id of result.not_found) next.delete(id);
        return next;
      });
      const parts = [`${result.deleted.length} job${result.deleted.length === 1 ? "" : "s"} deleted.`];
      if (result.active.length > 0)
        parts.push(
          `${result.active.length} still queued or running: cancel ${result.active.length === 1 ? "it" : "them"} first.`,
        );
      setNotice({ tone: result.active.length > 0 ? "warn" : "ok", text: parts.join(" ") });
    },
  });

  const toggle = (job: TrainingJob) =>
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(job.id)) next.delete(job.id);
      else next.set(job.id, job);
      return next;
    });
  const toggleAll = (on: boolean) =>
    setSelected((s) => {
      const next = new Map(s);
      for (const j of items) {
        if (on) next.set(j.id, j);
        else next.delete(j.id);
      }
      return next;
    });
  const selectedIds = [...selected.keys()];
  const compareHref = `/training/compare?ids=${selectedIds.slice(0, MAX_COMPARE).map(encodeURIComponent).join(",")}`;

  const toProjects = (
    <Link href="/projects" className={buttonClass("primary")}>
      <FolderKanban aria-hidden className="h-4 w-4" /> Open a project
    </Link>
  );

  return (
    <div className="max-w-7xl">
      <PageHeader
        title="Training"
        description="Training jobs with their live charts, logs and checkpoints. Start one from a project's editor (Train)."
        actions={
          <Link href="/training/fine-tune" className={buttonClass("secondary")}>
            <Sparkles aria-hidden className="h-4 w-4" />
            Fine-tune a base model
          </Link>
        }
      />
      {notice ? (
        <div className="mb-4">
          <Alert tone={notice.tone}>{notice.text}</Alert>
        </div>
      ) : null}
      {isNewUser ? (
        <EmptyState icon={TrendingUp} title="No training jobs yet" action={toProjects}>
          Open a project in the editor and press <strong>Train</strong>: pick a dataset that fits the model,
          adjust the configuration and start. Its loss and accuracy are drawn here as it learns.
        </EmptyState>
      ) : (
        <>
          <search className="mb-4 flex flex-wrap items-center gap-2 rounded-lg border border-border bg-panel px-3 py-3">
            <div className="relative min-w-56 flex-1">
              <label htmlFor={searchId} className="sr-only">
                Search jobs
              </label>
              <Search
                aria-hidden
                className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-muted"
              />
              <input
                id={searchId}
                type="search"
                placeholder="Search jobs and projects"
                value={search}
                onChange={(e) => {
                  setSearch(e.target.value);
                  setPage(1);
                }}
                className={cn(inputClass, "pl-9")}
              />
            </div>
            <label htmlFor={stateId} className="sr-only">
              State
            </label>
            <select
              id={stateId}
              value={state}
              onChange={(e) => {
                setState(isJobState(e.target.value) ? e.target.value : "");
                setPage(1);
              }}
              className={cn(inputClass, "sm:w-40")}
            >
              <option value="">All states</option>
              {JOB_STATES.map((s) => (
                <option key={s} value={s}>
                  {stateLabel(s)}
                </option>
              ))}
            </select>
            <label htmlFor={projectSelectId} className="sr-only">
              Project
            </label>
            <select
              id={projectSelectId}
              value={projectId}
              onChange={(e) => {
                setProjectId(e.target.value);
                setPage(1);
              }}
              className={cn(inputClass, "sm:w-56")}
            >
              <option value="">All projects</option>
              {projects.data?.items.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </search>

          {remove.error ? (
            <div className="mb-4">
              <Alert>{errorMessage(remove.error)}</Alert>
            </div>
          ) : null}

          {selected.size > 0 ? (
            <section
              aria-label="Selection"
              className="sticky top-2 z-20 mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-accent/40 bg-accent-soft px-4 py-2 text-sm shadow-sm"
            >
              <span className="font-medium text-accent">{selected.size} selected</span>
              <Button variant="ghost" size="sm" onClick={() => setSelected(new Map())}>
                <X aria-hidden className="h-4 w-4" /> Clear
              </Button>
              <span className="ml-auto flex flex-wrap items-center gap-2">
                {selected.size >= 2 ? (
                  <Link href={compareHref} className={buttonClass("secondary", "sm")}>
                    <GitCompareArrows aria-hidden className="h-4 w-4" /> Compare{" "}
                    {Math.min(selected.size, MAX_COMPARE)}
                  </Link>
                ) : (
                  <span className="text-xs text-muted">Select two or more to compare</span>
                )}
                <ConfirmButton
                  key={selectedIds.join(",")}
                  label={`Delete ${selected.size}`}
                  confirmLabel={`Delete ${selected.size} job${selected.size === 1 ? "" : "s"}`}
                  pending={remove.isPending}
                  onConfirm={() => remove.mutate({ body: { ids: selectedIds.slice(0, 100) } })}
                />
              </span>
            </section>
          ) : null}

          {list.isPending ? (
            <p className="py-10 text-center text-sm text-muted" role="status">
              Loading jobs…
            </p>
          ) : list.isError ? (
            <Alert>{errorMessage(list.error)}</Alert>
          ) : items.length === 0 ? (
            <EmptyState icon={Search} title="No matching jobs">
              No job matches these filters.
            </EmptyState>
          ) : (
            <JobsTable
              jobs={items}
              selected={new Set(selected.keys())}
              onToggle={toggle}
              onToggleAll={toggleAll}
              now={now}
            />
          )}

          {data ? <Pager data={data} noun="job" onPage={setPage} className="mt-4" /> : null}
        </>
      )}
    </div>
  );
}
