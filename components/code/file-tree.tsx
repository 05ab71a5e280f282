"use client";

import { FileBraces, FileCode2, FileText, type LucideIcon, Package } from "lucide-react";
import type { KeyboardEvent } from "react";
import { cn } from "@/components/ui/cn";
import { formatBytes, type GeneratedFile } from "./format";

const ICONS: Record<GeneratedFile["language"], { icon: LucideIcon; className: string; label: string }> = {
  python: { icon: FileCode2, className: "text-sky-600 dark:text-sky-400", label: "Python" },
  javascript: { icon: FileCode2, className: "text-amber-600 dark:text-amber-400", label: "JavaScript" },
  json: { icon: FileBraces, className: "text-orange-600 dark:text-orange-400", label: "JSON" },
  markdown: { icon: FileText, className: "text-violet-600 dark:text-violet-400", label: "Markdown" },
  plaintext: { icon: FileText, className: "text-muted", label: "Text" },
};

/** Dependency manifests get a package icon whatever their format. */
const MANIFESTS = new Set(["requirements.txt", "package.json"]);

export function languageLabel(language: GeneratedFile["language"]): string {
  return ICONS[language]?.label ?? language;
}

export function FileIcon({ file, className }: { file: GeneratedFile; className?: string }) {
  const entry = ICONS[file.language] ?? ICONS.plaintext;
  const Icon = MANIFESTS.has(file.path) ? Package : entry.icon;
  return <Icon aria-hidden className={cn("h-4 w-4 shrink-0", entry.className, className)} />;
}

/** The generated project's files: a list of buttons, the open one marked with aria-current. */
export function FileTree({
  files,
  selected,
  onSelect,
}: {
  files: GeneratedFile[];
  selected: string | null;
  onSelect: (path: string) => void;
}) {
  // Up and down arrows move through the files, like a file explorer.
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const buttons = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>("button[data-path]"));
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (i < 0) return;
    e.preventDefault();
    const next = buttons[(i + (e.key === "ArrowDown" ? 1 : buttons.length - 1)) % buttons.length];
    next.focus();
    if (next.dataset.path) onSelect(next.dataset.path);
  };
  return (
    <ul className="space-y-0.5" onKeyDown={onKeyDown} data-testid="file-tree">
      {files.map((file) => {
        const active = file.path === selected;
        return (
          <li key={file.path}>
            <button
              type="button"
              data-path={file.path}
              aria-current={active ? "true" : undefined}
              onClick={() => onSelect(file.path)}
              title={`${file.path} · ${languageLabel(file.language)} · ${formatBytes(file.size)}`}
              className={cn(
                "group flex h-8 w-full items-center gap-2 rounded-md px-2 text-left text-sm transition-colors",
                active ? "bg-accent-soft font-medium text-fg" : "text-fg/85 hover:bg-panel-2 hover:text-fg",
              )}
            >
              <FileIcon file={file} />
              <span className="min-w-0 flex-1 truncate font-mono text-[13px]">{file.path}</span>
              <span
                className={cn(
                  "shrink-0 text-xs tabular-nums",
                  active ? "text-fg/70" : "text-muted group-hover:text-fg/70",
                )}
              >
                {formatBytes(file.size)}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
