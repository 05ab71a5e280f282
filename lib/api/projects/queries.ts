/** Read hooks of the projects area. */
import { useQueries } from "@tanstack/react-query";
import { $api } from "@/lib/api/client";
import type { Data, QueryParams, ReadOptions } from "@/lib/api/read-options";
import {
  PROJECT_PATH,
  PROJECT_SHARES_PATH,
  PROJECT_VERSION_PATH,
  PROJECT_VERSIONS_PATH,
  PROJECTS_PATH,
  projectDatasetsQuery,
} from "./keys";

export function useProjects(
  query: QueryParams<typeof PROJECTS_PATH>,
  options?: ReadOptions<Data<typeof PROJECTS_PATH>>,
) {
  return $api.useQuery("get", PROJECTS_PATH, { params: { query } }, options);
}

export function useProject(projectId: string, options?: ReadOptions<Data<typeof PROJECT_PATH>>) {
  return $api.useQuery("get", PROJECT_PATH, { params: { path: { project_id: projectId } } }, options);
}

/** The project's share links (up to 50). */
export function useProjectShares(projectId: string, options?: ReadOptions<Data<typeof PROJECT_SHARES_PATH>>) {
  return $api.useQuery(
    "get",
    PROJECT_SHARES_PATH,
    { params: { path: { project_id: projectId }, query: { limit: 50 } } },
    options,
  );
}

/** The project's versions, up to 100 (the compare page's pickers). */
export function useProjectVersions(projectId: string) {
  return $api.useQuery("get", PROJECT_VERSIONS_PATH, {
    params: { path: { project_id: projectId }, query: { limit: 100 } },
  });
}

/** The project's versions, page after page (the versions panel). */
export function useProjectVersionPages(projectId: string, pageSize: number) {
  return $api.useInfiniteQuery(
    "get",
    PROJECT_VERSIONS_PATH,
    { params: { path: { project_id: projectId }, query: { limit: pageSize } } },
    {
      pageParamName: "page",
      initialPageParam: 1,
      getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
    },
  );
}

/** One saved version (read when `versionId` is set). */
export function useProjectVersion(projectId: string, versionId: string | null) {
  return $api.useQuery(
    "get",
    PROJECT_VERSION_PATH,
    { params: { path: { project_id: projectId, version_id: versionId ?? "" } } },
    { enabled: Boolean(versionId) },
  );
}

/** The diff of two versions (read when both are set). */
export function useVersionComparison(projectId: string, from: string | null, to: string | null) {
  return $api.useQuery(
    "get",
    "/api/v1/projects/{project_id}/versions/compare",
    { params: { path: { project_id: projectId }, query: { from: from ?? "", to: to ?? "" } } },
    { enabled: Boolean(from && to) },
  );
}

/** The datasets linked to each of these projects (one query per project: there is no reverse route). */
export function useProjectsDatasets(projectIds: readonly string[]) {
  return useQueries({ queries: projectIds.map((id) => projectDatasetsQuery(id)) });
}
