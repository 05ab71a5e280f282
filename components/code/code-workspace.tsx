"use client";

import { CircleAlert, Download, RefreshCw, Sparkles, Workflow } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useState } from "react";
import { ProjectLoadError } from "@/components/projects/project-load-error";
import { ProjectsCrumb } from "@/components/projects/projects-crumb";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { CopyButton } from "@/components/ui/copy-button";
import { useCodePreview, useCodeValidation } from "@/lib/api/codegen/queries";
import { useProject } from "@/lib/api/projects/queries";
import { LayerlineError } from "@/sdk/src/errors";
import { FileIcon, FileTree, languageLabel } from "./file-tree";
import {
  type CodegenTarget,
  downloadHref,
  errorText,
  formatBytes,
  formatTime,
  type GeneratedFile,
  lineCount,
  pickFile,
  targetLabel,
} from "./format";
import { GenerationBar } from "./generation-bar";
import { countLabel, type IssueLike, IssuesList } from "./issues-list";
import { ProjectTabs } from "./project-tabs";
import { TargetSwitch } from "./target-switch";
import { useCodeGeneration } from "./use-code-generation";

function EditorPlaceholder({ label = "Loading the editor…" }: { label?: string }) {
  return (
    <div className="flex h-full items-center justify-center bg-panel text-sm text-muted" role="status">
      {label}
    </div>
  );
}

// Monaco only in the browser, and only on this page.
const CodeViewer = dynamic(() => import("./code-viewer"), {
  ssr: false,
  loading: () => <EditorPlaceholder />,
});

/** A 422 from code-preview or generate-code: the graph cannot become code; `errors` say where. */
function rejection(error: unknown): LayerlineError | null {
  return error instanceof LayerlineError && error.status === 422 ? error : null;
}

type ProblemError = { message: string } & Partial<Omit<IssueLike, "message">>;

function rejectionIssues(error: LayerlineError): IssueLike[] {
  const errors = (error.problem?.errors ?? []) as ProblemError[];
  return errors.map((e) => ({
    node_id: e.node_id ?? null,
    port: e.port ?? null,
    param: e.param ?? null,
    code: e.code ?? "invalid",
    severity: e.severity ?? "error",
    message: e.message,
  }));
}

function Header({
  projectId,
  name,
  children,
}: {
  projectId: string;
  name: string | undefined;
  children?: React.ReactNode;
}) {
  return (
    <header className="flex h-12 shrink-0 items-center gap-2 border-b border-border bg-panel px-3">
      <ProjectsCrumb />
      <h1 className="min-w-0 max-w-[18rem] truncate px-2 text-sm font-semibold">{name ?? "…"}</h1>
      <ProjectTabs projectId={projectId} current="code" />
      <div className="ml-auto flex shrink-0 items-center gap-2 whitespace-nowrap">{children}</div>
    </header>
  );
}

function InvalidGraph({
  projectId,
  target,
  issues,
  detail,
  checking,
  onRecheck,
}: {
  projectId: string;
  target: CodegenTarget;
  issues: IssueLike[];
  detail: string | undefined;
  checking: boolean;
  onRecheck: () => void;
}) {
  return (
    <div className="flex min-h-0 flex-1 justify-center overflow-y-auto px-6 py-10" data-testid="code-invalid">
      <div className="h-fit w-full max-w-3xl rounded-xl border border-border bg-panel p-6 shadow-sm">
        <div className="flex items-start gap-4">
          <div className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-danger-soft text-danger">
            <CircleAlert aria-hidden className="h-5 w-5" />
          </div>
          <div className="min-w-0">
            <h2 className="text-base font-semibold">
              This diagram can&apos;t be turned into {targetLabel(target)} code yet
            </h2>
            <p className="mt-1 text-sm text-muted">
              {issues.length > 0
                ? `${countLabel(issues)} to fix in the diagram first. `
                : detail
                  ? `${detail} `
                  : null}
              The code is generated from the saved diagram, so it appears here as soon as the diagram is
              fixed.
            </p>
          </div>
        </div>
        {issues.length > 0 ? (
          <div className="mt-5">
            <IssuesList projectId={projectId} issues={issues} />
          </div>
        ) : null}
        <div className="mt-6 flex items-center gap-2">
          <Link
            href={`/projects/${encodeURIComponent(projectId)}`}
            className={buttonClass("secondary", "sm")}
          >
            <Workflow aria-hidden className="h-4 w-4" /> Open the diagram
          </Link>
          <Button variant="ghost" size="sm" onClick={onRecheck} disabled={checking}>
            <RefreshCw aria-hidden className={cn("h-4 w-4", checking && "animate-spin")} /> Check again
          </Button>
        </div>
      </div>
    </div>
  );
}

