"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { dagFormData } from "@/components/projects/dag-file-form";
import { api } from "@/lib/api/client";
import { projectKeys, projectQuery } from "@/lib/api/projects/keys";
import { dagDocument, dagFileName } from "@/lib/editor/dag-export";
import { useEditorStoreApi } from "./editor-store-context";
import type { Autosave } from "./use-autosave";

/** Downloads the diagram and its training configuration as a DAG file (built in the browser). */
export function useExportDag(projectName: string) {
  const store = useEditorStoreApi();
  return useCallback(() => {
    const { nodes, edges, training } = store.getState();
    const blob = new Blob([dagDocument(nodes, edges, training, projectName)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = dagFileName(projectName);
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }, [projectName, store]);
}

/**
 * Replaces the diagram (and the configuration, when the file has one) with a DAG file: the server
 * checks and stores it, then the canvas shows it, already saved; Undo brings the old diagram back.
 */
export function useReplaceFromDag(projectId: string, autosave: Autosave) {
  const store = useEditorStoreApi();
  const queryClient = useQueryClient();
  return useCallback(
    (file: File) =>
      autosave.exclusive(async () => {
        const { data } = await api.POST("/api/v1/projects/{project_id}/import-dag", {
          params: { path: { project_id: projectId } },
          body: { file: "" },
          bodySerializer: () => dagFormData(file),
        });
        if (!data) throw new Error("No project in the response");
        store.getState().replaceAll(data.graph, data.training_config);
        store.getState().markSaved(store.getState().rev);
        queryClient.setQueryData(projectQuery(projectId).queryKey, data);
        await queryClient.invalidateQueries({ queryKey: projectKeys.list });
        return data;
      }),
    [autosave, projectId, queryClient, store],
  );
}
