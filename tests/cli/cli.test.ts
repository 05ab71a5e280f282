/**
 * The `layerline` command run as a child process against the real app served on loopback: login
 * writes a 0600 config (and refuses a bad key with exit 3), --json output parses, a 404 exits 4, a
 * dataset uploads with progress on stderr, and a real Iris job trained through `layerline train`
 * (TF.js, the durable job runner in this process) is pushed to the registry (job artifacts and a
 * directory, checksums verified), deployed and queried with `predict`.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { tempBlobDir } from "../api/projects.fixtures";
import { call, serveForUploads, signUpWithKey, startTestApp, type TestApp } from "../helpers";

tempBlobDir();
const BIN = path.resolve(__dirname, "../../cli/bin/layerline.mjs");
let app: TestApp;
let runner: JobRunner | null = null;
let close: () => void = () => {};
let url = "";
let key = "";
let home = "";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `layerline …` as a child process (asynchronously: the server lives in this process). */
function layerline(
  args: string[],
  env: Record<string, string> = {},
  onStderr?: (text: string, child: ChildProcess) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      // Only what the CLI needs: no inherited LAYERLINE_* variables.
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, "config"),
        NODE_ENV: "production",
        LAYERLINE_URL: url,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
      onStderr?.(stderr, child);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const withKey = (args: string[]) => layerline(args, { LAYERLINE_API_KEY: key });
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

beforeAll(async () => {
  app = await startTestApp();
  close = await serveForUploads(app);
  url = process.env.LAYERLINE_INTERNAL_URL as string;
  runner = startJobRunner({ db: await getDb(), concurrency: 1, pollIntervalMs: 100 });
  ({ key } = await signUpWithKey(app));
  home = await mkdtemp(path.join(os.tmpdir(), "layerline-cli-"));
});

afterAll(async () => {
  await runner?.stop({ graceMs: 2000 });
  close();
});

