/**
 * The one model-artifact reader (serving, evaluation, the registry): loads a trained model — ONNX
 * through onnxruntime-node, TF.js model.json + weights.bin through @tensorflow/tfjs reading from
 * disk — with its manifest, and predicts from raw instances by applying the manifest's preprocessing
 * exactly as training did (materialize.ts). No training code is involved.
 *
 * `buildManifest` writes that manifest when a job succeeds.
 *
 * One piece (past ~400 lines): reading a manifest, encoding instances and decoding outputs must
 * agree exactly with buildManifest, so they are kept side by side.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { analyzeGraph } from "../../../ml/infer-graph";
import type { Preprocessing, PreprocessingStep } from "../../db/schema/training";
import { ValidationError } from "../../errors";
import { modelIO } from "./dataset-fit";
import { UNUSED_CLASS_PREFIX } from "./materialize-text";

export type ArtifactFormat = "onnx" | "tfjs";

export interface ManifestFile {
  name: string;
  size_bytes: number;
  sha256: string;
}

/** A raw column an instance carries (in the order training used them). */
export type RawFeature = Preprocessing["raw_features"][number];

/** manifest.json: everything needed to serve the model files with no training code. */
export interface ModelManifest {
  manifest_version: 1;
  format: ArtifactFormat;
  /** What trained it: pytorch (exported to ONNX) or tfjs. */
  framework: "pytorch" | "tfjs";
  /** The runtime the job ran on (pytorch, tfjs, or external for the user's own hardware). */
  producer: "pytorch" | "tfjs" | "external";
  task: Preprocessing["task"] | null;
  job_id: string;
  project_id: string;
  architecture_version_id: string | null;
  dataset_id: string;
  dataset_version_id: string;
  /** The fields of a raw instance, in order (for text models: one text field). */
  input_features: RawFeature[];
  input: {
    name: "input";
    /** One sample, batch excluded. */
    shape: number[];
    dtype: "float32" | "int64";
    /** The encoded inputs, in the order the model reads them. */
    features: string[];
    /** The steps from raw instance to encoded input (and of the target), in order. */
    preprocessing: PreprocessingStep[];
  };
  output:
    | { name: "output"; kind: "labels"; labels: string[] }
    | { name: "output"; kind: "value"; target: string | null; shape: number[] };
  /** Metrics of the exported weights (the best epoch's, and test_* when there was a test split). */
  metrics: Record<string, number>;
  /**
   * The architecture and configuration it was trained with: with `weights.pt` (PyTorch) among the
   * files, the model can be a fine-tuning run's base model. Absent in manifests of older jobs.
   */
  architecture?: { graph: ArchitectureGraph; training_config: TrainingConfig };
  files: ManifestFile[];
  created_at: string;
}

export interface BuildManifestInput {
  format: ArtifactFormat;
  producer: "pytorch" | "tfjs" | "external";
  /** The job's preprocessing (null for an external job, which prepared its own data). */
  preprocessing: Preprocessing | null;
  /** The architecture (for jobs without preprocessing the input shape/dtype and output come from it). */
  graph?: ArchitectureGraph;
  config?: TrainingConfig;
  metrics: Record<string, number>;
  jobId: string;
  projectId: string;
  architectureVersionId: string | null;
  datasetId: string;
  datasetVersionId: string;
  files: ManifestFile[];
  createdAt?: Date;
}

