"use client";

import { Database, Link2, Plus, Search, Sparkles, UploadCloud, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { useDatasetList, useDatasetPages } from "@/lib/api/datasets/queries";
import { FORMAT_LABELS, TASK_LABELS } from "@/lib/datasets-ui/format";
import { DatasetTable } from "./dataset-table";
import { takeDatasetFlash } from "./flash";
import { QuotaBar } from "./quota-bar";
import { type DatasetSource, UploadDialog } from "./upload-dialog";

const PAGE = 25;
type Format = "csv" | "tsv" | "jsonl" | "json" | "parquet" | "image_zip" | "text";

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/** /datasets: the caller's datasets, the built-ins and public ones, with search, filters and the quota. */
export function DatasetBrowser() {
  const [uploadOpen, setUploadOpen] = useState(false);
  const [source, setSource] = useState<DatasetSource>("file");
  const openNew = (s: DatasetSource) => {
    setSource(s);
    setUploadOpen(true);
  };
  // A message left by the page we came from (e.g. a dataset was just deleted).
  const [flash, setFlash] = useState<string | null>(null);
  useEffect(() => {
    const message = takeDatasetFlash();
    if (message) setFlash(message);
  }, []);
  const [search, setSearch] = useState("");
  const [format, setFormat] = useState<Format | "">("");
  const [task, setTask] = useState("");
  const q = useDebounced(search.trim(), 250);
  const filters = { q: q || undefined, format: format || undefined, task: task || undefined };
  const filtering = Boolean(q || format || task);

  const mine = useDatasetPages({ ...filters, mine: "true", include_builtin: "false" }, PAGE);
  // Built-ins come first in browsing, then public datasets of others; one page of 100 covers them.
  const others = useDatasetList({ ...filters, mine: "false", include_builtin: "true", limit: 100 });
  const mineItems = mine.data?.pages.flat() ?? [];
  const builtins = others.data?.filter((d) => d.builtin) ?? [];
  const shared = others.data?.filter((d) => !d.builtin && d.read_only) ?? [];
  const newUser = !filtering && mine.isSuccess && mineItems.length === 0;

  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Datasets"
        description="Your data and the built-in datasets: upload, profile, tag roles, scan for personal data and split."
        actions={
          <Button onClick={() => openNew("file")}>
            <Plus aria-hidden className="h-4 w-4" /> New dataset
          </Button>
        }
      />
      <UploadDialog open={uploadOpen} onClose={() => setUploadOpen(false)} initialSource={source} />
      {flash ? (
        <div
          className="mb-4 flex items-center justify-between gap-3 rounded-md border border-ok/40 bg-ok-soft px-4 py-2 text-sm text-ok"
          role="status"
          data-testid="datasets-flash"
        >
          <span>{flash}</span>
          <button
            type="button"
            onClick={() => setFlash(null)}
            aria-label="Dismiss"
            className="inline-flex h-7 w-7 items-center justify-center rounded hover:bg-ok/10"
          >
            <X aria-hidden className="h-4 w-4" />
          </button>
        </div>
      ) : null}

      <div className="mb-6 flex flex-wrap items-stretch gap-3">
        <search className="flex min-w-0 flex-[2_1_32rem] flex-wrap items-center gap-2 rounded-lg border border-border bg-panel px-3 py-3">
          <div className="relative min-w-56 flex-1">
            <Search aria-hidden className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-muted" />
            <input
              type="search"
              aria-label="Search datasets"
              placeholder="Search datasets"
              className={cn(inputClass, "pl-9")}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <select
            aria-label="Format"
            className={cn(inputClass, "sm:w-36")}
            value={format}
            onChange={(e) => setFormat(e.target.value as Format | "")}
          >
            <option value="">All formats</option>
            {Object.entries(FORMAT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <select
            aria-label="Task"
            className={cn(inputClass, "sm:w-44")}
            value={task}
            onChange={(e) => setTask(e.target.value)}
          >
            <option value="">All tasks</option>
            {Object.entries(TASK_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </search>
        <QuotaBar />
      </div>

      <section aria-labelledby="mine-heading" className="mb-8">
        <h2 id="mine-heading" className="mb-3 text-sm font-semibold tracking-wide text-muted uppercase">
          Your datasets
        </h2>
        {newUser ? (
          <div className="flex flex-col items-center rounded-lg border border-dashed border-border bg-panel px-6 py-10 text-center">
            <div className="mb-3 flex h-11 w-11 items-center justify-center rounded-full bg-accent-soft text-accent">
              <Database aria-hidden className="h-5 w-5" />
            </div>
            <h3 className="text-base font-semibold">No datasets yet</h3>
            <p className="mt-1 max-w-md text-sm text-muted">
              Upload a CSV, JSON Lines, Parquet or text file or a ZIP of images, or import one from a URL. Or
              start from one of the built-in datasets below: they are ready to link to a project.
            </p>
            <div className="mt-4 flex flex-wrap justify-center gap-2">
              <Button onClick={() => openNew("file")}>
                <UploadCloud aria-hidden className="h-4 w-4" /> Upload your first dataset
              </Button>
              <Button variant="secondary" onClick={() => openNew("url")}>
                <Link2 aria-hidden className="h-4 w-4" /> Import from a URL
              </Button>
              <a
                href="#builtin-heading"
                className="inline-flex h-9 items-center gap-2 rounded-md px-4 text-sm font-medium hover:bg-panel-2"
              >
                <Sparkles aria-hidden className="h-4 w-4" /> Browse built-ins
              </a>
            </div>
          </div>
        ) : mine.isPending ? (
          <p className="rounded-lg border border-border bg-panel px-4 py-6 text-sm text-muted">Loading…</p>
        ) : mineItems.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border bg-panel px-4 py-6 text-center text-sm text-muted">
            None of your datasets match these filters.
          </p>
        ) : (
          <>
            <DatasetTable datasets={mineItems} caption="Your datasets" />
            {mine.hasNextPage ? (
              <div className="mt-3 flex justify-center">
                <Button
                  variant="secondary"
                  onClick={() => mine.fetchNextPage()}
                  disabled={mine.isFetchingNextPage}
                >
                  {mine.isFetchingNextPage ? "Loading…" : "Show more"}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </section>

      <section aria-labelledby="builtin-heading" className="mb-8 scroll-mt-6">
        <h2 id="builtin-heading" className="mb-1 text-sm font-semibold tracking-wide text-muted uppercase">
          Built-in datasets
        </h2>
        <p className="mb-3 text-sm text-muted">Small, well-known datasets with their licences, read-only.</p>
        {others.isPending ? (
          <p className="rounded-lg border border-border bg-panel px-4 py-6 text-sm text-muted">Loading…</p>
        ) : builtins.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border bg-panel px-4 py-6 text-center text-sm text-muted">
            No built-in dataset matches these filters.
          </p>
        ) : (
          <DatasetTable datasets={builtins} caption="Built-in datasets" />
        )}
      </section>

      {shared.length > 0 ? (
        <section aria-labelledby="shared-heading">
          <h2 id="shared-heading" className="mb-3 text-sm font-semibold tracking-wide text-muted uppercase">
            Public datasets
          </h2>
          <DatasetTable datasets={shared} caption="Public datasets of other users" />
        </section>
      ) : null}
    </div>
  );
}
