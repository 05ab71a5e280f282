/**
 * Verifies generated TensorFlow.js projects against Layerline's own shape and parameter inference.
 *
 *   node verify_tfjs.mjs DIR EXPECTED [DIR EXPECTED ...]
 *
 * EXPECTED is a JSON object (inline, or the path of a file holding it):
 *   {"id", "input_shape", "input_dtype", "output_shape", "loss", "params", "non_trainable",
 *    "modules": {name: {"params": N}}}
 *
 * For each project (DIR must resolve @tensorflow/tfjs, e.g. through a node_modules symlink): builds
 * the model on the cpu backend, checks its constants, symbolic and predicted output shapes (batch 3),
 * trainable parameters in total and per layer, and model.countParams() (trainable + BatchNorm moving
 * statistics); then runs train.mjs's main() for one epoch on 16 synthetic samples, checks a finite
 * loss, reloads the saved checkpoint and compares its predictions. One JSON line per project; exit 1
 * if any failed, 2 on bad usage.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as tf from "@tensorflow/tfjs";

function expectedOf(arg) {
  return JSON.parse(arg.trimStart().startsWith("{") ? arg : fs.readFileSync(arg, "utf8"));
}

const sizeOf = (weights) => weights.reduce((sum, w) => sum + w.shape.reduce((a, b) => a * b, 1), 0);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function sampleInput(module, expected, batch) {
  return expected.input_dtype === "int64"
    ? tf.randomUniform([batch, ...expected.input_shape], 0, module.VOCAB_SIZE, "int32", 7)
    : tf.randomNormal([batch, ...expected.input_shape], 0, 1, "float32", 7);
}

async function checkModel(dir, expected, errors) {
  const module = await import(pathToFileURL(path.join(dir, "model.mjs")).href);
  const int = expected.input_dtype === "int64";
  if (!same(module.INPUT_SHAPE, expected.input_shape)) errors.push(`INPUT_SHAPE ${module.INPUT_SHAPE}`);
  if (module.INPUT_DTYPE !== (int ? "int32" : "float32")) errors.push(`INPUT_DTYPE ${module.INPUT_DTYPE}`);
  if (!same(module.OUTPUT_SHAPE, expected.output_shape)) errors.push(`OUTPUT_SHAPE ${module.OUTPUT_SHAPE}`);
  if (module.LOSS !== expected.loss) errors.push(`LOSS ${module.LOSS}`);

  const model = module.buildModel();
  const symbolic = model.outputs[0].shape;
  if (!same(symbolic, [null, ...expected.output_shape])) {
    errors.push(
      `symbolic output shape ${JSON.stringify(symbolic)}, Layerline infers [${expected.output_shape}]`,
    );
  }
  const x = sampleInput(module, expected, 3);
  const y = model.predict(x);
  if (!same(y.shape, [3, ...expected.output_shape])) {
    errors.push(`output shape [${y.shape.slice(1)}] (batch 3), Layerline infers [${expected.output_shape}]`);
  }
  const trainable = sizeOf(model.trainableWeights);
  if (trainable !== expected.params) {
    errors.push(`trainable parameters: TF.js counts ${trainable}, Layerline infers ${expected.params}`);
  }
  const all = model.countParams();
  if (all !== expected.params + expected.non_trainable) {
    errors.push(
      `model.countParams() is ${all}, expected ${expected.params} trainable + ${expected.non_trainable} BatchNorm moving statistics`,
    );
  }
  for (const [name, spec] of Object.entries(expected.modules ?? {})) {
    let layer;
    try {
      layer = model.getLayer(name);
    } catch {
      errors.push(`model has no layer named ${name}`);
      continue;
    }
    const count = sizeOf(layer.trainableWeights);
    if (count !== spec.params)
      errors.push(`${name}: TF.js counts ${count} parameters, Layerline infers ${spec.params}`);
  }
  tf.dispose([x, y]);
  model.dispose();
  return { module, output_shape: y.shape.slice(1), params: trainable, count_params: all };
}

async function runTraining(dir, module, expected, errors) {
  const checkpoints = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-tfjs-ckpt-"));
  const { main } = await import(pathToFileURL(path.join(dir, "train.mjs")).href);
  const printed = [];
  const warnings = [];
  const { log, error } = console;
  console.log = (...parts) => printed.push(parts.join(" "));
  console.error = (...parts) => warnings.push(parts.join(" "));
  let code;
  try {
    code = await main([
      "--synthetic",
      "16",
      "--epochs",
      "1",
      "--batch-size",
      "8",
      "--checkpoint-dir",
      checkpoints,
      "--export-dir",
      path.join(checkpoints, "export"),
      // A dead upload endpoint: uploads must fail quietly without stopping training (no retries:
      // they would only wait).
      "--job",
      "job_test",
      "--token",
      "lut_test",
      "--api",
      "http://127.0.0.1:9",
      "--upload-retries",
      "0",
    ]);
  } finally {
    console.log = log;
    console.error = error;
  }
  const records = [];
  for (const line of printed) {
    try {
      records.push(JSON.parse(line));
    } catch {
      errors.push(`train.mjs printed a line that is not JSON: ${line.slice(0, 200)}`);
    }
  }
  const epochs = records.filter((r) => r.event === "epoch");
  const loss = epochs.at(-1)?.loss ?? null;
  if (code !== 0) errors.push(`train.mjs main() returned ${code}: ${warnings.join(" | ").slice(-500)}`);
  if (epochs.length !== 1) errors.push(`train.mjs printed ${epochs.length} epoch lines, expected 1`);
  else if (!Number.isFinite(loss)) errors.push(`train.mjs loss is not finite: ${loss}`);
  if (!warnings.some((w) => w.includes("could not upload the metrics"))) {
    errors.push("train.mjs did not report the failed metrics upload");
  }

  for (const file of ["epoch-1.tfjs.json", "export/model.json", "export/weights.bin"]) {
    if (!fs.existsSync(path.join(checkpoints, file))) errors.push(`train.mjs wrote no ${file}`);
  }
  const saved = path.join(checkpoints, "best");
  if (!fs.existsSync(path.join(saved, "model.json"))) {
    errors.push("train.mjs saved no checkpoint best/model.json");
  } else {
    // The checkpoint must load back (custom layers serialise their config) and predict like a model
    // rebuilt from the same weights.
    const manifest = JSON.parse(fs.readFileSync(path.join(saved, "model.json"), "utf8"));
    const weights = fs.readFileSync(path.join(saved, "weights.bin"));
    const loaded = await tf.loadLayersModel(
      tf.io.fromMemory({
        modelTopology: manifest.modelTopology,
        weightSpecs: manifest.weightsManifest[0].weights,
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      }),
    );
    const rebuilt = module.buildModel();
    rebuilt.setWeights(loaded.getWeights());
    const x = sampleInput(module, expected, 2);
    const a = loaded.predict(x);
    const b = rebuilt.predict(x);
    const diff = a.sub(b).abs().max().arraySync();
    if (!(diff < 1e-4)) errors.push(`reloaded checkpoint predicts differently (max difference ${diff})`);
    tf.dispose([x, a, b]);
    loaded.dispose();
    rebuilt.dispose();
  }
  fs.rmSync(checkpoints, { recursive: true, force: true });
  return { exit_code: code, loss };
}

async function main(args) {
  if (args.length === 0 || args.length % 2 !== 0) {
    console.error("usage: node verify_tfjs.mjs DIR EXPECTED [DIR EXPECTED ...]");
    return 2;
  }
  await tf.setBackend("cpu");
  let failed = 0;
  for (let i = 0; i < args.length; i += 2) {
    const [dir, expectedArg] = [args[i], args[i + 1]];
    const expected = expectedOf(expectedArg);
    const errors = [];
    const result = { id: expected.id, dir };
    const started = performance.now();
    try {
      const { module, ...checked } = await checkModel(dir, expected, errors);
      Object.assign(result, checked, await runTraining(dir, module, expected, errors));
    } catch (error) {
      errors.push(
        error instanceof Error
          ? (error.stack ?? error.message).split("\n").slice(0, 5).join("\n")
          : String(error),
      );
    }
    result.seconds = Math.round(performance.now() - started) / 1000;
    result.ok = errors.length === 0;
    result.errors = errors;
    if (!result.ok) failed++;
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
