"use client";

import { keepPreviousData } from "@tanstack/react-query";
import { FileUp, FolderKanban, Plus, Search, Trash2, X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { useProjects } from "@/lib/api/projects/queries";
import { DeleteProjectsDialog } from "./delete-projects-dialog";
import { ImportDagDialog } from "./import-dag-dialog";
import { NewProjectDialog } from "./new-project-dialog";
import { ProjectCard } from "./project-card";

const PAGE_SIZE = 12;
type Sort = "updated_at" | "created_at" | "name";

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** The projects list: search, sort, pages, thumbnails, new/duplicate/delete, multi-select. */
export function ProjectsPage() {
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [sort, setSort] = useState<Sort>("updated_at");
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [toDelete, setToDelete] = useState<{ id: string; name: string }[]>([]);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const searchId = useId();
  const sortId = useId();

  const list = useProjects(
    { q: q || undefined, sort, page, limit: PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
  const data = list.data;
  const items = data?.items ?? [];
  const isNewUser = data !== undefined && data.total === 0 && q === "";

  // Past the last page after deleting: step back.
  useEffect(() => {
    if (data && data.items.length === 0 && data.total > 0 && page > 1) setPage(data.pages);
  }, [data, page]);

  const toggle = (id: string, name: string) =>
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(id)) next.delete(id);
      else next.set(id, name);
      return next;
    });
  const allOnPage = items.length > 0 && items.every((p) => selected.has(p.id));
  const newButtons = (
    <div className="flex gap-2">
      <Button variant="secondary" onClick={() => setImporting(true)}>
        <FileUp aria-hidden className="h-4 w-4" /> Import DAG
      </Button>
      <Button onClick={() => setCreating(true)}>
        <Plus aria-hidden className="h-4 w-4" /> New project
      </Button>
    </div>
  );

  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Projects"
        description="Architectures you design as diagrams, with their versions and share links."
        actions={isNewUser ? undefined : newButtons}
      />

      {isNewUser ? (
        <EmptyState icon={FolderKanban} title="No projects yet" action={newButtons}>
          Create a project from a template (an MLP, a CNN for images, an LSTM or a transformer block) or start
          from a blank canvas (or import a DAG file), then shape it layer by layer while Layerline checks
          every tensor shape.
        </EmptyState>
      ) : (
        <>
          <div className="mb-4 flex flex-wrap items-center gap-3">
            <div className="relative min-w-56 flex-1">
              <label htmlFor={searchId} className="sr-only">
                Search projects
              </label>
              <Search
                aria-hidden
                className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-muted"
              />
              <input
                id={searchId}
                type="search"
                value={search}
                onChange={(e) => {
                  setSearch(e.target.value);
                  setPage(1);
                }}
                placeholder="Search projects by name"
                className="h-9 w-full rounded-md border border-border bg-panel pr-3 pl-9 text-sm placeholder:text-muted focus:border-accent focus:outline-none"
              />
            </div>
            <div className="flex items-center gap-2">
              <label htmlFor={sortId} className="text-sm text-muted">
                Sort by
              </label>
              <select
                id={sortId}
                value={sort}
                onChange={(e) => {
                  setSort(e.target.value as Sort);
                  setPage(1);
                }}
                className="h-9 rounded-md border border-border bg-panel px-2 text-sm"
              >
                <option value="updated_at">Last updated</option>
                <option value="created_at">Recently created</option>
                <option value="name">Name</option>
              </select>
            </div>
          </div>

          {selected.size > 0 ? (
            <section
              className="sticky top-2 z-20 mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-accent/40 bg-accent-soft px-4 py-2 text-sm shadow-sm"
              aria-label="Selection"
            >
              <span className="font-medium text-accent">{selected.size} selected</span>
              {!allOnPage ? (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() =>
                    setSelected((s) => {
                      const next = new Map(s);
                      for (const p of items) next.set(p.id, p.name);
                      return next;
                    })
                  }
                >
                  Select all on this page
                </Button>
              ) : null}
              <Button variant="ghost" size="sm" onClick={() => setSelected(new Map())}>
                <X aria-hidden className="h-4 w-4" /> Clear
              </Button>
              <Button
                variant="danger"
                size="sm"
                className="ml-auto"
                onClick={() => setToDelete([...selected].map(([id, name]) => ({ id, name })))}
              >
                <Trash2 aria-hidden className="h-4 w-4" /> Delete {selected.size}
              </Button>
            </section>
          ) : null}

          {list.isPending ? (
            <p className="py-10 text-center text-sm text-muted" role="status">
              Loading projects…
            </p>
          ) : items.length === 0 ? (
            <EmptyState icon={Search} title="No matching projects">
              No project name contains “{q}”.
            </EmptyState>
          ) : (
            <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Projects">
              {items.map((p) => (
                <ProjectCard
                  key={p.id}
                  project={p}
                  selected={selected.has(p.id)}
                  selecting={selected.size > 0}
                  onToggle={() => toggle(p.id, p.name)}
                  onDelete={() => setToDelete([{ id: p.id, name: p.name }])}
                />
              ))}
            </ul>
          )}

          {data ? <Pager data={data} noun="project" onPage={setPage} className="mt-6" /> : null}
        </>
      )}

      <NewProjectDialog open={creating} onClose={() => setCreating(false)} />
      <ImportDagDialog open={importing} onClose={() => setImporting(false)} />
      <DeleteProjectsDialog
        projects={toDelete}
        onClose={() => setToDelete([])}
        onDeleted={(ids) =>
          setSelected((s) => {
            const next = new Map(s);
            for (const id of ids) next.delete(id);
            return next;
          })
        }
      />
    </div>
  );
}