/** The manifest of a succeeded job's artifact (manifest.json is not one of `files`). */
export function buildManifest(m: BuildManifestInput): ModelManifest {
  const p = m.preprocessing;
  const io = !p && m.graph ? modelIO(m.graph, analyzeGraph(m.graph)) : null;
  const fallback = io?.ok ? io.io : null;
  const inputShape = p?.input_shape ?? fallback?.inputShape ?? [];
  const outputShape = fallback?.outputShape ?? [];
  return {
    manifest_version: 1,
    format: m.format,
    framework: m.format === "onnx" ? "pytorch" : "tfjs",
    producer: m.producer,
    task: p?.task ?? null,
    job_id: m.jobId,
    project_id: m.projectId,
    architecture_version_id: m.architectureVersionId,
    dataset_id: m.datasetId,
    dataset_version_id: m.datasetVersionId,
    input_features: p?.raw_features ?? [],
    input: {
      name: "input",
      shape: inputShape,
      dtype: p?.input_dtype ?? fallback?.inputDtype ?? "float32",
      features: p?.input_features ?? [],
      preprocessing: p?.steps ?? [],
    },
    output:
      p?.labels && p.labels.length > 0
        ? { name: "output", kind: "labels", labels: p.labels }
        : { name: "output", kind: "value", target: p?.target ?? null, shape: p ? [1] : outputShape },
    metrics: m.metrics,
    ...(m.graph && m.config ? { architecture: { graph: m.graph, training_config: m.config } } : {}),
    files: m.files.filter((f) => f.name !== "manifest.json"),
    created_at: (m.createdAt ?? new Date()).toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Preprocessing of raw instances

export type Prediction =
  | { label: string; probabilities: Record<string, number> }
  | { value: number }
  | { values: number[] };

export interface EncodedBatch {
  count: number;
  /** count × prod(shape) values: token ids (int64 models) or floats. */
  values: Float32Array | Int32Array;
}

function fieldError(index: number, field: string, message: string): ValidationError {
  const detail = `Instance ${index}: ${message}`;
  return new ValidationError(detail, [{ path: `inputs.${index}.${field}`, message }]);
}

function numberOf(value: unknown, index: number, field: string): number {
  if (value === null) return Number.NaN;
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  throw fieldError(index, field, `“${field}” must be a number (or null when unknown).`);
}

/**
 * Raw instances → the model's input, by the manifest's steps. A tabular instance is an object keyed
 * by column name (numbers; categories as strings; null = missing, imputed like training did); a text
 * model's instance is `{<text field>: "…"}` (its last characters are used; characters outside the
 * vocabulary are skipped, a short text is left-padded with token 0). Throws ValidationError naming
 * the instance and field.
 */
export function encodeInstances(manifest: ModelManifest, instances: readonly unknown[]): EncodedBatch {
  const steps = manifest.input.preprocessing;
  const perSample = manifest.input.shape.reduce((a, b) => a * b, 1);
  const tokens = steps.find(
    (s): s is Extract<PreprocessingStep, { kind: "char_tokens" }> => s.kind === "char_tokens",
  );
  if (tokens) {
    const field = manifest.input_features[0]?.name ?? "text";
    const index = new Map(tokens.vocabulary.map((ch, i) => [ch, i] as const));
    const values = new Int32Array(instances.length * perSample);
    instances.forEach((instance, i) => {
      const text =
        typeof instance === "string" ? instance : (instance as Record<string, unknown> | null)?.[field];
      if (typeof text !== "string") throw fieldError(i, field, `“${field}” must be a string.`);
      const ids = Array.from(text).flatMap((ch) => (index.has(ch) ? [index.get(ch) as number] : []));
      const last = ids.slice(-perSample);
      values.set(last, i * perSample + (perSample - last.length));
    });
    return { count: instances.length, values };
  }

  if (manifest.input_features.length === 0) {
    // No recorded preprocessing (an external job): each instance is the flat input itself.
    const values = new Float32Array(instances.length * perSample);
    instances.forEach((instance, i) => {
      const flat = Array.isArray(instance) ? instance.flat(Number.POSITIVE_INFINITY) : null;
      if (!flat || flat.length !== perSample || !flat.every((v) => typeof v === "number"))
        throw fieldError(i, "input", `expected ${perSample} numbers.`);
      values.set(flat as number[], i * perSample);
    });
    return { count: instances.length, values };
  }

  const features = manifest.input.features;
  if (features.length !== perSample)
    throw new ValidationError(
      `The manifest lists ${features.length} inputs for an input of ${perSample} values.`,
    );
  const values = new Float32Array(instances.length * perSample);
  instances.forEach((instance, i) => {
    if (instance === null || typeof instance !== "object" || Array.isArray(instance))
      throw fieldError(i, "", "an instance must be an object keyed by feature name.");
    const raw = instance as Record<string, unknown>;
    const current = new Map<string, number | string | null>();
    for (const f of manifest.input_features) {
      if (!(f.name in raw)) throw fieldError(i, f.name, `missing feature “${f.name}”.`);
      const value = raw[f.name];
      if (f.type === "number") current.set(f.name, numberOf(value, i, f.name));
      else if (value === null) current.set(f.name, null);
      else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
        current.set(f.name, String(value));
      else throw fieldError(i, f.name, `“${f.name}” must be a string.`);
    }
    for (const step of steps) {
      switch (step.kind) {
        case "impute":
          step.columns.forEach((c, k) => {
            const v = current.get(c);
            if (typeof v !== "number" || !Number.isFinite(v)) current.set(c, step.values[k]);
          });
          break;
        case "one_hot": {
          const v = current.get(step.column);
          for (const category of step.categories)
            current.set(`${step.column}=${category}`, v === category ? 1 : 0);
          break;
        }
        case "standardize":
          step.columns.forEach((c, k) => {
            current.set(c, ((current.get(c) as number) - step.mean[k]) / step.std[k]);
          });
          break;
        case "scale":
          for (const c of step.columns) current.set(c, (current.get(c) as number) * step.factor);
          break;
        default:
          // The split, the target's encoding and the reshape do not change an instance's values.
          break;
      }
    }
    features.forEach((name, k) => {
      const v = current.get(name);
      if (typeof v !== "number" || !Number.isFinite(v))
        throw fieldError(i, name, `“${name}” could not be encoded as a number.`);
      values[i * perSample + k] = v;
    });
  });
  return { count: instances.length, values };
}

function softmax(logits: ArrayLike<number>): number[] {
  const max = Math.max(...Array.from(logits));
  const exps = Array.from(logits, (x) => Math.exp(x - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** The model's raw outputs (count × outputs per sample) → predictions, by the manifest. */
export function decodeOutputs(manifest: ModelManifest, outputs: Float32Array, count: number): Prediction[] {
  const width = outputs.length / Math.max(1, count);
  const rows = Array.from({ length: count }, (_, i) => outputs.subarray(i * width, (i + 1) * width));
  const out = manifest.output;
  if (out.kind === "labels") {
    if (manifest.task === "binary_classification" && width === 1 && out.labels.length === 2) {
      return rows.map((row) => {
        const p = 1 / (1 + Math.exp(-row[0]));
        return {
          label: p >= 0.5 ? out.labels[1] : out.labels[0],
          probabilities: { [out.labels[0]]: 1 - p, [out.labels[1]]: p },
        };
      });
    }
    return rows.map((row) => {
      const probs = softmax(row);
      let best = 0;
      for (let k = 1; k < probs.length; k++) if (probs[k] > probs[best]) best = k;
      const probabilities: Record<string, number> = {};
      probs.forEach((p, k) => {
        const name = out.labels[k] ?? String(k);
        if (!name.startsWith(UNUSED_CLASS_PREFIX)) probabilities[name] = p;
      });
      return { label: out.labels[best] ?? String(best), probabilities };
    });
  }
  const target = manifest.input.preprocessing.find(
    (s): s is Extract<PreprocessingStep, { kind: "standardize_target" }> => s.kind === "standardize_target",
  );
  return rows.map((row) =>
    width === 1
      ? { value: target ? row[0] * target.std + target.mean : row[0] }
      : { values: Array.from(row) },
  );
}

// ---------------------------------------------------------------------------------------------
// Loading

export interface LoadedArtifact {
  manifest: ModelManifest;
  /** Raw instances → predictions, in order (see encodeInstances and decodeOutputs). */
  predict(instances: readonly unknown[]): Promise<Prediction[]>;
  /** Encoded inputs → the model's raw outputs (logits or values), count × outputs per sample. */
  run(batch: EncodedBatch): Promise<Float32Array>;
  dispose(): Promise<void>;
}

export interface ArtifactSource {
  manifest: ModelManifest;
  /** Where each artifact file is on disk, by file name (model.onnx, or model.json + weights.bin). */
  files: Record<string, string>;
}

/** A directory holding manifest.json and the model files. */
export async function readArtifactDir(dir: string): Promise<ArtifactSource> {
  const manifest = JSON.parse(await fs.readFile(path.join(dir, "manifest.json"), "utf8")) as ModelManifest;
  const names = await fs.readdir(dir);
  return { manifest, files: Object.fromEntries(names.map((n) => [n, path.join(dir, n)])) };
}

function fileOf(source: ArtifactSource, name: string): string {
  const file = source.files[name];
  if (!file) throw new ValidationError(`The artifact has no ${name}.`);
  return file;
}

async function loadOnnx(source: ArtifactSource): Promise<Omit<LoadedArtifact, "predict" | "manifest">> {
  const ort = await import("onnxruntime-node");
  const session = await ort.InferenceSession.create(fileOf(source, "model.onnx"));
  const { shape, dtype } = source.manifest.input;
  return {
    async run(batch) {
      const dims = [batch.count, ...shape];
      const input =
        dtype === "int64"
          ? new ort.Tensor(
              "int64",
              BigInt64Array.from(batch.values, (v) => BigInt(v)),
              dims,
            )
          : new ort.Tensor("float32", Float32Array.from(batch.values), dims);
      const result = await session.run({ [session.inputNames[0] ?? "input"]: input });
      const output = result[session.outputNames[0] ?? "output"];
      return Float32Array.from(output.data as Float32Array);
    },
    dispose: () => session.release(),
  };
}

type Tf = typeof import("@tensorflow/tfjs");
let torchLayersRegistered = false;

/**
 * Registers the PyTorch-compatible layers of generated TF.js models (TorchLSTM, TorchEmbedding…)
 * from Layerline's own code generator, never from the artifact: a model file cannot bring code.
 */
async function registerTorchLayers(tf: Tf): Promise<void> {
  if (torchLayersRegistered) return;
  const { torchLayersFunctionBody } = await import("../../../ml/codegen/tfjs-layers");
  const source = torchLayersFunctionBody();
  // Trusted code: the generator's own output, evaluated with this process's tf.
  const define = new Function("tf", source) as (tf: Tf) => void;
  define(tf);
  torchLayersRegistered = true;
}

async function loadTfjs(source: ArtifactSource): Promise<Omit<LoadedArtifact, "predict" | "manifest">> {
  const tf = await import("@tensorflow/tfjs");
  await tf.ready();
  await registerTorchLayers(tf);
  const json = JSON.parse(await fs.readFile(fileOf(source, "model.json"), "utf8")) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: import("@tensorflow/tfjs").io.WeightsManifestEntry[] }[];
  };
  const specs = json.weightsManifest.flatMap((g) => g.weights);
  const buffers = await Promise.all(
    json.weightsManifest.flatMap((g) => g.paths).map((p) => fs.readFile(fileOf(source, path.basename(p)))),
  );
  const bytes = Buffer.concat(buffers);
  const weightData = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const model = await tf.loadLayersModel({
    load: async () => ({ modelTopology: json.modelTopology, weightSpecs: specs, weightData }),
  });
  const { shape, dtype } = source.manifest.input;
  return {
    async run(batch) {
      const output = tf.tidy(() => {
        const x = tf.tensor(batch.values, [batch.count, ...shape], dtype === "int64" ? "int32" : "float32");
        const y = model.predict(x);
        return (Array.isArray(y) ? y[0] : y).reshape([batch.count, -1]);
      });
      const data = (await output.data()) as Float32Array;
      output.dispose();
      return Float32Array.from(data);
    },
    async dispose() {
      model.dispose();
    },
  };
}

/** Loads an artifact (a directory with manifest.json, or a manifest and file paths). */
export async function loadArtifact(source: ArtifactSource | string): Promise<LoadedArtifact> {
  const resolved = typeof source === "string" ? await readArtifactDir(source) : source;
  const { manifest } = resolved;
  const engine = manifest.format === "onnx" ? await loadOnnx(resolved) : await loadTfjs(resolved);
  return {
    manifest,
    run: engine.run,
    dispose: engine.dispose,
    async predict(instances) {
      if (instances.length === 0) return [];
      const batch = encodeInstances(manifest, instances);
      return decodeOutputs(manifest, await engine.run(batch), batch.count);
    },
  };
}
