/**
 * "Reproduce it locally" reproduces it: a real PyTorch job on Iris through the app, then its
 * download (GET /training/jobs/{id}/download-code) unzipped in a temporary directory and run with
 * /usr/bin/python3 outside any sandbox, with the command its README gives. The last epoch's loss,
 * accuracy, val_loss and val_accuracy equal the job's to 1e-3. Before the bundle carried the job's
 * prepared data and command, train.py on the raw CSV split and scaled the rows its own way (it
 * ended at val_loss 0.117 where the job ended at 0.067). The job then estimates its own shape: the
 * account's measured job, not the runner's model (another account's estimate does not use it).
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECIPES } from "@/lib/ml/recipes";
import { ensureInProcessRunner } from "@/lib/server/jobs/runner";
import { startDatasetTestApp } from "../api/datasets-helpers";
import { call, signUpWithKey } from "../helpers";
import { fineTuneClient } from "./fine-tune-fixtures";

const PYTHON = "/usr/bin/python3";
process.env.RATE_LIMIT_PER_MINUTE = "100000";
const { app } = await startDatasetTestApp("layerline-reproduce-bundle");
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise<void>((resolve) => server.once("listening", () => resolve()));
process.env.LAYERLINE_INTERNAL_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-reproduce-"));
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(scratch, { recursive: true, force: true });
});

let key = "";
const { waitForJob, download } = fineTuneClient(app, () => key);

beforeAll(async () => {
  key = (await signUpWithKey(app)).key;
  await ensureInProcessRunner();
});

const METRICS = ["loss", "accuracy", "val_loss", "val_accuracy"] as const;

/** The job's last value of each series, as the API reports it. */
async function jobMetrics(jobId: string): Promise<Record<string, number>> {
  const r = await call(app, "GET", `/api/v1/training/jobs/${jobId}/metrics/summary`, { key });
  expect(r.status, r.text).toBe(200);
  const series = r.json.series as { name: string; last: number }[];
  return Object.fromEntries(series.map((s) => [s.name, s.last]));
}

/** The README's "Reproduce this job" command, as words (every word is a plain shell word here). */
function reproduceCommand(readme: string): string[] {
  const section = readme.slice(readme.indexOf("## Reproduce this job"));
  const block = /```bash\n(.+)\n```/.exec(section);
  expect(block, section.slice(0, 800)).not.toBeNull();
  const line = (block as RegExpExecArray)[1];
  expect(line).not.toMatch(/['"\\$`]/);
  return line.split(" ");
}

/** Runs the command in `dir` with this machine's Python, outside any sandbox; its last epoch's record. */
function runLocally(dir: string, words: string[]): Record<string, number> {
  expect(words[0]).toBe("python");
  const r = spawnSync(PYTHON, words.slice(1), {
    cwd: dir,
    encoding: "utf8",
    timeout: 240_000,
    // A user's shell: none of the worker's variables (no upload token, no parent to watch).
    env: { PATH: "/usr/bin:/bin", HOME: dir, PYTHONDONTWRITEBYTECODE: "1" } as unknown as NodeJS.ProcessEnv,
  });
  expect(r.status, r.stderr.slice(-3000)).toBe(0);
  const epochs = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.event === "epoch");
  expect(epochs.length).toBeGreaterThan(0);
  return epochs[epochs.length - 1] as Record<string, number>;
}

describe("a job's download reproduces the job", () => {
  it("the Iris recipe on PyTorch: the downloaded train.py, data and command end at the job's metrics", async () => {
    const recipe = RECIPES.find((r) => r.id === "tabular-mlp-classifier");
    if (!recipe) throw new Error("the tabular-mlp-classifier recipe is gone");
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "Iris, again", graph: recipe.graph, training_config: recipe.config },
    });
    expect(project.status, project.text).toBe(201);
    // Not the default seed, so that a file's default cannot pass for the job's configuration.
    const config = { epochs: 25, seed: 7 };
    const created = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: project.json.id, dataset_id: "builtin-iris", runtime: "pytorch", config },
    });
    expect(created.status, created.text).toBe(201);
    const job = await waitForJob(created.json.id as string, 240_000);
    const server = await jobMetrics(job.id as string);

    const zip = await download(
      `/api/v1/training/jobs/${job.id}/download-code?target=pytorch`,
      path.join(scratch, "job.zip"),
    );
    const unzipped = path.join(scratch, "job");
    const unzip = spawnSync(PYTHON, ["-m", "zipfile", "-e", zip, unzipped], { encoding: "utf8" });
    expect(unzip.status, unzip.stderr).toBe(0);
    const [folder] = fs.readdirSync(unzipped);
    const dir = path.join(unzipped, folder);
    const files = fs.readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(["train.py", "model.py", "README.md", "data"]));
    expect(fs.readdirSync(path.join(dir, "data"))).toEqual(
      expect.arrayContaining(["dataset.json", "preprocessing.json", "x_train.bin", "y_val.bin"]),
    );
    const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
    expect(readme).toContain(`training job \`${job.id}\``);
    const words = reproduceCommand(readme);
    expect(words).toEqual(expect.arrayContaining(["--data-dir", "data", "--seed", "7", "--epochs", "25"]));

    const local = runLocally(dir, words);
    expect(local.epoch).toBe(25);
    for (const name of METRICS) {
      expect(server[name], name).toBeTypeOf("number");
      expect(
        Math.abs(local[name] - server[name]),
        `${name}: local ${local[name]}, job ${server[name]}`,
      ).toBeLessThanOrEqual(1e-3);
    }
    // The estimate of the same job now comes from it: the account's own job of this shape.
    const estimateBody = (epochs: number) => ({
      project_id: project.json.id,
      dataset_id: "builtin-iris",
      runtime: "pytorch",
      config: { ...config, epochs },
    });
    const again = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key,
      body: estimateBody(25),
    });
    expect(again.status, again.text).toBe(200);
    expect(again.json.calibration).toMatchObject({ source: "same_shape_jobs", jobs: 1 });
    expect(again.json.seconds).toBeCloseTo(job.compute_seconds as number, 2);
    // Twice the epochs: the fixed costs once, the job's measured seconds per epoch twice as often.
    const fixed = again.json.calibration.start_seconds + again.json.calibration.end_seconds;
    const longer = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key,
      body: estimateBody(50),
    });
    expect(longer.json.seconds).toBeCloseTo(fixed + 2 * ((job.compute_seconds as number) - fixed), 2);
    // Another account's jobs are not its own: the runner's model, not this job, estimates for it.
    const other = await signUpWithKey(app);
    const theirs = await call(app, "POST", "/api/v1/projects", {
      key: other.key,
      body: { name: "Iris, theirs", graph: recipe.graph, training_config: recipe.config },
    });
    const foreign = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key: other.key,
      body: { ...estimateBody(25), project_id: theirs.json.id },
    });
    expect(foreign.status, foreign.text).toBe(200);
    expect(foreign.json.calibration.source).not.toBe("same_shape_jobs");

    console.info(
      `job ${METRICS.map((m) => `${m} ${server[m].toFixed(4)}`).join(", ")}; local ${METRICS.map((m) => `${m} ${local[m].toFixed(4)}`).join(", ")}`,
    );
  }, 300_000);
});
