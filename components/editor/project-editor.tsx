"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ReactFlowProvider, useNodesInitialized, useReactFlow, useStoreApi } from "@xyflow/react";
import { MousePointerSquareDashed } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { ProjectLoadError } from "@/components/projects/project-load-error";
import { cn } from "@/components/ui/cn";
import { useRestoreVersion } from "@/components/versions/use-restore-version";
import type { Schemas } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import { useProject } from "@/lib/api/projects/queries";
import { EditorCanvas } from "./editor-canvas";
import { EditorStoreProvider, useEditorStore } from "./editor-store-context";
import { EditorToolbar } from "./editor-toolbar";
import { Inspector } from "./inspector";
import {
  LazyReplaceFromDagDialog,
  LazySaveVersionDialog,
  LazyShareDialog,
  LazyShortcutsDialog,
  LazyTrainingForm,
  LazyVersionsPanel,
  useOpenedOnce,
  usePreloadEditorParts,
} from "./lazy-parts";
import { Palette } from "./palette";
import { PhoneInspector } from "./phone-inspector";
import { SidePanel } from "./side-panel";
import { StatusBar } from "./status-bar";
import { useAutosave } from "./use-autosave";
import { useExportDag, useReplaceFromDag } from "./use-dag-file";
import { useEditorShortcuts } from "./use-editor-shortcuts";
import { useFocusNode } from "./use-focus-node";
import { useThumbnailUpload } from "./use-thumbnail";
import { useUnsavedGuard } from "./use-unsaved-guard";

type Dialog = "save" | "share" | "help" | "import" | null;

/** A short message over the canvas: news ("Saved version 2") or why something did not happen. */
type Notice = { text: string; tone: "ok" | "warn" };

/** What a blank canvas says to someone who has not added a layer yet. */
function EmptyCanvasHint() {
  const empty = useEditorStore((s) => s.nodes.length === 0);
  if (!empty) return null;
  return (
    <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-8">
      <div className="max-w-sm rounded-xl border-2 border-dashed border-border bg-panel/80 px-6 py-8 text-center">
        <MousePointerSquareDashed aria-hidden className="mx-auto mb-3 h-8 w-8 text-accent" />
        <p className="text-sm font-semibold">Drag layers here from the palette</p>
        <p className="mt-1 text-xs text-muted">
          Start with an Input, add layers below it, and connect each layer&apos;s bottom handle to the next
          one&apos;s top handle. Shapes are checked as you go.
        </p>
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------
// `?focus=<nodeId>` (the Code tab's "Show in diagram"): once the diagram has been measured and fitted,
// select that node and centre it.

function FocusFromQuery() {
  const focus = useSearchParams().get("focus");
  const focusNode = useFocusNode();
  const initialized = useNodesInitialized();
  const flow = useStoreApi();
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!focus || !initialized || done.current === focus) return;
    let frame = 0;
    const attempt = () => {
      // The opening fit is queued until every node is measured: centre after it, not under it.
      if (flow.getState().fitViewQueued) {
        frame = requestAnimationFrame(attempt);
        return;
      }
      done.current = focus;
      if (flow.getState().nodeLookup.has(focus)) focusNode(focus);
    };
    frame = requestAnimationFrame(attempt);
    return () => cancelAnimationFrame(frame);
  }, [focus, initialized, flow, focusNode]);
  return null;
}

// ---------------------------------------------------------------------------------------------------