function FilesSkeleton() {
  return (
    <ul className="space-y-1.5 p-1" aria-hidden>
      {[70, 60, 85, 55].map((w) => (
        <li key={w} className="flex h-7 items-center gap-2 px-1">
          <span className="h-4 w-4 animate-pulse rounded bg-panel-2" />
          <span className="h-3 animate-pulse rounded bg-panel-2" style={{ width: `${w}%` }} />
        </li>
      ))}
    </ul>
  );
}

function FileHeader({ file }: { file: GeneratedFile }) {
  const lines = lineCount(file.content);
  return (
    <div className="flex h-11 shrink-0 items-center gap-2 border-b border-border bg-panel px-4">
      <FileIcon file={file} />
      <h2 className="truncate font-mono text-sm font-medium" data-testid="open-file">
        {file.path}
      </h2>
      <span className="truncate text-xs text-muted">
        {languageLabel(file.language)} · {lines} line{lines === 1 ? "" : "s"} · {formatBytes(file.size)}
      </span>
      <div className="ml-auto">
        <CopyButton value={file.content} />
      </div>
    </div>
  );
}

/** The Code tab of a project: generated files, Monaco, validation, async generation and the ZIP. */
export function CodeWorkspace({
  projectId,
  initialTarget,
}: {
  projectId: string;
  initialTarget: CodegenTarget;
}) {
  const [target, setTarget] = useState<CodegenTarget>(initialTarget);
  const [selected, setSelected] = useState<string | null>(null);

  const project = useProject(projectId);
  const preview = useCodePreview(projectId, target);
  const validation = useCodeValidation(projectId, target);
  const generation = useCodeGeneration(projectId);

  const changeTarget = (next: CodegenTarget) => {
    setTarget(next);
    generation.reset();
    const url = new URL(window.location.href);
    if (next === "pytorch") url.searchParams.delete("target");
    else url.searchParams.set("target", next);
    window.history.replaceState(window.history.state, "", url);
  };

  if (project.isError) return <ProjectLoadError error={project.error} />;

  const task = generation.task;
  const fromTask = generation.phase === "succeeded" && task?.target === target && task.files !== undefined;
  const files = (fromTask ? task?.files : preview.data?.files) ?? [];
  const openPath = pickFile(files, selected);
  const openFile = files.find((f) => f.path === openPath) ?? null;
  const totalSize = files.reduce((sum, f) => sum + f.size, 0);

  const rejected = rejection(preview.error) ?? generation.rejected;
  const rejectedIssues = rejected
    ? (() => {
        const fromProblem = rejectionIssues(rejected);
        return fromProblem.length > 0
          ? fromProblem
          : (validation.data?.issues.filter((i) => i.severity === "error") ?? []);
      })()
    : [];
  const issues: IssueLike[] = validation.data?.target === target ? validation.data.issues : [];
  const switching = preview.isPlaceholderData;
  const canDownload = !rejected && preview.isSuccess && !switching;

  return (
    <div className="-mx-4 -my-6 flex h-[calc(100dvh-3rem)] min-w-0 flex-col bg-bg md:-mx-8 md:-my-8 md:h-screen">
      <Header projectId={projectId} name={project.data?.name}>
        <TargetSwitch value={target} onChange={changeTarget} disabled={generation.running} />
        <span aria-hidden className="mx-1 h-5 w-px bg-border" />
        <Button
          size="sm"
          onClick={() => generation.generate(target)}
          disabled={generation.running || rejected !== null}
          title={`Generate the ${targetLabel(target)} project as a background task`}
        >
          <Sparkles aria-hidden className="h-4 w-4" />
          {generation.running ? "Generating…" : "Generate"}
        </Button>
        {canDownload ? (
          <a
            href={downloadHref(projectId, target)}
            download
            className={buttonClass("secondary", "sm")}
            title={`Download the ${targetLabel(target)} project as a ZIP`}
          >
            <Download aria-hidden className="h-4 w-4" /> Download ZIP
          </a>
        ) : (
          <Button variant="secondary" size="sm" disabled>
            <Download aria-hidden className="h-4 w-4" /> Download ZIP
          </Button>
        )}
      </Header>

      <GenerationBar
        phase={generation.phase}
        task={task}
        error={generation.error}
        cancelling={generation.cancelling}
        target={target}
        onCancel={generation.cancel}
        onDismiss={generation.reset}
        onRetry={() => generation.generate(target)}
      />

      {rejected ? (
        <InvalidGraph
          projectId={projectId}
          target={target}
          issues={rejectedIssues}
          detail={rejected.problem?.detail}
          checking={preview.isFetching}
          onRecheck={() => {
            generation.reset();
            preview.refetch();
            validation.refetch();
          }}
        />
      ) : preview.isError && !fromTask ? (
        <div className="mx-auto mt-10 w-full max-w-xl space-y-3 px-6">
          <Alert>The code could not be generated: {errorText(preview.error)}</Alert>
          <Button variant="secondary" size="sm" onClick={() => preview.refetch()}>
            <RefreshCw aria-hidden className="h-4 w-4" /> Try again
          </Button>
        </div>
      ) : (
        <div className="flex min-h-0 flex-1">
          <aside
            aria-label="Generated files"
            className="flex w-64 shrink-0 flex-col border-r border-border bg-panel"
          >
            <div className="flex h-11 shrink-0 items-center justify-between gap-2 border-b border-border px-3">
              <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">Files</h2>
              <span
                className={cn(
                  "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium",
                  fromTask ? "bg-ok-soft text-ok" : "bg-accent-soft text-accent",
                )}
                data-testid="code-source"
                title={
                  fromTask
                    ? `Output of generation task ${task?.task_id ?? ""}`
                    : "Generated from the saved diagram each time this page opens"
                }
              >
                {fromTask ? "Generated" : "Live preview"}
              </span>
            </div>
            <div className="min-h-0 flex-1 overflow-y-auto p-2" aria-busy={preview.isPending || switching}>
              {preview.isPending && !fromTask ? (
                <FilesSkeleton />
              ) : (
                <FileTree files={files} selected={openPath} onSelect={setSelected} />
              )}
            </div>
            <div className="shrink-0 border-t border-border px-3 py-2.5 text-xs text-muted">
              {files.length > 0 ? (
                <p>
                  {files.length} files · {formatBytes(totalSize)} · {targetLabel(target)}
                </p>
              ) : null}
              {fromTask && task?.generated_at ? (
                <p className="mt-0.5">Generated at {formatTime(task.generated_at)}</p>
              ) : preview.data?.generated_at ? (
                <p className="mt-0.5">Preview of {formatTime(preview.data.generated_at)}</p>
              ) : null}
            </div>
          </aside>

          <section aria-label="Code" className="flex min-w-0 flex-1 flex-col">
            {issues.length > 0 ? (
              <div
                className="max-h-56 shrink-0 overflow-y-auto border-b border-border bg-panel px-4 py-3"
                data-testid="code-issues"
              >
                <h2 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
                  Validation · {countLabel(issues)}
                </h2>
                <IssuesList projectId={projectId} issues={issues} />
              </div>
            ) : null}
            {openFile ? (
              <>
                <FileHeader file={openFile} />
                <div className="min-h-0 flex-1 bg-panel">
                  <CodeViewer projectId={projectId} target={target} file={openFile} />
                </div>
              </>
            ) : (
              <div className="min-h-0 flex-1">
                <EditorPlaceholder label={preview.isPending ? "Generating the preview…" : "No files"} />
              </div>
            )}
          </section>
        </div>
      )}
    </div>
  );
}
