/**
 * The model probe's first step: checks of an untrusted model's files made without allocating
 * anything they declare (model-probe.ts).
 */
import fsp from "node:fs/promises";
import path from "node:path";
import type { ArtifactSource } from "../training/artifact-reader";
import { type ModelLimits, ModelRefusedError, mib } from "./model-limits";

// ---------------------------------------------------------------------------------------------
// Checks before any allocation

const TFJS_DTYPE_BYTES: Record<string, number> = {
  float32: 4,
  int32: 4,
  bool: 1,
  complex64: 8,
  uint8: 1,
  int16: 2,
  float16: 2,
};

interface WeightsManifestGroup {
  paths: string[];
  weights: { name: string; shape: number[]; dtype: string; quantization?: { dtype: string } }[];
}

/** The bytes a TF.js weight occupies in the weight files, or a reason it cannot be accepted. */
function weightBytes(w: WeightsManifestGroup["weights"][number], limit: number): number | string {
  const name = typeof w?.name === "string" ? `“${w.name.slice(0, 80)}”` : "a weight";
  if (!w || !Array.isArray(w.shape) || !w.shape.every((d) => Number.isSafeInteger(d) && d >= 0))
    return `${name} has no valid shape in model.json.`;
  const dtype = w.quantization?.dtype ?? w.dtype;
  const size = TFJS_DTYPE_BYTES[dtype];
  if (!size) return `${name} has an unsupported dtype in model.json.`;
  let values = 1;
  for (const d of w.shape) {
    values *= d;
    if (values * size > limit)
      return `weight ${name} declares a shape of ${w.shape.join("×")} values, over the limit of ${mib(limit)} for all weights.`;
  }
  return values * size;
}

/** model.json's weights against the weight files and the limit; returns the files the model reads. */
export async function checkTfjs(source: ArtifactSource, limits: ModelLimits): Promise<string[]> {
  const jsonFile = source.files["model.json"];
  if (!jsonFile) throw new ModelRefusedError("the artifact has no model.json.");
  const { size } = await fsp.stat(jsonFile);
  if (size > limits.maxModelJsonBytes)
    throw new ModelRefusedError(
      `model.json is ${mib(size)}, over the limit of ${mib(limits.maxModelJsonBytes)}.`,
    );
  let json: { modelTopology?: unknown; weightsManifest?: unknown };
  try {
    json = JSON.parse(await fsp.readFile(jsonFile, "utf8"));
  } catch {
    throw new ModelRefusedError("model.json is not valid JSON.");
  }
  if (!json || typeof json !== "object" || !json.modelTopology || typeof json.modelTopology !== "object")
    throw new ModelRefusedError("model.json has no modelTopology.");
  const groups = json.weightsManifest as WeightsManifestGroup[];
  if (
    !Array.isArray(groups) ||
    !groups.every((g) => g && Array.isArray(g.paths) && Array.isArray(g.weights)) ||
    !groups.every((g) => g.paths.every((p) => typeof p === "string"))
  )
    throw new ModelRefusedError("model.json's weightsManifest is not a list of weight groups.");
  let declared = 0;
  for (const w of groups.flatMap((g) => g.weights)) {
    const bytes = weightBytes(w, limits.maxModelBytes);
    if (typeof bytes === "string") throw new ModelRefusedError(bytes);
    declared += bytes;
    if (declared > limits.maxModelBytes)
      throw new ModelRefusedError(
        `its weights declare more than ${mib(limits.maxModelBytes)} (the limit for all weights).`,
      );
  }
  const names = groups.flatMap((g) => g.paths).map((p) => path.basename(p));
  const seen = new Set<string>();
  let fileBytes = 0;
  for (const name of names) {
    if (seen.has(name))
      throw new ModelRefusedError(`model.json lists the weights file “${name.slice(0, 80)}” more than once.`);
    seen.add(name);
    const file = source.files[name];
    if (!file || name === "model.json" || name === "manifest.json")
      throw new ModelRefusedError(
        `model.json lists a weights file “${name.slice(0, 80)}” the artifact does not have.`,
      );
    fileBytes += (await fsp.stat(file)).size;
  }
  if (fileBytes > limits.maxModelBytes)
    throw new ModelRefusedError(
      `its weight files are ${mib(fileBytes)}, over the limit of ${mib(limits.maxModelBytes)}.`,
    );
  if (declared !== fileBytes)
    throw new ModelRefusedError(
      `model.json declares ${declared} bytes of weights but its weight files hold ${fileBytes} bytes.`,
    );
  return ["model.json", ...names];
}

export async function checkOnnx(source: ArtifactSource, limits: ModelLimits): Promise<string[]> {
  const file = source.files["model.onnx"];
  if (!file) throw new ModelRefusedError("the artifact has no model.onnx.");
  const { size } = await fsp.stat(file);
  if (size > limits.maxModelBytes)
    throw new ModelRefusedError(
      `model.onnx is ${mib(size)}, over the limit of ${mib(limits.maxModelBytes)}.`,
    );
  return ["model.onnx"];
}

/** The declared input: an instance's values are allocated per request from it. */
export function checkInput(source: ArtifactSource, limits: ModelLimits): void {
  const { input, format } = source.manifest ?? {};
  if (format !== "onnx" && format !== "tfjs")
    throw new ModelRefusedError("manifest.json names no model format (onnx or tfjs).");
  const shape = input?.shape;
  if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d > 0))
    throw new ModelRefusedError("manifest.json declares no valid input shape.");
  const values = shape.reduce((a, b) => a * b, 1);
  if (values > limits.maxInputValues)
    throw new ModelRefusedError(
      `its input has ${values} values per instance, over the limit of ${limits.maxInputValues}.`,
    );
  if (input.dtype !== "float32" && input.dtype !== "int64")
    throw new ModelRefusedError("manifest.json's input dtype must be float32 or int64.");
}
