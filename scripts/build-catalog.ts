/**
 * Builds the base-model catalog: data/catalog/catalog.json and one PyTorch state_dict per model.
 *
 *   npm run catalog:build            (or: npx tsx scripts/build-catalog.ts [model id…])
 *
 * For each model of lib/server/modules/training/catalog-pretraining.ts: prepare its dataset from the files
 * in data/builtin/ (the picture model's digits drawn as PNG files and decoded as an image job decodes
 * pictures; seeded splits: train / validation / held-out test), generate the PyTorch project
 * from its graph (lib/ml/codegen, the same train.py + model.py a training job runs), train it with
 * the worker's Python (/usr/bin/python3, or LAYERLINE_PYTHON) and a fixed seed, take the model
 * state_dict of the best epoch's checkpoint (lowest validation loss) and save it as a plain
 * state_dict with torch.save. The held-out figures are train.py's test metrics of those weights,
 * checked again by loading the saved file strictly into the generated model. Nothing is downloaded.
 * With model ids, only those are rebuilt and the other entries of catalog.json are kept.
 * LAYERLINE_CATALOG_DIR writes elsewhere than data/catalog/.
 *
 * Reproducibility: seeds are fixed and the training processes run single-threaded
 * (OMP_NUM_THREADS=1), so two runs on one machine give bit-identical files (same SHA-256; checked
 * on Debian 12, torch 1.13.1, CPU). Another CPU, thread library or torch version may change the
 * last bits of the weights; the recorded figures then move by far less than the tests' tolerance.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BaseModelCatalog, BaseModelEntry } from "../lib/ml/catalog/types";
import { generatePytorchProject } from "../lib/ml/codegen";
import { analyzeGraph } from "../lib/ml/infer-graph";
import type { Db } from "../lib/server/db/client";
import { closeDb, getDb, openDb, setDb } from "../lib/server/db/client";
import { catalogDir } from "../lib/server/modules/catalog/base-models";
import {
  PRETRAIN_SPECS,
  type PretrainSpec,
  prepareCatalogData,
} from "../lib/server/modules/training/catalog-pretraining";
import { evaluateStateDict, extractStateDict } from "../lib/server/modules/training/catalog-weights";
import { childEnv, runProcess, writeProjectFiles } from "../lib/server/modules/training/executors/process";
import { pythonPath } from "../lib/server/modules/training/executors/pytorch";

const SCRIPT = "scripts/build-catalog.ts";
/** How far the re-evaluation of the saved weights may differ from train.py's test figures. */
const TOLERANCE = 1e-4;

const round = (x: number, digits = 6) => Number(x.toFixed(digits));

async function sha256(file: string): Promise<string> {
  return createHash("sha256")
    .update(await fs.promises.readFile(file))
    .digest("hex");
}

