"use client";

import { useReactFlow } from "@xyflow/react";
import {
  FileDown,
  FileUp,
  Keyboard,
  Maximize,
  Play,
  Redo2,
  Ruler,
  Save,
  Share2,
  Undo2,
  Workflow,
} from "lucide-react";
import { useSearchParams } from "next/navigation";
import { type ReactNode, useCallback, useState } from "react";
import { ProjectTabs } from "@/components/code/project-tabs";
import { ProjectsCrumb } from "@/components/projects/projects-crumb";
import { Button } from "@/components/ui/button";
import { useEditorStore } from "./editor-store-context";
import { LazyFitDatasetDialog, LazyTrainDialog, useOpenedOnce } from "./lazy-parts";
import { ProjectNameInput } from "./project-name-input";
import { SaveStatusText } from "./save-status";
import { useAutoLayout } from "./use-auto-layout";
import type { SaveStatus } from "./use-autosave";
import { useFitModel } from "./use-fit-model";

function IconButton({
  label,
  shortcut,
  onClick,
  disabled,
  children,
}: {
  label: string;
  shortcut?: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={shortcut ? `${label} (${shortcut})` : label}
      aria-keyshortcuts={shortcut}
      onClick={onClick}
      disabled={disabled}
      className="inline-flex h-8 w-8 items-center justify-center rounded-md text-muted hover:bg-panel-2 hover:text-fg disabled:pointer-events-none disabled:opacity-40"
    >
      {children}
    </button>
  );
}

