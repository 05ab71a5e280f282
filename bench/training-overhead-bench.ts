/**
 * Platform overhead of a managed PyTorch job.
 *   npx tsx bench/training-overhead-bench.ts            (TRAINING_BENCH_EPOCHS, default 20)
 * Trains the digits CNN (Input 64 → Reshape 1×8×8 → 2 conv blocks → Dense) on the built-in digits:
 *   job      the PyTorch executor, as the worker runs it: the generated project written to a work
 *            directory, /usr/bin/python3 train.py --data-dir … with checkpoints, the ONNX export and
 *            every upload (status, per-epoch events, checkpoints, the model file) sent to a local
 *            stand-in for the upload API;
 *   by hand  the same train.py on the same prepared data: python3 train.py --data-dir … --epochs N.
 *   job, no sandbox   the same job with LAYERLINE_SANDBOX=off (the program run directly, uploading
 *            over HTTP itself): the sandbox's cost is job ÷ this, in the same run.
 * Prints samples/s of each (training samples × epochs over the process's wall time, and over the
 * epochs' own time) and the ratio by hand / job (the aim is ≤ 1.10). Runs alternate, 3 each; medians.
 * Also the start of a program (`python -c "import torch, numpy"`, 7 runs each) with and without the
 * sandbox (bubblewrap, setpriv, prlimit).
 * Not included: materialising the dataset (printed once) and the real API's ingestion of uploads.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateProject } from "../lib/ml/codegen";
import { closeDb, getDb, openDb, setDb } from "../lib/server/db/client";
import { executorFor } from "../lib/server/modules/training/executors";
import { runProcess } from "../lib/server/modules/training/executors/process";
import { pythonPath } from "../lib/server/modules/training/executors/pytorch";
import { prepareJobDir, sandboxLimits } from "../lib/server/modules/training/executors/sandbox";
import { materializeDataset } from "../lib/server/modules/training/materialize";
import { config, models, startReceiver } from "../tests/training/training-fixtures";

const EPOCHS = Number(process.env.TRAINING_BENCH_EPOCHS ?? 20);
const RUNS = 3;

interface Measure {
  wall: number;
  epochSeconds: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function epochSecondsOf(lines: string[]): number {
  let total = 0;
  for (const line of lines) {
    try {
      const record = JSON.parse(line) as { event?: string; seconds?: number };
      if (record.event === "epoch" && typeof record.seconds === "number") total += record.seconds;
    } catch {
      // not a record
    }
  }
  return total;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-training-bench-"));
setDb(await openDb({ kind: "pglite-memory" }));
const db = await getDb();
const receiver = await startReceiver();
try {
  const graph = models.digitsCnn();
  const cfg = config({ epochs: EPOCHS, batch_size: 32, learning_rate: 0.003 });
  const dataDir = path.join(root, "data");
  const t0 = performance.now();
  const prep = await materializeDataset(db, {
    ownerId: "bench",
    datasetId: "builtin-digits",
    datasetVersionId: "builtin-digits-v1",
    graph,
    config: cfg,
    dir: dataDir,
  });
  console.log(
    `materialise builtin-digits: ${(performance.now() - t0).toFixed(0)} ms (${prep.rows.train} training rows, ${prep.rows.validation} validation)`,
  );

  // The same project, run by hand.
  const byHandDir = path.join(root, "by-hand");
  for (const file of generateProject("pytorch", graph, cfg, { projectName: "Digits bench" }).files) {
    fs.mkdirSync(path.dirname(path.join(byHandDir, file.path)), { recursive: true });
    fs.writeFileSync(path.join(byHandDir, file.path), file.content);
  }

  // The start of a program, with and without the sandbox.
  const startDir = fs.mkdtempSync(path.join(root, "start-"));
  await prepareJobDir(startDir);
  const starts: { sandboxed: number[]; direct: number[] } = { sandboxed: [], direct: [] };
  for (let i = 0; i < 7; i++) {
    for (const sandboxed of [true, false]) {
      const r = await runProcess({
        command: pythonPath(),
        args: ["-c", "import torch, numpy"],
        cwd: startDir,
        env: { PATH: "/usr/bin:/bin", HOME: startDir, PYTHONDONTWRITEBYTECODE: "1" },
        ...(sandboxed
          ? { sandbox: { jobDir: startDir, writable: [], limits: sandboxLimits("free", 60_000) } }
          : {}),
      });
      if (r.exitCode !== 0) throw new Error(`python failed to start: ${r.stderrTail}`);
      starts[sandboxed ? "sandboxed" : "direct"].push(r.wallSeconds);
    }
  }
  const startIn = median(starts.sandboxed);
  const startOut = median(starts.direct);
  console.log(
    `program start (python -c "import torch, numpy"), medians of 7: sandbox ${(startIn * 1000).toFixed(0)} ms, none ${(startOut * 1000).toFixed(0)} ms (${(startIn / startOut).toFixed(3)}×, +${((startIn - startOut) * 1000).toFixed(0)} ms)`,
  );

  const job: Measure[] = [];
  const unsandboxed: Measure[] = [];
  const byHand: Measure[] = [];
  const runJob = async (id: string) => {
    const lines: string[] = [];
    const workDir = fs.mkdtempSync(path.join(root, "job-"));
    const result = await executorFor("pytorch").run({
      jobId: id,
      projectName: "Digits bench",
      graph,
      config: cfg,
      dataDir,
      workDir,
      uploadToken: "lut_bench",
      apiBaseUrl: receiver.url,
      resumeFrom: null,
      signal: new AbortController().signal,
      timeLimitMs: 600_000,
      onLine: (line) => lines.push(line),
    });
    if (result.exitCode !== 0) throw new Error(`job failed: ${result.stderrTail}`);
    return { wall: result.wallSeconds, epochSeconds: epochSecondsOf(lines) };
  };
  const savedSandbox = process.env.LAYERLINE_SANDBOX;
  for (let run = 0; run < RUNS; run++) {
    process.env.LAYERLINE_SANDBOX = "off";
    unsandboxed.push(await runJob(`bench_direct_${run}`));
    if (savedSandbox === undefined) delete process.env.LAYERLINE_SANDBOX;
    else process.env.LAYERLINE_SANDBOX = savedSandbox;

    const lines: string[] = [];
    const workDir = fs.mkdtempSync(path.join(root, "job-"));
    const result = await executorFor("pytorch").run({
      jobId: `bench_${run}`,
      projectName: "Digits bench",
      graph,
      config: cfg,
      dataDir,
      workDir,
      uploadToken: "lut_bench",
      apiBaseUrl: receiver.url,
      resumeFrom: null,
      signal: new AbortController().signal,
      timeLimitMs: 600_000,
      onLine: (line) => lines.push(line),
    });
    if (result.exitCode !== 0) throw new Error(`job failed: ${result.stderrTail}`);
    job.push({ wall: result.wallSeconds, epochSeconds: epochSecondsOf(lines) });

    const handLines: string[] = [];
    const hand = await runProcess({
      command: pythonPath(),
      args: [
        "train.py",
        "--data-dir",
        dataDir,
        "--epochs",
        String(EPOCHS),
        "--checkpoint-dir",
        path.join(root, `ck-${run}`),
      ],
      cwd: byHandDir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root },
      onLine: (line) => handLines.push(line),
    });
    if (hand.exitCode !== 0) throw new Error(`train.py by hand failed: ${hand.stderrTail}`);
    byHand.push({ wall: hand.wallSeconds, epochSeconds: epochSecondsOf(handLines) });
  }

  const samples = prep.rows.train * EPOCHS;
  const uploads = receiver.uploadsOf("bench_0");
  const row = (label: string, m: Measure[]) => {
    const wall = median(m.map((x) => x.wall));
    const epochs = median(m.map((x) => x.epochSeconds));
    console.log(
      `${label.padEnd(15)} wall ${wall.toFixed(2)} s  ${(samples / wall).toFixed(0).padStart(7)} samples/s   epochs ${epochs.toFixed(2)} s  ${(samples / epochs).toFixed(0).padStart(7)} samples/s`,
    );
    return { wall, epochs };
  };
  console.log(`digits CNN, ${EPOCHS} epochs × ${prep.rows.train} samples, medians of ${RUNS} runs:`);
  const j = row("job", job);
  const u = row("job, no sandbox", unsandboxed);
  const h = row("by hand", byHand);
  console.log(
    `overhead (by hand samples/s ÷ job samples/s): wall ${(j.wall / h.wall).toFixed(3)}×, epochs only ${(j.epochs / h.epochs).toFixed(3)}×`,
  );
  console.log(
    `sandbox (no-sandbox job samples/s ÷ sandboxed job samples/s): wall ${(j.wall / u.wall).toFixed(3)}×, epochs only ${(j.epochs / u.epochs).toFixed(3)}×`,
  );
  console.log(
    `the job uploaded ${uploads.events.length} events, ${uploads.checkpoints.length} checkpoints, ${uploads.artifacts.size} model file(s)`,
  );
} finally {
  await receiver.close();
  await closeDb();
  fs.rmSync(root, { recursive: true, force: true });
}
