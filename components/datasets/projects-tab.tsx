"use client";

import { useQueryClient } from "@tanstack/react-query";
import { FolderKanban, Link2, Unlink } from "lucide-react";
import Link from "next/link";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { $api } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import { useProjects, useProjectsDatasets } from "@/lib/api/projects/queries";
import { formatRelative } from "@/lib/datasets-ui/format";
import { errorMessage } from "./error-message";
import type { DatasetTabProps } from "./types";

/** Link this dataset to one of the caller's projects, or unlink it. */
export function ProjectsTab({ dataset }: DatasetTabProps) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const [choice, setChoice] = useState("");
  const projects = useProjects({ limit: 100 });
  const items = projects.data?.items ?? [];
  // There is no "projects of a dataset" route: ask each project for its linked datasets.
  const links = useProjectsDatasets(items.map((p) => p.id));
  const linkedAt = new Map<string, string>();
  items.forEach((p, i) => {
    const found = links[i]?.data?.find((d) => d.id === dataset.id);
    if (found) linkedAt.set(p.id, found.linked_at);
  });
  const loadingLinks = links.some((l) => l.isPending);
  const linked = items.filter((p) => linkedAt.has(p.id));
  const unlinked = items.filter((p) => !linkedAt.has(p.id));
  const selected = unlinked.some((p) => p.id === choice) ? choice : (unlinked[0]?.id ?? "");

  const refresh = () => queryClient.invalidateQueries({ queryKey: projectKeys.datasets });
  const link = $api.useMutation("post", "/api/v1/projects/{project_id}/datasets", { onSuccess: refresh });
  const unlink = $api.useMutation("delete", "/api/v1/projects/{project_id}/datasets/{dataset_id}", {
    onSuccess: refresh,
  });
  const error = link.error ?? unlink.error;

  return (
    <Card>
      <CardHeader
        title="Projects"
        description="Projects that train on this dataset. Linking does not copy the data."
      />
      <div className="space-y-5 px-5 py-4">
        {projects.isPending ? <p className="text-sm text-muted">Loading your projects…</p> : null}
        {projects.isSuccess && items.length === 0 ? (
          <div className="flex flex-col items-start gap-3 rounded-md border border-dashed border-border px-4 py-5 text-sm">
            <p className="text-muted">You have no projects yet. Create one, then link this dataset to it.</p>
            <Link href="/projects" className={buttonClass("secondary", "sm")}>
              <FolderKanban aria-hidden className="h-4 w-4" /> Go to projects
            </Link>
          </div>
        ) : null}

        {items.length > 0 ? (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (!selected) return;
              link.mutate({ params: { path: { project_id: selected } }, body: { dataset_id: dataset.id } });
            }}
          >
            <div className="min-w-64 flex-1 space-y-1">
              <label htmlFor={selectId} className="block text-sm font-medium">
                Project
              </label>
              <select
                id={selectId}
                className={inputClass}
                value={selected}
                onChange={(e) => setChoice(e.target.value)}
                disabled={unlinked.length === 0 || loadingLinks}
              >
                {unlinked.length === 0 ? <option value="">Linked to all your projects</option> : null}
                {unlinked.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" disabled={!selected || link.isPending || loadingLinks}>
              <Link2 aria-hidden className="h-4 w-4" />
              {link.isPending ? "Linking…" : "Link to project"}
            </Button>
          </form>
        ) : null}
        {error ? <Alert>{errorMessage(error)}</Alert> : null}

        {items.length > 0 ? (
          <div>
            <h3 className="mb-2 text-sm font-semibold">Linked projects</h3>
            {linked.length === 0 ? (
              <p className="text-sm text-muted">
                {loadingLinks ? "Checking…" : "Not linked to any project yet."}
              </p>
            ) : (
              <ul
                className="divide-y divide-border rounded-md border border-border"
                aria-label="Linked projects"
              >
                {linked.map((p) => (
                  <li
                    key={p.id}
                    className="flex items-center justify-between gap-3 px-4 py-2.5"
                    data-testid="linked-project"
                  >
                    <div className="min-w-0">
                      <Link
                        href={`/projects/${p.id}`}
                        className="truncate font-medium hover:text-accent hover:underline"
                      >
                        {p.name}
                      </Link>
                      <p className="text-xs text-muted">Linked {formatRelative(linkedAt.get(p.id) ?? "")}</p>
                    </div>
                    <Button
                      variant="secondary"
                      size="sm"
                      className={cn(unlink.isPending && "opacity-60")}
                      disabled={unlink.isPending}
                      onClick={() =>
                        unlink.mutate({ params: { path: { project_id: p.id, dataset_id: dataset.id } } })
                      }
                    >
                      <Unlink aria-hidden className="h-4 w-4" /> Unlink
                      <span className="sr-only"> from {p.name}</span>
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        ) : null}
      </div>
    </Card>
  );
}
