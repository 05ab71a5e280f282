import { CircleAlert, LocateFixed, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { type CodegenIssue, showInDiagramHref } from "./format";

/** An issue from POST validate, or an entry of a 422's `errors` (the same fields, plus a path). */
export type IssueLike = Pick<CodegenIssue, "node_id" | "port" | "param" | "code" | "severity" | "message">;

function where(issue: IssueLike): string {
  return [
    issue.code,
    issue.node_id ? `node ${issue.node_id}` : "whole graph",
    issue.port !== null && issue.port !== undefined ? `input ${issue.port}` : null,
    issue.param ? issue.param : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

export function countLabel(issues: IssueLike[]): string {
  const errors = issues.filter((i) => i.severity === "error").length;
  const warnings = issues.length - errors;
  return [
    errors ? `${errors} error${errors === 1 ? "" : "s"}` : null,
    warnings ? `${warnings} warning${warnings === 1 ? "" : "s"}` : null,
  ]
    .filter(Boolean)
    .join(", ");
}

/** Errors (red) first, then warnings (amber); each node issue links to that node in the diagram. */
export function IssuesList({ projectId, issues }: { projectId: string; issues: IssueLike[] }) {
  const sorted = [...issues].sort(
    (a, b) => Number(a.severity === "warning") - Number(b.severity === "warning"),
  );
  return (
    <ul className="space-y-1.5">
      {sorted.map((issue, i) => {
        const error = issue.severity === "error";
        const Icon = error ? CircleAlert : TriangleAlert;
        return (
          <li
            // Issues have no id; the same node can have several.
            // biome-ignore lint/suspicious/noArrayIndexKey: a static list, rebuilt as a whole
            key={i}
            data-testid="code-issue"
            data-severity={issue.severity}
            className={cn(
              "flex items-start gap-3 rounded-md border px-3 py-2",
              error ? "border-danger/35 bg-danger-soft" : "border-warn/35 bg-warn-soft",
            )}
          >
            <Icon
              role="img"
              aria-label={error ? "Error" : "Warning"}
              className={cn("mt-0.5 h-4 w-4 shrink-0", error ? "text-danger" : "text-warn")}
            />
            <div className="min-w-0 flex-1">
              <p className="text-sm text-fg">{issue.message}</p>
              <p className={cn("mt-0.5 font-mono text-xs", error ? "text-danger" : "text-warn")}>
                {where(issue)}
              </p>
            </div>
            {issue.node_id ? (
              <Link
                href={showInDiagramHref(projectId, issue.node_id)}
                className={cn(
                  "inline-flex h-7 shrink-0 items-center gap-1.5 rounded-md border bg-panel px-2.5 text-xs font-medium hover:bg-panel-2",
                  error ? "border-danger/35 text-danger" : "border-warn/35 text-warn",
                )}
                aria-label={`Show in diagram: node ${issue.node_id}`}
              >
                <LocateFixed aria-hidden className="h-3.5 w-3.5" />
                Show in diagram
              </Link>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
