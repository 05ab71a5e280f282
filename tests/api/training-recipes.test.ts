/**
 * Recipes, resource estimates and the data_parallel strategy through the real app (no runner runs
 * here: managed jobs stay queued; tests/training/data-parallel.test.ts trains with torchrun).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { setPlan } from "@/lib/server/modules/account/accounts";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { tempBlobDir } from "./projects.fixtures";

tempBlobDir();
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

async function project(key: string, template: string) {
  const r = await call(app, "POST", "/api/v1/projects", { key, body: { name: "P", template } });
  expect(r.status, r.text).toBe(201);
  return r.json.id as string;
}

describe("training recipes", () => {
  it("lists the presets, says which fit a project, and recipe_id is checked on job creation", async () => {
    const { key } = await signUpWithKey(app);
    const all = await call(app, "GET", "/api/v1/training/recipes", { key });
    expect(all.status, all.text).toBe(200);
    const ids = all.json.items.map((r: { id: string }) => r.id);
    expect(ids).toEqual([
      "tabular-mlp-classifier",
      "tabular-mlp-regression",
      "digits-cnn",
      "images-lenet",
      "images-vgg",
      "images-resnet",
      "char-lstm-lm",
    ]);
    const baseModels = Object.fromEntries(
      all.json.items.map((r: { id: string; base_model_id: string | null }) => [r.id, r.base_model_id]),
    );
    expect(baseModels).toEqual({
      "tabular-mlp-classifier": null,
      "tabular-mlp-regression": null,
      "digits-cnn": "digits-cnn-0-4",
      "images-lenet": null,
      "images-vgg": null,
      "images-resnet": null,
      "char-lstm-lm": "char-lstm-declaration",
    });
    const catalog = await call(app, "GET", "/api/v1/foundation-catalog", { key });
    const catalogIds = catalog.json.items.map((m: { id: string }) => m.id);
    for (const r of all.json.items) {
      if (r.base_model_id !== null) expect(catalogIds).toContain(r.base_model_id);
      expect(r).toMatchObject({ fits_project: null });
      expect(r.graph.nodes.length).toBeGreaterThan(2);
      expect(r.config.epochs).toBeGreaterThan(0);
    }
    const projectId = await project(key, "mlp-classifier");
    const fit = await call(app, "GET", `/api/v1/training/recipes?project_id=${projectId}`, { key });
    const fits = Object.fromEntries(
      fit.json.items.map((r: { id: string; fits_project: boolean }) => [r.id, r.fits_project]),
    );
    expect(fits).toEqual({
      "tabular-mlp-classifier": true,
      "tabular-mlp-regression": false,
      "digits-cnn": true,
      "images-lenet": true,
      "images-vgg": true,
      "images-resnet": true,
      "char-lstm-lm": false,
    });
    const base = { project_id: projectId, dataset_id: "builtin-iris", runtime: "external" };
    const ok = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { ...base, recipe_id: "tabular-mlp-classifier" },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.json.recipe_id).toBe("tabular-mlp-classifier");
    const unknown = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { ...base, recipe_id: "no-such-recipe" },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json.errors[0].path).toBe("body.recipe_id");
  });
});

describe("resource estimates", () => {
  it("gives params, FLOPs, memory, and time and credits calibrated on the runner", async () => {
    const { key } = await signUpWithKey(app);
    const projectId = await project(key, "mlp-classifier");
    const r = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key,
      body: {
        project_id: projectId,
        dataset_id: "builtin-iris",
        config: { epochs: 10, batch_size: 16, validation_split: 0.2 },
        runtime: "pytorch",
      },
    });
    expect(r.status, r.text).toBe(200);
    // Dense 4→16 and 16→3: 4·16+16 + 16·3+3 = 131 parameters.
    expect(r.json).toMatchObject({
      params: 131,
      train_samples: 120,
      validation_samples: 30,
      steps_per_epoch: 8,
      runtime: "pytorch",
    });
    expect(r.json.memory.optimizer_bytes).toBe(131 * 4 * 2);
    expect(r.json.calibration.source).toMatch(/^(microbenchmark|measured_jobs)$/);
    expect(r.json.calibration.flops_per_second).toBeGreaterThan(1e6);
    expect(r.json.seconds).toBeGreaterThan(0);
    expect(r.json.credits).toBeCloseTo(r.json.seconds / 60, 9);

    const noData = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key,
      body: { project_id: projectId },
    });
    expect(noData.status).toBe(200);
    expect(noData.json).toMatchObject({ params: 131, seconds: null, credits: null, train_samples: null });
    const bad = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key,
      body: { project_id: projectId, config: { epochs: 0 } },
    });
    expect(bad.status).toBe(422);
  }, 60_000);
});

describe("data_parallel", () => {
  it("a team-plan account can create a data_parallel job; a free one gets 402", async () => {
    const free = await signUpWithKey(app);
    const freeProject = await project(free.key, "mlp-classifier");
    const refused = await call(app, "POST", "/api/v1/training/jobs", {
      key: free.key,
      body: { project_id: freeProject, dataset_id: "builtin-iris", strategy: "data_parallel" },
    });
    expect(refused.status).toBe(402);
    expect(refused.json.type).toMatch(/plan-limit$/);

    const team = await signUpWithKey(app);
    await setPlan(await getDb(), team.user.username, "team");
    const strategies = await call(app, "GET", "/api/v1/training/allowed-strategies", { key: team.key });
    expect(strategies.json.items).toContainEqual({
      id: "data_parallel",
      description: expect.stringContaining("torchrun"),
      allowed: true,
      available: true,
    });
    const teamProject = await project(team.key, "mlp-classifier");
    const created = await call(app, "POST", "/api/v1/training/jobs", {
      key: team.key,
      body: {
        project_id: teamProject,
        dataset_id: "builtin-iris",
        strategy: "data_parallel",
        runtime: "pytorch",
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.strategy).toBe("data_parallel");
    const tfjs = await call(app, "POST", "/api/v1/training/jobs", {
      key: team.key,
      body: {
        project_id: teamProject,
        dataset_id: "builtin-iris",
        strategy: "data_parallel",
        runtime: "tfjs",
      },
    });
    expect(tfjs.status).toBe(422);
  });
});