describe("layerline", () => {
  it("prints help and refuses unknown commands and bad options with exit 1", async () => {
    const help = await layerline(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("datasets upload");
    expect(help.stdout).toMatch(/Exit codes: 0 ok, 1 usage/);
    expect((await layerline(["frobnicate"])).code).toBe(1);
    const bad = await withKey(["train", "--epochs"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Usage: layerline train");
  });

  it("login writes a 0600 config; whoami uses it; a bad key exits 3 and writes nothing", async () => {
    const configFile = path.join(home, "config", "layerline", "config.json");
    const refused = await layerline(["login", "--key", "lk_notarealkey000000000000000000000000"]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/refused/i);
    await expect(stat(configFile)).rejects.toThrow();

    const ok = await layerline(["login", "--key", key, "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ url, config_path: configFile });
    expect((await stat(configFile)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(configFile))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(configFile, "utf8"))).toEqual({ url, key });

    const who = await layerline(["whoami", "--json"]);
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ url, key_source: "file", plan: { id: "free" } });
    expect(who.stdout).not.toContain(key);

    // The environment overrides the file: a revoked-looking key is refused with exit 3.
    const envBad = await layerline(["projects", "--json"], {
      LAYERLINE_API_KEY: "lk_wrongwrongwrongwrongwrongwrong00",
    });
    expect(envBad.code).toBe(3);
    expect(JSON.parse(envBad.stderr.trim().split("\n").at(-1) as string).error.status).toBe(401);

    const out = await layerline(["logout"]);
    expect(out.code).toBe(0);
    await expect(stat(configFile)).rejects.toThrow();
    expect((await layerline(["projects"])).code).toBe(3);
  });

  it("--json output parses; a missing job exits 4 with the problem", async () => {
    await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "CLI project", template: "mlp-classifier" },
    });
    const list = await withKey(["projects", "--json"]);
    expect(list.code, list.stderr).toBe(0);
    const projects = JSON.parse(list.stdout);
    expect(projects.map((p: { name: string }) => p.name)).toContain("CLI project");

    const human = await withKey(["projects"]);
    expect(human.stdout).toMatch(/^ID\s+NAME/);

    const missing = await withKey(["jobs", "show", "job_missing", "--json"]);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe("");
    const problem = JSON.parse(missing.stderr.trim().split("\n").at(-1) as string).error;
    expect(problem).toMatchObject({ status: 404 });
    expect(problem.request_id).toBeTruthy();
    const humanMissing = await withKey(["jobs", "show", "job_missing"]);
    expect(humanMissing.code).toBe(4);
    expect(humanMissing.stderr).toMatch(/Error 404/);
  });

  it("uploads a dataset with progress on stderr", async () => {
    const file = path.join(home, "points.csv");
    const rows = [
      "x,y,label",
      ...Array.from({ length: 500 }, (_, i) => `${i},${i % 7},${i % 2 ? "a" : "b"}`),
    ];
    await writeFile(file, `${rows.join("\n")}\n`);
    const r = await withKey(["datasets", "upload", file, "--name", "points", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const uploaded = JSON.parse(r.stdout);
    expect(uploaded).toMatchObject({ created: true, dataset: { name: "points", row_count: 500 } });
    // The same bytes as a new version of that dataset: the server keeps the existing version.
    const human = await withKey(["datasets", "upload", file, "--dataset", uploaded.dataset.id]);
    expect(human.code).toBe(0);
    expect(human.stderr).toContain("Uploading points.csv 100%");
    expect(human.stdout).toContain("Already stored");
    const listed = await withKey(["datasets", "list", "--json"]);
    expect(JSON.parse(listed.stdout).map((d: { name: string }) => d.name)).toContain("points");
    // A project sized to it (its target "label" guessed on upload): 2 inputs, 2 classes.
    const sized = await withKey(["projects", "create", "--dataset", uploaded.dataset.id, "--json"]);
    expect(sized.code, sized.stderr).toBe(0);
    const project = JSON.parse(sized.stdout) as {
      name: string;
      graph: { nodes: { type: string; params: Record<string, unknown> }[] };
    };
    expect(project.name).toBe("points MLP");
    expect(project.graph.nodes.find((n) => n.type === "Input")?.params.shape).toEqual([2]);
    expect(project.graph.nodes.find((n) => n.type === "Output")?.params.num_classes).toBe(2);
    const wrong = await withKey(["projects", "create", "--dataset", uploaded.dataset.id, "--family", "cnn"]);
    // The server refuses it (422): an API error, exit 2, with the reason.
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("does not fit this dataset");
  });

  it("Ctrl-C while following a job exits 130 and, with no terminal to ask on, leaves the job running", async () => {
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "Ext", template: "mlp-classifier" },
    });
    let sent = false;
    const r = await layerline(
      ["train", "--project", project.json.id, "--dataset", "builtin-iris", "--runtime", "external"],
      { LAYERLINE_API_KEY: key },
      (text, child) => {
        if (!sent && text.includes("● queued")) {
          sent = true;
          child.kill("SIGINT");
        }
      },
    );
    expect(r.code, r.stderr).toBe(130);
    const id = /Job (job_\w+) keeps running/.exec(r.stderr)?.[1];
    expect(id, r.stderr).toBeTruthy();
    const job = await call(app, "GET", `/api/v1/training/jobs/${id}`, { key });
    expect(job.json.cancel_requested).toBe(false);
    expect(["queued", "running"]).toContain(job.json.state);
  });

  it("trains an Iris job live, pushes it (job and directory, checksums verified), deploys and predicts", async () => {
    const created = await withKey([
      "projects",
      "create",
      "--name",
      "Iris",
      "--template",
      "mlp-classifier",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const project = JSON.parse(created.stdout);
    expect(project.name).toBe("Iris");
    // The README's flow: the user's own CSV, uploaded with the CLI.
    const uploaded = await withKey([
      "datasets",
      "upload",
      path.resolve(__dirname, "../../data/builtin/iris.csv"),
      "--target",
      "species",
      "--json",
    ]);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    const iris = JSON.parse(uploaded.stdout);
    expect(iris.dataset).toMatchObject({ roles: { species: "target" }, task: "classification" });
    const trained = await withKey([
      "train",
      "--project",
      project.id,
      "--dataset",
      iris.dataset.id,
      "--runtime",
      "tfjs",
      "--epochs",
      "8",
      "--json",
    ]);
    expect(trained.code, `${trained.stderr}\n${trained.stdout}`).toBe(0);
    const job = JSON.parse(trained.stdout);
    expect(job.state).toBe("succeeded");
    expect(job.artifact.files.length).toBeGreaterThan(0);

    const shown = await withKey(["jobs", "show", job.id]);
    expect(shown.stdout).toContain("succeeded");

    // Push the job: the server copies its artifacts, the CLI checks each against the job's SHA-256.
    const pushed = await withKey(["push", job.id, "--model", "iris-cli", "--json"]);
    expect(pushed.code, pushed.stderr).toBe(0);
    const result = JSON.parse(pushed.stdout);
    expect(result.version).toMatchObject({ state: "ready", job_id: job.id, version: 1 });
    const want = Object.fromEntries(
      job.artifact.files.map((f: { name: string; sha256: string }) => [f.name, f.sha256]),
    );
    const got = Object.fromEntries(
      result.artifacts.map((a: { name: string; sha256: string }) => [a.name, a.sha256]),
    );
    for (const [name, digest] of Object.entries(want)) expect(got[name]).toBe(digest);
    expect(result.artifacts.every((a: { verified: boolean }) => a.verified)).toBe(true);

    // Push a directory of those files: initiate → PUT (streamed) → complete → finalize.
    const dir = await mkdtemp(path.join(home, "artifacts-"));
    for (const f of job.artifact.files as { name: string }[]) {
      const res = await app.request(`/api/v1/training/jobs/${job.id}/artifact/${f.name}`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      await writeFile(path.join(dir, f.name), new Uint8Array(await res.arrayBuffer()));
    }
    const human = await withKey(["push", dir, "--model", "iris-cli"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/Pushed iris-cli v2/);
    expect(human.stderr).toMatch(/upload .* 100%/);
    const versions = await call(app, "GET", `/api/v1/models/${result.model.id}/versions`, { key });
    const v2 = versions.json.find((v: { version: number }) => v.version === 2);
    expect(v2.state).toBe("ready");
    const artifacts = await call(app, "GET", `/api/v1/model-versions/${v2.id}/artifacts`, { key });
    for (const a of artifacts.json as { name: string; sha256: string }[]) {
      expect(a.sha256).toBe(sha256(await readFile(path.join(dir, a.name))));
      expect(a.sha256).toBe(want[a.name]);
    }

    // Deploy: the key is printed once; predict with it.
    const deployed = await withKey(["deploy", job.id, "--name", "iris-cli", "--json"]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const d = JSON.parse(deployed.stdout);
    expect(d.api_key).toMatch(/^ldk_/);
    const setosa = { sepal_length_cm: 5.1, sepal_width_cm: 3.5, petal_length_cm: 1.4, petal_width_cm: 0.2 };
    const predicted = await layerline([
      "predict",
      d.id,
      "--key",
      d.api_key,
      "--input",
      JSON.stringify(setosa),
      "--json",
    ]);
    expect(predicted.code, predicted.stderr).toBe(0);
    expect(JSON.parse(predicted.stdout).outputs).toHaveLength(1);
    const rows = path.join(home, "rows.jsonl");
    await writeFile(rows, `${[setosa, setosa, setosa].map((r) => JSON.stringify(r)).join("\n")}\n`);
    const batch = await layerline(["predict", d.id, "--key", d.api_key, "--file", rows, "--batch", "2"]);
    expect(batch.code, batch.stderr).toBe(0);
    expect(batch.stdout.trim().split("\n")).toHaveLength(3);
    // A personal key is not a deployment key: exit 3.
    expect((await layerline(["predict", d.id, "--key", key, "--input", "{}"])).code).toBe(3);
  }, 180_000);
});
