"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { $api } from "@/lib/api/client";
import { codeTaskQuery } from "@/lib/api/codegen/keys";
import { useCodeTask } from "@/lib/api/codegen/queries";
import { LayerlineError } from "@/sdk/src/errors";
import { type CodegenTarget, type CodegenTask, errorText } from "./format";

const FINAL = new Set<CodegenTask["state"]>(["succeeded", "failed", "cancelled"]);
const POLL_MS = 400;

export function isFinal(state: CodegenTask["state"] | undefined): boolean {
  return state !== undefined && FINAL.has(state);
}

export type GenerationPhase =
  | "idle"
  | "starting"
  | "queued"
  | "running"
  | "succeeded"
  | "failed"
  | "cancelled";

/**
 * Asynchronous generation: POST generate-code?async_mode=true (202 with a task), then poll
 * code-status/{task_id} until the task is final; cancel asks the server to stop it.
 */
export function useCodeGeneration(projectId: string) {
  const queryClient = useQueryClient();
  const [taskId, setTaskId] = useState<string | null>(null);

  const start = $api.useMutation("post", "/api/v1/projects/{project_id}/generate-code");
  const taskQuery = codeTaskQuery(projectId, taskId);
  const task = useCodeTask(projectId, taskId, (q) =>
    isFinal(q.state.data?.state) || q.state.status === "error" ? false : POLL_MS,
  );
  const cancelMutation = $api.useMutation(
    "post",
    "/api/v1/projects/{project_id}/code-status/{task_id}/cancel",
    {
      onSuccess: (t) => queryClient.setQueryData(taskQuery.queryKey, t),
      // 409: it finished in the meantime; the next poll says how.
      onError: () => queryClient.invalidateQueries({ queryKey: taskQuery.queryKey }),
    },
  );

  const generate = useCallback(
    (target: CodegenTarget) => {
      setTaskId(null);
      cancelMutation.reset();
      start.mutate(
        { params: { path: { project_id: projectId }, query: { target, async_mode: "true" } } },
        {
          onSuccess: (accepted) => {
            if ("task_id" in accepted) setTaskId(accepted.task_id);
          },
        },
      );
    },
    [projectId, start.mutate, cancelMutation.reset],
  );

  const cancel = useCallback(() => {
    if (!taskId) return;
    cancelMutation.mutate({ params: { path: { project_id: projectId, task_id: taskId } } });
  }, [cancelMutation.mutate, projectId, taskId]);

  const reset = useCallback(() => {
    setTaskId(null);
    start.reset();
    cancelMutation.reset();
  }, [start.reset, cancelMutation.reset]);

  const data = taskId && task.data?.task_id === taskId ? task.data : undefined;
  const phase: GenerationPhase = start.isPending
    ? "starting"
    : taskId === null
      ? "idle"
      : (data?.state ?? (task.isError ? "failed" : "queued"));

  /** A refusal of the graph (422 with per-node errors) rather than a failure of the request. */
  const rejected = start.error instanceof LayerlineError && start.error.status === 422 ? start.error : null;
  const error =
    rejected === null && start.error
      ? errorText(start.error)
      : task.error
        ? errorText(task.error)
        : phase === "failed"
          ? (data?.error ?? "Code generation failed.")
          : null;

  return {
    phase,
    task: data,
    running: phase === "starting" || phase === "queued" || phase === "running",
    cancelling: cancelMutation.isPending || (cancelMutation.isSuccess && !isFinal(data?.state)),
    rejected,
    error,
    generate,
    cancel,
    reset,
  };
}
