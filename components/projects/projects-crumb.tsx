import { ChevronLeft } from "lucide-react";
import Link from "next/link";

/** "‹ Projects /": the way back to the list, at the start of a project page's header. */
export function ProjectsCrumb() {
  return (
    <>
      <Link
        href="/projects"
        aria-label="Projects"
        className="inline-flex h-8 shrink-0 items-center gap-1 rounded-md pr-2 pl-1 text-sm text-muted hover:bg-panel-2 hover:text-fg"
      >
        <ChevronLeft aria-hidden className="h-4 w-4" /> <span className="hidden sm:inline">Projects</span>
      </Link>
      <span aria-hidden className="hidden text-border sm:inline">
        /
      </span>
    </>
  );
}
