/**
 * The resource estimate against real jobs.
 *   npx tsx bench/training-estimate-bench.ts
 * Runs the micro-benchmark (as POST /training/estimate-resources does on a fresh process), then
 * real PyTorch jobs of different sizes through the executor, the way the worker runs them (the
 * generated project, checkpoints, export and uploads to a local stand-in for the upload API):
 * the Iris MLP, the digits CNN and a wider MLP on the digits. For each it prints the estimated and
 * measured wall seconds and the relative error (estimated − measured) ÷ measured. Materialising the
 * dataset is not part of either (the worker does it before the program starts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sequential } from "../lib/ml/graph-builder";
import { closeDb, getDb, openDb, setDb } from "../lib/server/db/client";
import { modelSeconds, pytorchMicrobenchmark, workOf } from "../lib/server/modules/training/estimate";
import { config, models, runJob, startReceiver } from "../tests/training/training-fixtures";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-estimate-bench-"));
setDb(await openDb({ kind: "pglite-memory" }));
const db = await getDb();
const receiver = await startReceiver();
try {
  const t0 = performance.now();
  const throughput = await pytorchMicrobenchmark();
  if (!throughput) throw new Error("PyTorch is not available: the micro-benchmark cannot run");
  console.log(
    `micro-benchmark (${((performance.now() - t0) / 1000).toFixed(1)} s): start ${throughput.start_seconds.toFixed(2)} s, ` +
      `step ${(throughput.step_seconds * 1000).toFixed(3)} ms, epoch ${(throughput.epoch_seconds * 1000).toFixed(2)} ms, ` +
      `${(throughput.flops_per_second / 1e9).toFixed(2)} GFLOP/s`,
  );
  const wideMlp = sequential({ shape: [64] }, [
    ["Dense", { units: 1024, activation: "relu" }],
    ["Dense", { units: 1024, activation: "relu" }],
    ["Dense", { units: 10 }],
  ]).graph;
  const cases = [
    {
      name: "Iris MLP, 60 epochs",
      graph: models.irisMlp(),
      cfg: config({ epochs: 60, batch_size: 16, learning_rate: 0.01 }),
      dataset: "builtin-iris",
    },
    {
      name: "digits CNN, 10 epochs",
      graph: models.digitsCnn(),
      cfg: config({ epochs: 10, batch_size: 32, learning_rate: 0.003 }),
      dataset: "builtin-digits",
    },
    {
      name: "wide MLP (64→1024→1024→10), 10 epochs",
      graph: wideMlp,
      cfg: config({ epochs: 10, batch_size: 64, learning_rate: 0.001 }),
      dataset: "builtin-digits",
    },
  ];
  console.log("job                                      estimated  measured  error");
  for (const c of cases) {
    const run = await runJob(db, receiver, root, {
      runtime: "pytorch",
      graph: c.graph,
      config: c.cfg,
      datasetId: c.dataset,
      datasetVersionId: `${c.dataset}-v1`,
    });
    if (run.result.exitCode !== 0) throw new Error(`${c.name} failed: ${run.result.stderrTail.slice(-500)}`);
    const work = workOf(c.graph, c.cfg, run.preprocessing.rows);
    const estimated = modelSeconds(work, throughput);
    const measured = run.result.wallSeconds;
    const error = (estimated - measured) / measured;
    console.log(
      `${c.name.padEnd(40)} ${estimated.toFixed(2).padStart(8)} s ${measured.toFixed(2).padStart(7)} s ${(error * 100).toFixed(0).padStart(5)}%`,
    );
  }
} finally {
  await receiver.close();
  await closeDb();
  fs.rmSync(root, { recursive: true, force: true });
}
