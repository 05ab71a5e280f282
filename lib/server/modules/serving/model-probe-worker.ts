/**
 * The program of the model probe's child process (model-probe.ts writes it into the probe's own
 * temporary directory and runs it with Node under memory, CPU and time limits). Plain CommonJS, so
 * that it runs as it is under any build of the app: it reads its configuration file, loads the model
 * with the app's onnxruntime-node or @tensorflow/tfjs exactly as artifact-reader.ts does, runs one
 * inference on a zero input of the declared shape, and prints one line `@@probe {json}`: the
 * runtime's input and output signature, the output's size and the process's peak resident memory,
 * or the error. A crash (abort, segfault, out of memory) ends only this process.
 */
export const PROBE_WORKER_SOURCE = String.raw`"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { createRequire } = require("node:module");

const config = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const load = createRequire(path.join(config.nodeModules, "layerline-model-probe.js"));

function peakRss() {
  try {
    const m = /VmHWM:\s*(\d+)\s*kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function report(result) {
  process.stdout.write("\n@@probe " + JSON.stringify({ ...result, peak_rss_bytes: peakRss() }) + "\n");
}

const shape = config.input.shape;
const perSample = shape.reduce((a, b) => a * b, 1);
const dims = [1, ...shape];

async function probeOnnx() {
  const ort = load("onnxruntime-node");
  const session = await ort.InferenceSession.create(config.files["model.onnx"], {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  const meta = (list) => (list ?? []).map((m) => ({ name: m.name, type: m.type ?? null, shape: m.shape ?? null }));
  const signature = { inputs: meta(session.inputMetadata), outputs: meta(session.outputMetadata) };
  const input =
    config.input.dtype === "int64"
      ? new ort.Tensor("int64", new BigInt64Array(perSample), dims)
      : new ort.Tensor("float32", new Float32Array(perSample), dims);
  const result = await session.run({ [session.inputNames[0] ?? "input"]: input });
  const output = result[session.outputNames[0] ?? "output"];
  if (!output) throw new Error("the model returned no output");
  return { signature, output_values: output.size ?? output.data.length };
}

async function probeTfjs() {
  const tf = load("@tensorflow/tfjs");
  await tf.ready();
  // Trusted code: the app's own generated PyTorch-compatible layers, never the artifact's.
  new Function("tf", config.layersSource)(tf);
  const json = JSON.parse(fs.readFileSync(config.files["model.json"], "utf8"));
  const specs = json.weightsManifest.flatMap((g) => g.weights);
  const buffers = json.weightsManifest
    .flatMap((g) => g.paths)
    .map((p) => fs.readFileSync(config.files[path.basename(p)]));
  const bytes = Buffer.concat(buffers);
  const weightData = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const model = await tf.loadLayersModel({
    load: async () => ({ modelTopology: json.modelTopology, weightSpecs: specs, weightData }),
  });
  const x = tf.zeros(dims, config.input.dtype === "int64" ? "int32" : "float32");
  const y = model.predict(x);
  const output = Array.isArray(y) ? y[0] : y;
  await output.data();
  const meta = (list) => list.map((t) => ({ name: t.name, type: t.dtype ?? null, shape: t.shape }));
  return { signature: { inputs: meta(model.inputs), outputs: meta(model.outputs) }, output_values: output.size };
}

(config.format === "onnx" ? probeOnnx() : probeTfjs()).then(
  (r) => {
    report({ ok: true, ...r });
    process.exit(0);
  },
  (err) => {
    report({ ok: false, error: String((err && err.message) || err).slice(0, 2000) });
    process.exit(0);
  },
);
`;
