/**
 * Platform overhead of a managed PyTorch job.
 *   npx tsx bench/training-overhead-bench.ts            (TRAINING_BENCH_EPOCHS, default 20)
 * Trains the digits CNN (Input 64 → Reshape 1×8×8 → 2 conv blocks → Dense) on the built-in digits:
 *   job      the PyTorch executor, as the worker runs it: the generated project written to a work
 *            directory, /usr/bin/python3 train.py --data-dir … with checkpoints, the ONNX export and
 *            every upload (status, per-epoch events, checkpoints, the model file) sent to a local
 *            stand-in for the upload API;
 *   by hand  the same train.py on the same prepared data: python3 train.py --data-dir … --epochs N.
 * Prints samples/s of each (training samples × epochs over the process's wall time, and over the
 * epochs' own time) and the ratio by hand / job (the aim is ≤ 1.10). Runs alternate, 3 each; medians.
 * Not included: materialising the dataset (printed once) and the real API's ingestion of uploads.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateProject } from "../lib/ml/codegen";
import { closeDb, getDb, openDb, setDb } from "../lib/server/db/client";
import { executorFor } from "../lib/server/services/training/executors";
import { runProcess } from "../lib/server/services/training/executors/process";
import { pythonPath } from "../lib/server/services/training/executors/pytorch";
import { materializeDataset } from "../lib/server/services/training/materialize";
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

  const job: Measure[] = [];
  const byHand: Measure[] = [];
  for (let run = 0; run < RUNS; run++) {
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
      `${label.padEnd(9)} wall ${wall.toFixed(2)} s  ${(samples / wall).toFixed(0).padStart(7)} samples/s   epochs ${epochs.toFixed(2)} s  ${(samples / epochs).toFixed(0).padStart(7)} samples/s`,
    );
    return { wall, epochs };
  };
  console.log(`digits CNN, ${EPOCHS} epochs × ${prep.rows.train} samples, medians of ${RUNS} runs:`);
  const j = row("job", job);
  const h = row("by hand", byHand);
  console.log(
    `overhead (by hand samples/s ÷ job samples/s): wall ${(j.wall / h.wall).toFixed(3)}×, epochs only ${(j.epochs / h.epochs).toFixed(3)}×`,
  );
  console.log(
    `the job uploaded ${uploads.events.length} events, ${uploads.checkpoints.length} checkpoints, ${uploads.artifacts.size} model file(s)`,
  );
} finally {
  await receiver.close();
  await closeDb();
  fs.rmSync(root, { recursive: true, force: true });
}
