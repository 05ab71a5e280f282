/** Read hooks of code generation. */
import { keepPreviousData } from "@tanstack/react-query";
import { $api } from "@/lib/api/client";
import type { Data, QueryParams, ReadOptions } from "@/lib/api/read-options";
import { CODE_STATUS_PATH } from "./keys";

type Target = QueryParams<"/api/v1/projects/{project_id}/code-preview">["target"];

/** The generated files for a target, always fresh, the previous target's shown while it loads. */
export function useCodePreview(projectId: string, target: Target) {
  return $api.useQuery(
    "get",
    "/api/v1/projects/{project_id}/code-preview",
    { params: { path: { project_id: projectId }, query: { target } } },
    { staleTime: 0, placeholderData: keepPreviousData },
  );
}

/** The validation of the project for a target (a POST read as a query), like the preview. */
export function useCodeValidation(projectId: string, target: Target) {
  return $api.useQuery(
    "post",
    "/api/v1/projects/{project_id}/validate",
    { params: { path: { project_id: projectId }, query: { target } } },
    { staleTime: 0, placeholderData: keepPreviousData },
  );
}

/** A generation task, read while `taskId` is set. */
export function useCodeTask(
  projectId: string,
  taskId: string | null,
  refetchInterval: ReadOptions<Data<typeof CODE_STATUS_PATH>>["refetchInterval"],
) {
  return $api.useQuery(
    "get",
    CODE_STATUS_PATH,
    { params: { path: { project_id: projectId, task_id: taskId ?? "" } } },
    { enabled: taskId !== null, staleTime: 0, refetchInterval },
  );
}