export function EditorToolbar({
  projectId,
  name,
  saveStatus,
  onRetrySave,
  onShare,
  onSaveVersion,
  onHelp,
  onExportDag,
  onReplaceFromDag,
  flushSave,
  onNotice,
}: {
  projectId: string;
  name: string;
  saveStatus: SaveStatus;
  onRetrySave: () => void;
  onShare: () => void;
  onSaveVersion: () => void;
  onHelp: () => void;
  onExportDag: () => void;
  onReplaceFromDag: () => void;
  /** Saves the diagram now (the editor's autosave), so that a job trains what is on screen. */
  flushSave: () => Promise<void>;
  /** A short message over the canvas. */
  onNotice: (text: string) => void;
}) {
  const canUndo = useEditorStore((s) => s.history.past.length > 0);
  const canRedo = useEditorStore((s) => s.history.future.length > 0);
  const undo = useEditorStore((s) => s.undo);
  const redo = useEditorStore((s) => s.redo);
  const empty = useEditorStore((s) => s.nodes.length === 0);
  const layout = useAutoLayout();
  const { fitView } = useReactFlow();
  const training = useEditorStore((s) => s.training);
  // "Train a model on this data" opens the new project with ?train=1: the Train dialog, at once.
  const searchParams = useSearchParams();
  const [trainOpen, setTrainOpen] = useState(() => searchParams.get("train") === "1");
  const trainOpened = useOpenedOnce(trainOpen);
  const [fitOpen, setFitOpen] = useState(false);
  const fitOpened = useOpenedOnce(fitOpen);
  const fitModel = useFitModel({ flush: flushSave });
  /** "Fit to dataset" (toolbar or Train dialog): one undoable step, saved, the fit verdicts re-read. */
  const fitTo = useCallback(
    async (dataset: { name: string; shape: Parameters<typeof fitModel>[0] | null }) => {
      if (!dataset.shape) return;
      // Saved at once; the save re-reads the fit verdicts (use-autosave.ts).
      const plan = await fitModel(dataset.shape);
      if (plan.changed)
        onNotice(
          `Fitted to “${dataset.name}”: ${plan.mismatches
            .filter((m) => m.fix)
            .map((m) => m.fix)
            .join("; ")}. Ctrl+Z undoes it.`,
        );
    },
    [fitModel, onNotice],
  );
  return (
    <header className="flex h-12 shrink-0 items-center gap-2 overflow-hidden border-b border-border bg-panel px-3">
      <ProjectsCrumb />
      <ProjectNameInput projectId={projectId} name={name} />
      {/* Diagram | Code: the Code tab lives in components/code. */}
      <ProjectTabs projectId={projectId} current="diagram" />
      <span className="contents max-md:hidden">
        <SaveStatusText status={saveStatus} onRetry={onRetrySave} />
      </span>
      {layout.error ? (
        <span role="alert" className="text-xs text-danger">
          {layout.error}
        </span>
      ) : null}
      <div className="ml-auto flex items-center gap-0.5">
        {/* On a phone the editor is for viewing: editing tools show from the md breakpoint up. */}
        <div className="hidden md:contents">
          <IconButton label="Undo" shortcut="Control+Z" onClick={undo} disabled={!canUndo}>
            <Undo2 aria-hidden className="h-4 w-4" />
          </IconButton>
          <IconButton label="Redo" shortcut="Control+Shift+Z" onClick={redo} disabled={!canRedo}>
            <Redo2 aria-hidden className="h-4 w-4" />
          </IconButton>
          <span aria-hidden className="mx-1 h-5 w-px bg-border" />
          <IconButton label="Auto-layout" onClick={layout.run} disabled={empty || layout.busy}>
            <Workflow aria-hidden className="h-4 w-4" />
          </IconButton>
        </div>
        <IconButton
          label="Fit view"
          onClick={() => fitView({ duration: 300, maxZoom: 1, padding: 0.15, includeHiddenNodes: true })}
          disabled={empty}
        >
          <Maximize aria-hidden className="h-4 w-4" />
        </IconButton>
        <div className="hidden md:contents">
          <span aria-hidden className="mx-1 h-5 w-px bg-border" />
          <IconButton label="Export DAG file" onClick={onExportDag}>
            <FileDown aria-hidden className="h-4 w-4" />
          </IconButton>
          <IconButton label="Replace from DAG file" onClick={onReplaceFromDag}>
            <FileUp aria-hidden className="h-4 w-4" />
          </IconButton>
          <IconButton label="Keyboard shortcuts" shortcut="?" onClick={onHelp}>
            <Keyboard aria-hidden className="h-4 w-4" />
          </IconButton>
          <span aria-hidden className="mx-1 h-5 w-px bg-border" />
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setFitOpen(true)}
            disabled={empty}
            aria-label="Fit to dataset"
            title="Adapt the model's inputs and outputs to a dataset"
          >
            <Ruler aria-hidden className="h-4 w-4" />
            <span className="hidden min-[1600px]:inline">Fit to dataset</span>
          </Button>
          <Button variant="secondary" size="sm" onClick={onShare}>
            <Share2 aria-hidden className="h-4 w-4" /> Share
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setTrainOpen(true)}
            disabled={empty}
            aria-label="Train"
            title="Train this model on a dataset"
          >
            <Play aria-hidden className="h-4 w-4" />
            {/* On narrow screens the icon alone leaves room for the project name. */}
            <span className="hidden min-[1400px]:inline">Train</span>
          </Button>
          <Button
            size="sm"
            onClick={onSaveVersion}
            title="Save version (Ctrl+S)"
            aria-keyshortcuts="Control+S"
          >
            <Save aria-hidden className="h-4 w-4" /> Save version
          </Button>
        </div>
      </div>
      {trainOpened ? (
        <LazyTrainDialog
          open={trainOpen}
          onClose={() => setTrainOpen(false)}
          projectId={projectId}
          projectConfig={training}
          saveState={saveStatus === "saved" ? "saved" : saveStatus === "error" ? "failed" : "saving"}
          onFitModel={fitTo}
        />
      ) : null}
      {fitOpened ? (
        <LazyFitDatasetDialog
          open={fitOpen}
          onClose={() => setFitOpen(false)}
          projectId={projectId}
          onFit={fitTo}
        />
      ) : null}
    </header>
  );
}
