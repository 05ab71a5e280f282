import type { Schemas } from "@/lib/api/client";

export type CodegenTarget = Schemas["GeneratedCode"]["target"];
export type GeneratedFile = Schemas["GeneratedFile"];
export type CodegenIssue = Schemas["CodegenIssue"];
export type CodegenTask = Schemas["CodegenTask"];

export const TARGETS: { id: CodegenTarget; label: string; hint: string }[] = [
  { id: "pytorch", label: "PyTorch", hint: "Python: model.py, train.py, requirements.txt" },
  { id: "tfjs", label: "TensorFlow.js", hint: "Node.js: model.mjs, train.mjs, package.json" },
];

export function targetLabel(target: CodegenTarget): string {
  return TARGETS.find((t) => t.id === target)?.label ?? target;
}

export function parseTarget(value: string | null | undefined): CodegenTarget {
  return value === "tfjs" ? "tfjs" : "pytorch";
}

/** 808 B, 11.2 KB, 1.4 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

export function lineCount(content: string): number {
  if (!content) return 0;
  const n = content.split("\n").length;
  return content.endsWith("\n") ? n - 1 : n;
}

/** "model.py" → "model": the same file in the other target (model.py ↔ model.mjs). */
export function fileStem(path: string): string {
  const name = path.split("/").pop() ?? path;
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Keeps the open file across targets and regenerations: same path, else same stem, else the first. */
export function pickFile(files: GeneratedFile[], current: string | null): string | null {
  if (files.length === 0) return null;
  if (current) {
    if (files.some((f) => f.path === current)) return current;
    const stem = fileStem(current);
    const twin = files.find((f) => fileStem(f.path) === stem);
    if (twin) return twin.path;
  }
  return files[0].path;
}

export function showInDiagramHref(projectId: string, nodeId: string): string {
  return `/projects/${encodeURIComponent(projectId)}?focus=${encodeURIComponent(nodeId)}`;
}

export function downloadHref(projectId: string, target: CodegenTarget): string {
  return `/api/v1/projects/${encodeURIComponent(projectId)}/download-code?target=${target}`;
}

export function formatTime(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ""
    : d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** The message of a failed call (the client throws LayerlineError, whatever the generated types say). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : "Something went wrong. Please try again.";
}
