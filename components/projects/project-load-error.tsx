import { FileQuestion } from "lucide-react";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LayerlineError } from "@/sdk/src/errors";

/** What a project page shows when its project cannot be loaded: gone (or not ours), or a failure. */
export function ProjectLoadError({ error }: { error: unknown }) {
  const notFound = error instanceof LayerlineError && error.status === 404;
  return (
    <EmptyState
      icon={FileQuestion}
      title={notFound ? "Project not found" : "The project could not be loaded"}
      action={
        <Link href="/projects" className={buttonClass("secondary")}>
          Back to projects
        </Link>
      }
    >
      {notFound
        ? "It may have been deleted, or it belongs to another account."
        : error instanceof Error
          ? error.message
          : "Please try again."}
    </EmptyState>
  );
}