function Workspace({ project }: { project: Schemas["Project"] }) {
  const projectId = project.id;
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const autosave = useAutosave(projectId);
  const restore = useRestoreVersion(projectId, autosave);
  const exportDag = useExportDag(project.name);
  const replaceFromDag = useReplaceFromDag(projectId, autosave);
  const { fitView } = useReactFlow();
  const uploadThumbnail = useThumbnailUpload(projectId);
  useUnsavedGuard(autosave.isDirty, autosave.flush);
  const openSave = useCallback(() => setDialog("save"), []);
  useEditorShortcuts({
    onSave: openSave,
    onHelp: () => setDialog("help"),
    onNotice: (text) => setNotice({ text, tone: "warn" }),
  });

  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => setNotice(null), notice.tone === "warn" ? 8000 : 4000);
    return () => clearTimeout(t);
  }, [notice]);

  const refreshThumbnail = useCallback(() => {
    uploadThumbnail()
      .then(() => queryClient.invalidateQueries({ queryKey: projectKeys.list }))
      .catch(() => undefined);
  }, [queryClient, uploadThumbnail]);
  const onSaved = (version: Schemas["ProjectVersion"]) => {
    setNotice({ text: `Saved version ${version.number}`, tone: "ok" });
    refreshThumbnail();
  };

  // A project that never had a preview (from a template, an import, the API) gets one when first opened.
  const nodesReady = useNodesInitialized();
  usePreloadEditorParts(nodesReady);
  const saveOpened = useOpenedOnce(dialog === "save");
  const shareOpened = useOpenedOnce(dialog === "share");
  const helpOpened = useOpenedOnce(dialog === "help");
  const importOpened = useOpenedOnce(dialog === "import");
  const previewed = useRef(Boolean(project.thumbnail_url) || project.node_count === 0);
  useEffect(() => {
    if (!nodesReady || previewed.current) return;
    const timer = setTimeout(() => {
      previewed.current = true;
      refreshThumbnail();
    }, 600);
    return () => clearTimeout(timer);
  }, [nodesReady, refreshThumbnail]);

  return (
    <div className="-mx-4 -my-6 flex h-[calc(100dvh-3rem)] min-w-0 flex-col bg-bg md:-mx-8 md:-my-8 md:h-screen">
      <EditorToolbar
        projectId={projectId}
        name={project.name}
        saveStatus={autosave.status}
        onRetrySave={autosave.retry}
        onShare={() => setDialog("share")}
        onSaveVersion={openSave}
        onHelp={() => setDialog("help")}
        onExportDag={exportDag}
        onReplaceFromDag={() => setDialog("import")}
        flushSave={autosave.flush}
        onNotice={(text) => setNotice({ text, tone: "ok" })}
      />
      <div className="flex min-h-0 flex-1">
        <Palette />
        <section className="relative min-w-0 flex-1" aria-label="Canvas" data-testid="canvas">
          <EditorCanvas />
          <FocusFromQuery />
          <EmptyCanvasHint />
          <PhoneInspector />
          {/* Always in the page, so screen readers announce what appears in it. */}
          <div
            role="status"
            className="pointer-events-none absolute top-3 left-1/2 z-10 flex max-w-[90%] -translate-x-1/2 justify-center"
          >
            {notice ? (
              <p
                className={cn(
                  "rounded-full border px-3 py-1 text-sm font-medium shadow",
                  notice.tone === "ok"
                    ? "border-ok/40 bg-ok-soft text-ok"
                    : "border-warn/40 bg-warn-soft text-warn",
                )}
              >
                {notice.text}
              </p>
            ) : null}
          </div>
        </section>
        <SidePanel
          layer={<Inspector />}
          training={<LazyTrainingForm />}
          versions={
            <LazyVersionsPanel
              projectId={projectId}
              onRestore={async (id) => {
                const v = await restore.restore(id);
                setNotice({ text: `Restored as version ${v.number}`, tone: "ok" });
              }}
              restoring={restore.isPending}
              restoreError={restore.error}
              onSaveVersion={openSave}
            />
          }
        />
      </div>
      <StatusBar />
      {saveOpened ? (
        <LazySaveVersionDialog
          projectId={projectId}
          open={dialog === "save"}
          onClose={() => setDialog(null)}
          autosave={autosave}
          onSaved={onSaved}
        />
      ) : null}
      {shareOpened ? (
        <LazyShareDialog projectId={projectId} open={dialog === "share"} onClose={() => setDialog(null)} />
      ) : null}
      {helpOpened ? <LazyShortcutsDialog open={dialog === "help"} onClose={() => setDialog(null)} /> : null}
      {importOpened ? (
        <LazyReplaceFromDagDialog
          open={dialog === "import"}
          onClose={() => setDialog(null)}
          replace={async (file) => {
            const updated = await replaceFromDag(file);
            requestAnimationFrame(() => {
              fitView({ duration: 300, maxZoom: 1, padding: 0.15, includeHiddenNodes: true });
            });
            setNotice({
              text: `Replaced with ${updated.node_count.toLocaleString("en-US")} layers from ${file.name}`,
              tone: "ok",
            });
          }}
        />
      ) : null}
    </div>
  );
}

/** The architecture editor of one project. */
export function ProjectEditor({ projectId }: { projectId: string }) {
  const project = useProject(projectId, { staleTime: 0 });
  if (project.isPending) {
    return (
      <div
        className="-mx-4 -my-6 flex h-[calc(100dvh-3rem)] items-center justify-center text-sm text-muted md:-mx-8 md:-my-8 md:h-screen"
        role="status"
      >
        Loading the editor…
      </div>
    );
  }
  if (project.isError) return <ProjectLoadError error={project.error} />;
  return (
    <ReactFlowProvider>
      <EditorStoreProvider key={projectId} graph={project.data.graph} training={project.data.training_config}>
        <Workspace project={project.data} />
      </EditorStoreProvider>
    </ReactFlowProvider>
  );
}