async function build(db: Db, spec: PretrainSpec, root: string, out: string): Promise<BaseModelEntry> {
  const started = performance.now();
  const work = path.join(root, spec.id);
  const dataDir = path.join(work, "data");
  const projectDir = path.join(work, "project");
  const checkpoints = path.join(work, "checkpoints");
  const data = await prepareCatalogData(db, spec, dataDir);

  const project = generatePytorchProject(spec.graph, spec.config, { projectName: spec.name });
  await writeProjectFiles(projectDir, project.files);
  const records: Record<string, unknown>[] = [];
  const c = spec.config;
  const result = await runProcess({
    command: pythonPath(),
    args: [
      "train.py",
      "--data-dir",
      dataDir,
      "--checkpoint-dir",
      checkpoints,
      "--epochs",
      String(c.epochs),
      "--batch-size",
      String(c.batch_size),
      "--lr",
      String(c.learning_rate),
      "--weight-decay",
      String(c.weight_decay),
      "--seed",
      String(c.seed),
      "--device",
      "cpu",
    ],
    cwd: projectDir,
    env: childEnv(
      {
        PYTHONUNBUFFERED: "1",
        PYTHONDONTWRITEBYTECODE: "1",
        PYTHONNOUSERSITE: "1",
        OMP_NUM_THREADS: "1",
        MKL_NUM_THREADS: "1",
      },
      work,
    ),
    timeLimitMs: 20 * 60_000,
    onLine: (line) => {
      if (line.startsWith("{")) records.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  if (result.exitCode !== 0)
    throw new Error(`${spec.id}: training failed:\n${result.stderrTail.slice(-3000)}`);
  const test = records.find((r) => r.event === "test");
  const done = records.find((r) => r.event === "done");
  if (!test || !done) throw new Error(`${spec.id}: train.py reported no test figures`);

  const file = `${spec.id}.pt`;
  const weights = path.join(out, file);
  const extracted = await extractStateDict(path.join(checkpoints, "best.pt"), weights);
  const analysis = analyzeGraph(spec.graph);
  if (extracted.params !== analysis.totalParams)
    throw new Error(
      `${spec.id}: ${extracted.params} parameters saved, the graph has ${analysis.totalParams}`,
    );
  if (extracted.epoch !== done.best_epoch)
    throw new Error(`${spec.id}: best.pt is epoch ${extracted.epoch}, the best epoch was ${done.best_epoch}`);
  const check = await evaluateStateDict({ projectDir, weights, dataDir, split: "test" });
  const testLoss = Number(test.test_loss);
  const testAccuracy = Number(test.test_accuracy);
  if (Math.abs(check.loss - testLoss) > TOLERANCE || Math.abs(check.accuracy - testAccuracy) > TOLERANCE)
    throw new Error(
      `${spec.id}: the saved weights give loss ${check.loss} / accuracy ${check.accuracy}, train.py reported ${testLoss} / ${testAccuracy}`,
    );

  const metrics: Record<string, number> =
    spec.task === "language_modeling"
      ? {
          loss: round(testLoss),
          perplexity: round(Math.exp(testLoss), 4),
          bits_per_character: round(testLoss / Math.LN2),
          accuracy: round(testAccuracy),
        }
      : { accuracy: round(testAccuracy), loss: round(testLoss) };
  const bestEpoch = records.find((r) => r.event === "epoch" && r.epoch === done.best_epoch) ?? {};
  const validation: Record<string, number> = {};
  for (const name of ["loss", "accuracy"]) {
    const value = bestEpoch[`val_${name}`];
    if (typeof value === "number") validation[name] = round(value);
  }

  const bytes = (await fs.promises.stat(weights)).size;
  const entry: BaseModelEntry = {
    id: spec.id,
    name: spec.name,
    task: spec.task,
    description: spec.description,
    graph: spec.graph,
    config: spec.config,
    params: analysis.totalParams,
    input: spec.input,
    output: spec.output,
    features: data.features,
    labels: data.labels,
    vocab: data.vocab,
    head: spec.head,
    license: `Weights: ${spec.weightsLicense}. Training data: ${spec.dataset.license}.`,
    training_data: {
      dataset_id: spec.dataset.id,
      description: spec.dataset.description,
      attribution: spec.dataset.attribution,
      rows: data.rows.train + data.rows.validation + data.rows.test,
    },
    evaluation: {
      split:
        spec.task === "language_modeling"
          ? "test: the last 20% of the text, never trained on nor used to choose the epoch"
          : `test: 20% of the ${spec.pictures ? "pictures" : "rows"} (seeded), never trained on nor used to choose the epoch`,
      rows: data.rows.test,
      metrics,
      best_epoch: Number(done.best_epoch),
      validation: { rows: data.rows.validation, metrics: validation },
    },
    weights: { file, format: "pytorch_state_dict", bytes, sha256: await sha256(weights) },
    built_with: { script: SCRIPT, seed: spec.config.seed, torch: extracted.torch },
    splits: data.rows,
    preprocessing: {
      input_shape: data.preprocessing.input_shape,
      input_dtype: data.preprocessing.input_dtype,
      steps: data.preprocessing.steps,
    },
  };
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${spec.id}: ${analysis.totalParams} params, ${bytes} bytes, best epoch ${done.best_epoch}/${c.epochs}, ` +
      `test ${Object.entries(metrics)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")} (${seconds.toFixed(1)} s)`,
  );
  return entry;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const unknown = only.filter((id) => !PRETRAIN_SPECS.some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`Unknown model id(s): ${unknown.join(", ")}`);
  const out = catalogDir();
  fs.mkdirSync(out, { recursive: true });
  const catalogFile = path.join(out, "catalog.json");
  const previous: BaseModelCatalog = fs.existsSync(catalogFile)
    ? (JSON.parse(fs.readFileSync(catalogFile, "utf8")) as BaseModelCatalog)
    : { format: "layerline.catalog/v1", models: [] };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-catalog-"));
  setDb(await openDb({ kind: "pglite-memory" }));
  const started = performance.now();
  try {
    const db = await getDb();
    const models: BaseModelEntry[] = [];
    for (const spec of PRETRAIN_SPECS) {
      const kept = previous.models.find((m) => m.id === spec.id);
      if (only.length > 0 && !only.includes(spec.id) && kept) models.push(kept);
      else models.push(await build(db, spec, root, out));
    }
    const catalog: BaseModelCatalog = { format: "layerline.catalog/v1", models };
    fs.writeFileSync(catalogFile, `${JSON.stringify(catalog, null, 2)}\n`);
    console.log(
      `wrote ${catalogFile} (${models.length} models, ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await closeDb();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();
