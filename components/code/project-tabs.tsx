import { Code2, Workflow } from "lucide-react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";

export type ProjectView = "diagram" | "code";

/** "Diagram | Code": the two views of one project, shown in the header of both. */
export function ProjectTabs({ projectId, current }: { projectId: string; current: ProjectView }) {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  const tabs = [
    { id: "diagram" as const, label: "Diagram", href: base, icon: Workflow },
    { id: "code" as const, label: "Code", href: `${base}/code`, icon: Code2 },
  ];
  return (
    <nav aria-label="Project views" className="shrink-0">
      <ul className="flex items-center gap-0.5 rounded-lg bg-panel-2 p-0.5">
        {tabs.map(({ id, label, href, icon: Icon }) => {
          const active = id === current;
          return (
            <li key={id}>
              <Link
                href={href}
                // Prefetching the Code tab would pull Monaco (megabytes) into the diagram editor.
                prefetch={id === "code" ? false : undefined}
                aria-current={active ? "page" : undefined}
                data-testid={`project-tab-${id}`}
                title={label}
                className={cn(
                  "inline-flex h-7 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium transition-colors",
                  active ? "bg-panel text-fg shadow-sm ring-1 ring-border" : "text-muted hover:text-fg",
                )}
              >
                <Icon aria-hidden className={cn("h-3.5 w-3.5", active && "text-accent")} />
                {/* Icons only on narrow screens, where the editor's toolbar is full. */}
                <span className="max-xl:sr-only">{label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
