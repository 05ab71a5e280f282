"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";

/**
 * The editor's parts that are not on screen when it opens (its dialogs, the Training and Versions
 * tabs), each in its own chunk: the page's first load carries only the canvas, the palette and the
 * inspector, and the rest is fetched when the browser is idle after the diagram is shown
 * (`usePreloadEditorParts`), or on first use if that comes sooner. Measured with
 * bench/route-sizes.ts and bench/editor-fps.ts.
 */
const loaders = {
  train: () => import("@/components/training/train-dialog"),
  share: () => import("@/components/projects/share-dialog"),
  versions: () => import("@/components/versions/versions-panel"),
  saveVersion: () => import("./save-version-dialog"),
  shortcuts: () => import("./shortcuts-dialog"),
  replaceFromDag: () => import("./replace-from-dag-dialog"),
  training: () => import("./training-form"),
  fitDataset: () => import("./fit-dataset-dialog"),
};

function Loading() {
  return (
    <p className="text-sm text-muted" role="status">
      Loading…
    </p>
  );
}

export const LazyTrainDialog = dynamic(() => loaders.train().then((m) => m.TrainDialog), { ssr: false });
export const LazyFitDatasetDialog = dynamic(() => loaders.fitDataset().then((m) => m.FitDatasetDialog), {
  ssr: false,
});
export const LazyShareDialog = dynamic(() => loaders.share().then((m) => m.ShareDialog), { ssr: false });
export const LazyVersionsPanel = dynamic(() => loaders.versions().then((m) => m.VersionsPanel), {
  ssr: false,
  loading: Loading,
});
export const LazySaveVersionDialog = dynamic(() => loaders.saveVersion().then((m) => m.SaveVersionDialog), {
  ssr: false,
});
export const LazyShortcutsDialog = dynamic(() => loaders.shortcuts().then((m) => m.ShortcutsDialog), {
  ssr: false,
});
export const LazyReplaceFromDagDialog = dynamic(
  () => loaders.replaceFromDag().then((m) => m.ReplaceFromDagDialog),
  { ssr: false },
);
export const LazyTrainingForm = dynamic(() => loaders.training().then((m) => m.TrainingForm), {
  ssr: false,
  loading: Loading,
});

/**
 * Fetches every lazy part when the browser is next idle, a moment after `ready` (every node
 * measured: the opening fit comes right after, and must not wait behind this), or 2 s after the
 * editor mounted if that comes first (a big diagram drawn as the overview).
 */
export function usePreloadEditorParts(ready: boolean): void {
  const [due, setDue] = useState(false);
  useEffect(() => {
    if (due) return;
    const t = setTimeout(() => setDue(true), ready ? 500 : 2000);
    return () => clearTimeout(t);
  }, [ready, due]);
  useEffect(() => {
    if (!due) return;
    const run = () => {
      for (const load of Object.values(loaders)) void load().catch(() => undefined);
    };
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(run, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const t = setTimeout(run, 200);
    return () => clearTimeout(t);
  }, [due]);
}

/**
 * True from a dialog's first opening on: render it only then, so its code is not fetched with the
 * page, and keep it mounted after, so it closes the way it always did.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
