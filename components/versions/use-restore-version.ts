"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useEditorStoreApi } from "@/components/editor/editor-store-context";
import type { Autosave } from "@/components/editor/use-autosave";
import { $api } from "@/lib/api/client";
import { projectKeys, projectQuery } from "@/lib/api/projects/keys";

/**
 * Restores a version: the server records it as a new version and returns the project, whose diagram
 * replaces the canvas (undoable, and already saved).
 */
export function useRestoreVersion(projectId: string, autosave: Autosave) {
  const store = useEditorStoreApi();
  const queryClient = useQueryClient();
  const { mutateAsync, isPending, error } = $api.useMutation(
    "post",
    "/api/v1/projects/{project_id}/restore/{version_id}",
  );
  const restore = useCallback(
    (versionId: string) =>
      autosave.exclusive(async () => {
        const result = await mutateAsync({
          params: { path: { project_id: projectId, version_id: versionId } },
        });
        store.getState().replaceAll(result.project.graph, result.project.training_config);
        store.getState().markSaved(store.getState().rev);
        queryClient.setQueryData(projectQuery(projectId).queryKey, result.project);
        await queryClient.invalidateQueries({ queryKey: projectKeys.versions });
        return result.version;
      }),
    [autosave, mutateAsync, projectId, queryClient, store],
  );
  return { restore, isPending, error };
}
