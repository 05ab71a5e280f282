/**
 * The limits an untrusted model is held to (settings MODEL_*; README) and the verdict types of the
 * model probe (model-probe.ts).
 */
import { ConflictError } from "../../errors";

export const MiB = 1024 * 1024;

export interface ModelLimits {
  /** model.onnx, or all TF.js weight files together. */
  maxModelBytes: number;
  /** model.json (parsed in this process). */
  maxModelJsonBytes: number;
  /** Values of one instance's input and output (a request's arrays are sized from them). */
  maxInputValues: number;
  maxOutputValues: number;
  /** The probe process's address space (virtual memory; Node itself reserves about 1 GiB of it). */
  probeMemoryBytes: number;
  /** The probe's V8 heap. */
  probeHeapMb: number;
  /** Wall-clock time for the probe to load the model and run one inference. */
  probeTimeoutMs: number;
  /** Probes running at once in this process (others wait). */
  probeConcurrency: number;
}

function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  const value = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The limits, from the environment (read on each check, so tests and operators can change them). */
export function modelLimits(env: NodeJS.ProcessEnv = process.env): ModelLimits {
  return {
    maxModelBytes: envNumber(env, "LAYERLINE_MODEL_MAX_MB", 512) * MiB,
    maxModelJsonBytes: 16 * MiB,
    maxInputValues: envNumber(env, "LAYERLINE_MODEL_MAX_INSTANCE_VALUES", 1_048_576),
    maxOutputValues: envNumber(env, "LAYERLINE_MODEL_MAX_INSTANCE_VALUES", 1_048_576),
    probeMemoryBytes: envNumber(env, "LAYERLINE_MODEL_PROBE_MEMORY_MB", 4096) * MiB,
    probeHeapMb: envNumber(env, "LAYERLINE_MODEL_PROBE_HEAP_MB", 1024),
    probeTimeoutMs: envNumber(env, "LAYERLINE_MODEL_PROBE_TIMEOUT_MS", 60_000),
    probeConcurrency: envNumber(env, "LAYERLINE_MODEL_PROBE_CONCURRENCY", 2),
  };
}

/** A model refused before it reached this process's runtime. */
export class ModelRefusedError extends ConflictError {
  constructor(readonly reason: string) {
    super(`The model could not be loaded: ${reason}`);
  }
}

export interface ProbeSignature {
  inputs: { name: string; type: string | null; shape: unknown }[];
  outputs: { name: string; type: string | null; shape: unknown }[];
}

export interface ProbeVerdict {
  ok: boolean;
  reason: string | null;
  signature: ProbeSignature | null;
  peakRssBytes: number | null;
  /** A verdict that may change on another try (deadline, the probe could not start): never stored. */
  transient?: boolean;
}

export const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;
