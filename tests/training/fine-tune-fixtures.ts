/**
 * What the real fine-tuning tests share (fine-tune.test.ts, fine-tune-from-models.test.ts): one
 * account's calls to the served app (train from scratch, start a run and wait for it, download,
 * upload a slice of the digits), and running a Python snippet with PyTorch to compare weights.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { expect } from "vitest";
import type { ArchitectureGraph, TrainingConfig } from "@/lib/ml/graph-types";
import { upload } from "../api/datasets-helpers";
import { call, type TestApp } from "../helpers";

export type Json = Record<string, unknown>;
const PYTHON = "/usr/bin/python3";

/** Runs `python3 -c script args…` and returns its standard output (failing the test otherwise). */
export function python(script: string, ...args: string[]): string {
  const r = spawnSync(PYTHON, ["-c", script, ...args], { encoding: "utf8", timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** The rows of the built-in digits whose label passes `keep`, as CSV. */
export function digitsCsv(keep: (digit: string) => boolean): string {
  const [header, ...rows] = fs.readFileSync("data/builtin/digits.csv", "utf8").trim().split("\n");
  return [header, ...rows.filter((r) => keep(r.slice(r.lastIndexOf(",") + 1)))].join("\n");
}

/** An account's fine-tuning calls; `key` is read at each call (it is known once the account exists). */
export function fineTuneClient(app: TestApp, key: () => string) {
  async function waitForJob(jobId: string, timeoutMs = 170_000): Promise<Json> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const r = await call(app, "GET", `/api/v1/training/jobs/${jobId}`, { key: key() });
      expect(r.status, r.text).toBe(200);
      if (["succeeded", "failed", "cancelled", "timed_out"].includes(r.json.state)) {
        expect(r.json.state, r.json.reason ?? "").toBe("succeeded");
        return r.json;
      }
      if (Date.now() > until) throw new Error(`job ${jobId} still ${r.json.state}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** A new project with this graph and configuration, trained on `dataset` (PyTorch by default). */
  async function trainFromScratch(
    name: string,
    graph: ArchitectureGraph,
    cfg: TrainingConfig,
    dataset: string,
    runtime: "pytorch" | "tfjs" = "pytorch",
  ): Promise<Json> {
    const project = await call(app, "POST", "/api/v1/projects", {
      key: key(),
      body: { name, graph, training_config: cfg },
    });
    expect(project.status, project.text).toBe(201);
    const job = await call(app, "POST", "/api/v1/training/jobs", {
      key: key(),
      body: { project_id: project.json.id, dataset_id: dataset, runtime },
    });
    expect(job.status, job.text).toBe(201);
    return waitForJob(job.json.id);
  }

  /** Starts a fine-tuning run, waits for it to succeed, and returns it as GET …/foundation-runs/{id}. */
  async function startRun(body: Json): Promise<Json> {
    const r = await call(app, "POST", "/api/v1/training/foundation-runs", { key: key(), body });
    expect(r.status, r.text).toBe(201);
    await waitForJob(r.json.id);
    const got = await call(app, "GET", `/api/v1/training/foundation-runs/${r.json.id}`, { key: key() });
    expect(got.status, got.text).toBe(200);
    return got.json;
  }

  async function download(url: string, file: string): Promise<string> {
    const r = await app.request(url, { headers: { Host: "localhost", Authorization: `Bearer ${key()}` } });
    expect(r.status, url).toBe(200);
    fs.writeFileSync(file, Buffer.from(await r.arrayBuffer()));
    return file;
  }

  /** Uploads the digits whose label passes `keep` as the account's dataset, `digit` as its target. */
  async function uploadDigits(name: string, keep: (digit: string) => boolean): Promise<string> {
    const ds = await upload(app, key(), digitsCsv(keep), name);
    expect(ds.status, ds.text).toBe(201);
    const id = ds.json.dataset.id as string;
    const roles = await call(app, "PATCH", `/api/v1/datasets/${id}/roles`, {
      key: key(),
      body: { roles: { digit: "target" } },
    });
    expect(roles.status, roles.text).toBe(200);
    return id;
  }

  return { waitForJob, trainFromScratch, startRun, download, uploadDigits };
}
