"use client";

import { AlertTriangle, CheckCircle2, ChevronUp, CircleAlert } from "lucide-react";
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { formatCount, formatFlops, groupThousands } from "@/lib/editor/format";
import { useAnalysis, useEditorStore } from "./editor-store-context";
import { useFocusNode } from "./use-focus-node";

function IssuesList({ onPick }: { onPick: (id: string) => void }) {
  const errors = useAnalysis((d) => d.errors);
  const warnings = useAnalysis((d) => d.warnings);
  const all = [...errors, ...warnings];
  const shown = all.slice(0, 200);
  return (
    <section
      aria-label="Issues"
      id="editor-issues"
      className="absolute right-2 bottom-11 z-20 w-[28rem] max-w-[calc(100%-1rem)] rounded-lg border border-border bg-panel shadow-xl"
    >
      <header className="border-b border-border px-3 py-2 text-xs font-semibold">
        {errors.length} error{errors.length === 1 ? "" : "s"}, {warnings.length} warning
        {warnings.length === 1 ? "" : "s"}
      </header>
      {all.length === 0 ? (
        <p className="px-3 py-4 text-sm text-muted">No issues: every shape checks out.</p>
      ) : (
        <ul className="max-h-72 overflow-y-auto py-1">
          {shown.map((issue, i) => {
            const Icon = issue.severity === "error" ? CircleAlert : AlertTriangle;
            const content = (
              <>
                <Icon
                  aria-hidden
                  className={cn(
                    "mt-0.5 h-3.5 w-3.5 shrink-0",
                    issue.severity === "error" ? "text-danger" : "text-warn",
                  )}
                />
                <span className="min-w-0">{issue.message}</span>
              </>
            );
            const key = `${issue.code}:${issue.nodeId ?? ""}:${issue.port ?? ""}:${i}`;
            return (
              <li key={key}>
                {issue.nodeId ? (
                  <button
                    type="button"
                    data-testid="issue"
                    onClick={() => onPick(issue.nodeId as string)}
                    className="flex w-full items-start gap-2 px-3 py-1.5 text-left text-xs hover:bg-panel-2"
                  >
                    {content}
                  </button>
                ) : (
                  <div data-testid="issue" className="flex items-start gap-2 px-3 py-1.5 text-xs">
                    {content}
                  </div>
                )}
              </li>
            );
          })}
          {all.length > shown.length ? (
            <li className="px-3 py-1.5 text-xs text-muted">…and {all.length - shown.length} more</li>
          ) : null}
        </ul>
      )}
    </section>
  );
}

/** Totals of the model and its issues; clicking an issue selects and centres its node. */
export function StatusBar() {
  const [open, setOpen] = useState(false);
  const layers = useEditorStore((s) => s.nodes.length);
  const totalParams = useAnalysis((d) => d.analysis.totalParams);
  const totalFlops = useAnalysis((d) => d.analysis.totalFlops);
  const errorCount = useAnalysis((d) => d.errors.length);
  const warningCount = useAnalysis((d) => d.warnings.length);
  const focusNode = useFocusNode();
  return (
    <footer className="relative flex h-10 shrink-0 items-center gap-5 border-t border-border bg-panel px-4 text-xs text-muted">
      <span>
        <span className="font-semibold text-fg tabular-nums">{groupThousands(layers)}</span> layer
        {layers === 1 ? "" : "s"}
      </span>
      <span title={`${groupThousands(totalParams)} trainable parameters`} data-testid="total-params">
        Params <span className="font-semibold text-fg tabular-nums">{formatCount(totalParams)}</span>
      </span>
      <span title="Forward FLOPs per sample" data-testid="total-flops">
        FLOPs{" "}
        <span className="font-semibold text-fg tabular-nums">
          {formatFlops(totalFlops).replace(" FLOPs", "")}
        </span>
      </span>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="editor-issues"
        data-testid="issues-toggle"
        onClick={() => setOpen((o) => !o)}
        className={cn(
          "ml-auto inline-flex h-7 items-center gap-1.5 rounded-md px-2.5 font-medium",
          errorCount > 0
            ? "bg-danger-soft text-danger"
            : warningCount > 0
              ? "bg-warn-soft text-warn"
              : "bg-ok-soft text-ok",
        )}
      >
        {errorCount > 0 ? (
          <CircleAlert aria-hidden className="h-3.5 w-3.5" />
        ) : warningCount > 0 ? (
          <AlertTriangle aria-hidden className="h-3.5 w-3.5" />
        ) : (
          <CheckCircle2 aria-hidden className="h-3.5 w-3.5" />
        )}
        {errorCount + warningCount === 0
          ? "No issues"
          : [
              errorCount ? `${errorCount} error${errorCount === 1 ? "" : "s"}` : null,
              warningCount ? `${warningCount} warning${warningCount === 1 ? "" : "s"}` : null,
            ]
              .filter(Boolean)
              .join(", ")}
        <ChevronUp aria-hidden className={cn("h-3.5 w-3.5 transition-transform", !open && "rotate-180")} />
      </button>
      {open ? (
        <IssuesList
          onPick={(id) => {
            focusNode(id);
          }}
        />
      ) : null}
    </footer>
  );
}
