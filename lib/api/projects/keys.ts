/**
 * Query keys of the projects area (projects, their versions, shares and linked datasets): the
 * generated client's `["get", path, init]`, built here so that the editor's saves, the pages and the
 * mutations reach the same cache entries.
 */
import { $api } from "@/lib/api/client";

export const PROJECTS_PATH = "/api/v1/projects";
export const PROJECT_PATH = "/api/v1/projects/{project_id}";
export const PROJECT_VERSIONS_PATH = "/api/v1/projects/{project_id}/versions";
export const PROJECT_VERSION_PATH = "/api/v1/projects/{project_id}/versions/{version_id}";
export const PROJECT_SHARES_PATH = "/api/v1/projects/{project_id}/shares";
export const PROJECT_DATASETS_PATH = "/api/v1/projects/{project_id}/datasets";

/** Prefix keys (every init of one path) for invalidation. */
export const projectKeys = {
  list: ["get", PROJECTS_PATH] as const,
  detail: ["get", PROJECT_PATH] as const,
  versions: ["get", PROJECT_VERSIONS_PATH] as const,
  shares: ["get", PROJECT_SHARES_PATH] as const,
  datasets: ["get", PROJECT_DATASETS_PATH] as const,
};

/** One project (the editor writes its saves into this entry). */
export function projectQuery(projectId: string) {
  return $api.queryOptions("get", PROJECT_PATH, { params: { path: { project_id: projectId } } });
}

/** The datasets linked to a project (up to 100). */
export function projectDatasetsQuery(projectId: string) {
  return $api.queryOptions("get", PROJECT_DATASETS_PATH, {
    params: { path: { project_id: projectId }, query: { limit: 100 } },
  });
}
