import { Network } from "lucide-react";
import Link from "next/link";
import type { Schemas } from "@/lib/api/client";

/** A profile's public projects: each opens its read-only page, from which it can be imported. */
export function PublicProjectsList({
  username,
  projects,
  isMe,
}: {
  username: string;
  projects: Schemas["PublicProjectSummary"][];
  isMe: boolean;
}) {
  return (
    <section aria-labelledby="profile-projects" className="space-y-3">
      <h2 id="profile-projects" className="flex items-center gap-2 text-base font-semibold">
        <Network aria-hidden className="h-4 w-4 text-accent" /> Public projects
      </h2>
      {projects.length > 0 ? (
        <ul
          aria-label={`Public projects by ${username}`}
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
        >
          {projects.map((p) => (
            <li key={p.id}>
              <Link
                href={`/u/${encodeURIComponent(username)}/projects/${encodeURIComponent(p.id)}`}
                className="block h-full rounded-lg border border-border bg-panel px-4 py-3 transition-colors hover:border-accent"
              >
                <span className="block truncate font-medium">{p.name}</span>
                <span className="mt-1 line-clamp-2 block text-sm text-muted">
                  {p.description || "No description."}
                </span>
                <span className="mt-2 block text-xs text-muted">
                  {p.node_count} layer{p.node_count === 1 ? "" : "s"} · updated{" "}
                  {new Date(p.updated_at).toLocaleDateString("en", {
                    day: "numeric",
                    month: "short",
                    year: "numeric",
                  })}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted">
          {isMe
            ? "None yet: open a project's Share dialog and make it public to list it here."
            : `${username} has no public projects yet.`}
        </p>
      )}
    </section>
  );
}
