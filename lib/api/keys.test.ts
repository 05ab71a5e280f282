/**
 * The prefix keys that mutations and streams invalidate reach the entries the pages read: each is a
 * prefix (TanStack Query's partial match) of the generated client's `["get", path, init]` keys.
 */
import { partialMatchKey, type QueryKey } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { $api } from "./client";
import { codeTaskQuery } from "./codegen/keys";
import { DATASET_QUERY_KEYS, datasetKeys } from "./datasets/keys";
import {
  deploymentKeys,
  metricsQuery as deploymentMetricsQuery,
  deploymentQuery,
  logsQuery,
} from "./deployments/keys";
import { evaluationKeys, jobEvaluationsQuery } from "./evaluations/keys";
import { projectDatasetsQuery, projectKeys, projectQuery } from "./projects/keys";
import { registryKeys } from "./registry/keys";
import { jobQuery, metricsQuery, trainingKeys } from "./training/keys";

const matches = (prefix: QueryKey, key: QueryKey) => partialMatchKey(key, prefix);

describe("query keys", () => {
  it("are the generated client's keys", () => {
    expect(projectQuery("p1").queryKey).toEqual([
      "get",
      "/api/v1/projects/{project_id}",
      { params: { path: { project_id: "p1" } } },
    ]);
    expect(codeTaskQuery("p1", null).queryKey).toEqual(
      $api.queryOptions("get", "/api/v1/projects/{project_id}/code-status/{task_id}", {
        params: { path: { project_id: "p1", task_id: "" } },
      }).queryKey,
    );
  });

  it("prefix keys reach every init of their path and no other path", () => {
    const list = $api.queryOptions("get", "/api/v1/projects", { params: { query: { limit: 100 } } }).queryKey;
    expect(matches(projectKeys.list, list)).toBe(true);
    expect(matches(projectKeys.list, projectQuery("p1").queryKey)).toBe(false);
    expect(matches(projectKeys.detail, projectQuery("p1").queryKey)).toBe(true);
    expect(matches(projectKeys.datasets, projectDatasetsQuery("p1").queryKey)).toBe(true);

    expect(matches(trainingKeys.jobs, jobQuery("j1").queryKey)).toBe(false);
    expect(
      matches(
        trainingKeys.jobs,
        $api.queryOptions("get", "/api/v1/training/jobs", { params: { query: { limit: 50 } } }).queryKey,
      ),
    ).toBe(true);
    expect(matches(trainingKeys.logTails("j1"), trainingKeys.logTail("j1", { q: "error" }))).toBe(true);
    expect(matches(metricsQuery("j1").queryKey, metricsQuery("j1").queryKey)).toBe(true);

    expect(matches(deploymentKeys.list, deploymentQuery("d1").queryKey)).toBe(false);
    expect(matches(deploymentKeys.metrics, deploymentMetricsQuery("d1", "24h").queryKey)).toBe(true);
    expect(matches(deploymentKeys.metrics, logsQuery("d1").queryKey)).toBe(false);

    expect(matches(evaluationKeys.ofJob, jobEvaluationsQuery("j1").queryKey)).toBe(true);
    expect(
      matches(
        registryKeys.lineage,
        $api.queryOptions("get", "/api/v1/model-versions/{version_id}/lineage", {
          params: { path: { version_id: "v1" } },
        }).queryKey,
      ),
    ).toBe(true);

    const version = $api.queryOptions("get", "/api/v1/datasets/{dataset_id}/versions/{version_id}", {
      params: { path: { dataset_id: "d1", version_id: "v1" } },
    }).queryKey;
    expect(matches(datasetKeys.version, version)).toBe(true);
    expect(matches(datasetKeys.versions, version)).toBe(false);
    expect(DATASET_QUERY_KEYS.some((k) => matches(k, version))).toBe(true);
  });
});
