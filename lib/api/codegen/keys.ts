/** Query keys of code generation: previews, validation and asynchronous generation tasks. */
import { $api } from "@/lib/api/client";

export const CODE_STATUS_PATH = "/api/v1/projects/{project_id}/code-status/{task_id}";

/** A generation task (polled while it runs; the cancel answer is written into it). */
export function codeTaskQuery(projectId: string, taskId: string | null) {
  return $api.queryOptions("get", CODE_STATUS_PATH, {
    params: { path: { project_id: projectId, task_id: taskId ?? "" } },
  });
}
