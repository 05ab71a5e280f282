"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { $api } from "@/lib/api/client";
import { projectQuery } from "@/lib/api/projects/keys";
import { trainingKeys } from "@/lib/api/training/keys";
import { fromFlow } from "@/lib/editor/graph-mapping";
import { useEditorStore, useEditorStoreApi } from "./editor-store-context";

export const AUTOSAVE_DELAY_MS = 800;

export type SaveStatus = "saved" | "dirty" | "saving" | "error";

/**
 * Autosave of the working state: a debounced PUT of the graph and training configuration after each
 * change. Saves run one at a time (`exclusive`), so a "Save version" never races an older autosave.
 */
export function useAutosave(projectId: string) {
  const store = useEditorStoreApi();
  const queryClient = useQueryClient();
  const { mutateAsync, isPending, isError, error, reset } = $api.useMutation(
    "put",
    "/api/v1/projects/{project_id}",
  );
  const rev = useEditorStore((s) => s.rev);
  const savedRev = useEditorStore((s) => s.savedRev);
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const exclusive = useCallback(<T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.current.then(task, task);
    queue.current = run.catch(() => undefined);
    return run;
  }, []);

  const flush = useCallback(
    () =>
      exclusive(async () => {
        const s = store.getState();
        if (s.rev === s.savedRev) return;
        const sent = s.rev;
        const project = await mutateAsync({
          params: { path: { project_id: projectId } },
          body: { graph: fromFlow(s.nodes, s.edges), training_config: s.training },
        });
        store.getState().markSaved(sent);
        queryClient.setQueryData(projectQuery(projectId).queryKey, project);
        // Which datasets fit depends on the model: verdicts read before this save are dropped (an
        // open Train dialog reads them again).
        queryClient.removeQueries({ queryKey: trainingKeys.datasetFit, type: "inactive" });
        await queryClient.invalidateQueries({ queryKey: trainingKeys.datasetFit });
      }),
    [exclusive, mutateAsync, projectId, queryClient, store],
  );

  useEffect(() => {
    if (rev === savedRev) return;
    const timer = setTimeout(() => {
      flush().catch(() => undefined);
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [rev, savedRev, flush]);

  const status: SaveStatus = isPending ? "saving" : rev === savedRev ? "saved" : isError ? "error" : "dirty";
  const isDirty = useCallback(() => {
    const s = store.getState();
    return s.rev !== s.savedRev;
  }, [store]);

  return {
    status,
    error,
    isDirty,
    exclusive,
    flush,
    retry: () => {
      reset();
      flush().catch(() => undefined);
    },
  };
}

export type Autosave = ReturnType<typeof useAutosave>;
