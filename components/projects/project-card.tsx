"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Copy, Layers, Trash2 } from "lucide-react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { $api, type Schemas } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import { formatRelativeTime } from "@/lib/editor/format";

type Project = Schemas["ProjectSummary"];

/**
 * The picture the editor uploaded of the canvas or, for a project never opened in the editor (a
 * template, an import, made through the API), the diagram as the server draws it.
 */
function previewUrl(project: Project): string | null {
  const base =
    project.thumbnail_url ?? (project.node_count > 0 ? `/api/v1/projects/${project.id}/preview` : null);
  return base && `${base}?v=${encodeURIComponent(project.updated_at)}`;
}

function Thumbnail({ project }: { project: Project }) {
  const src = previewUrl(project);
  if (src) {
    return (
      // biome-ignore lint/performance/noImgElement: a private, cookie-authenticated image; next/image cannot optimise it
      <img
        src={src}
        alt={`${project.name} diagram`}
        loading="lazy"
        className="h-full w-full object-contain"
      />
    );
  }
  return (
    <div className="flex h-full w-full flex-col items-center justify-center gap-2 text-muted">
      <svg viewBox="0 0 120 70" className="h-14 w-24 opacity-60" aria-hidden>
        <rect x="40" y="2" width="40" height="14" rx="4" className="fill-border" />
        <rect x="40" y="28" width="40" height="14" rx="4" className="fill-border" />
        <rect x="40" y="54" width="40" height="14" rx="4" className="fill-border" />
        <path d="M60 16v12M60 42v12" className="stroke-border" strokeWidth="2" />
      </svg>
      <span className="text-xs">Empty canvas</span>
    </div>
  );
}

export function ProjectCard({
  project,
  selected,
  selecting,
  onToggle,
  onDelete,
}: {
  project: Project;
  selected: boolean;
  /** Some project is selected: show every checkbox. */
  selecting: boolean;
  onToggle: () => void;
  onDelete: () => void;
}) {
  const queryClient = useQueryClient();
  const duplicate = $api.useMutation("post", "/api/v1/projects/{project_id}/duplicate", {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.list }),
  });
  return (
    <li
      data-testid="project-card"
      className={cn(
        "group relative flex flex-col overflow-hidden rounded-xl border bg-panel shadow-sm transition hover:shadow-md",
        selected ? "border-accent ring-1 ring-accent" : "border-border",
      )}
    >
      <div className="relative aspect-[16/10] border-b border-border bg-bg">
        <Thumbnail project={project} />
        <label
          className={cn(
            "absolute top-2 left-2 z-10 flex h-7 w-7 items-center justify-center rounded-md border border-border bg-panel shadow-sm",
            selecting || selected
              ? "opacity-100"
              : "opacity-0 group-focus-within:opacity-100 group-hover:opacity-100",
          )}
        >
          <input
            type="checkbox"
            checked={selected}
            onChange={onToggle}
            className="h-4 w-4 accent-[var(--accent)]"
            aria-label={`Select ${project.name}`}
          />
        </label>
      </div>
      <div className="flex flex-1 flex-col gap-1 px-4 pt-3 pb-3">
        <h2 className="truncate text-sm font-semibold">
          <Link href={`/projects/${project.id}`} className="after:absolute after:inset-0 hover:text-accent">
            {project.name}
          </Link>
        </h2>
        <p className="line-clamp-2 min-h-8 text-xs text-muted">{project.description || "No description"}</p>
        <div className="mt-auto flex items-center justify-between pt-2">
          <span className="inline-flex items-center gap-1.5 text-xs text-muted">
            <Layers aria-hidden className="h-3.5 w-3.5" />
            {project.node_count} layer{project.node_count === 1 ? "" : "s"} ·{" "}
            {formatRelativeTime(project.updated_at)}
          </span>
          <span className="relative z-10 flex gap-0.5">
            <button
              type="button"
              onClick={() => duplicate.mutate({ params: { path: { project_id: project.id } } })}
              disabled={duplicate.isPending}
              aria-label={`Duplicate ${project.name}`}
              title="Duplicate"
              className="inline-flex h-7 w-7 items-center justify-center rounded-md text-muted hover:bg-panel-2 hover:text-fg disabled:opacity-50"
            >
              <Copy aria-hidden className="h-3.5 w-3.5" />
            </button>
            <button
              type="button"
              onClick={onDelete}
              aria-label={`Delete ${project.name}`}
              title="Delete"
              className="inline-flex h-7 w-7 items-center justify-center rounded-md text-muted hover:bg-danger-soft hover:text-danger"
            >
              <Trash2 aria-hidden className="h-3.5 w-3.5" />
            </button>
          </span>
        </div>
      </div>
    </li>
  );
}
