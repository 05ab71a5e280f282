/**
 * Untrusted models are probed before this process loads them. An uploaded ONNX or TF.js artifact
 * (a registry version, a hub model, an external job's upload) may be built to crash the native
 * runtime, to declare enormous tensors or to never finish loading: loading it in the API process
 * would take the server down with it. So before serving or evaluating a model:
 *
 * 1. Checks without allocating: model.onnx's size, model.json's size and its weightsManifest (every
 *    weight's declared bytes against the weight files' sizes and the limit; a file listed twice,
 *    unknown dtypes, missing files), and the declared input size per instance.
 * 2. The probe: a child Node process (model-probe-worker.ts) with an address-space limit (prlimit,
 *    else the shell's ulimit), a V8 heap limit, a CPU limit and a wall-clock deadline, no
 *    environment of the server, loads the model and runs one inference on a zero input of the
 *    declared shape; it reports the runtime's input/output signature and its peak resident memory.
 *    It runs in the sandbox of user programs (training/executors/sandbox.ts: bubblewrap, no network,
 *    an unprivileged uid, a read-only system): it sees only the app's node_modules (the runtimes),
 *    read-only, and its own directory holding the worker, its configuration and a copy of the model's
 *    files; never DATA_DIR. With LAYERLINE_SANDBOX=off it runs without it, as the server's user; when
 *    the sandbox is on but does not work, no model is probed (each is refused, "could not be checked").
 *
 * Only a model that passed is then loaded in-process (artifact-reader.ts), where requests are served
 * at full speed. The verdict is kept per digest of the model's bytes, declared input and limits: in
 * this process and in the `model_probes` table, so other server processes do not probe the same bytes
 * again. A refused model is a ConflictError (409) whose detail starts with "The model could not be
 * loaded:" and carries a short reason, never a path or a stack.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { modelProbes } from "../../db/schema";
import type { ArtifactSource } from "../training/artifact-reader";
import {
  type ModelLimits,
  ModelRefusedError,
  modelLimits,
  type ProbeSignature,
  type ProbeVerdict,
} from "./model-limits";
import { probe } from "./model-probe-process";
import { checkInput, checkOnnx, checkTfjs } from "./model-static-checks";

// ---------------------------------------------------------------------------------------------
// Verdicts: per process and in the database

async function digestOf(source: ArtifactSource, files: string[], limits: ModelLimits): Promise<string> {
  const h = createHash("sha256");
  h.update(
    JSON.stringify({
      v: 1,
      format: source.manifest.format,
      input: { shape: source.manifest.input.shape, dtype: source.manifest.input.dtype },
      limits: [limits.probeMemoryBytes, limits.probeHeapMb, limits.maxOutputValues],
      files,
    }),
  );
  for (const name of files) {
    h.update(`\0${name}\0`);
    for await (const chunk of fs.createReadStream(source.files[name])) h.update(chunk as Buffer);
  }
  return h.digest("hex");
}

const MAX_REMEMBERED = 512;
const verdicts = new Map<string, Promise<ProbeVerdict>>();
let running = 0;
const waiting: (() => void)[] = [];

async function withProbeSlot<T>(limit: number, fn: () => Promise<T>): Promise<T> {
  while (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await fn();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

async function storedVerdict(db: Db | undefined, digest: string): Promise<ProbeVerdict | null> {
  if (!db) return null;
  try {
    const [row] = await db.select().from(modelProbes).where(eq(modelProbes.digest, digest)).limit(1);
    return row
      ? {
          ok: row.ok,
          reason: row.reason,
          signature: row.signature as ProbeSignature | null,
          peakRssBytes: row.peakRssBytes,
        }
      : null;
  } catch (err) {
    console.warn("[serving] model probe verdicts unreadable:", err instanceof Error ? err.message : err);
    return null;
  }
}

async function storeVerdict(db: Db | undefined, digest: string, v: ProbeVerdict): Promise<void> {
  if (!db || v.transient) return;
  try {
    await db
      .insert(modelProbes)
      .values({
        digest,
        ok: v.ok,
        reason: v.reason,
        signature: v.signature as unknown as Record<string, unknown> | null,
        peakRssBytes: v.peakRssBytes,
      })
      .onConflictDoNothing();
  } catch (err) {
    console.warn("[serving] model probe verdict not stored:", err instanceof Error ? err.message : err);
  }
}

/** The verdict for these bytes: remembered, stored by any server process, or probed now. */
async function verdictFor(
  source: ArtifactSource,
  files: string[],
  limits: ModelLimits,
  db: Db | undefined,
): Promise<ProbeVerdict> {
  const digest = await digestOf(source, files, limits);
  const known = verdicts.get(digest);
  if (known) return known;
  const pending = (async () => {
    const stored = await storedVerdict(db, digest);
    if (stored) return stored;
    const v = await withProbeSlot(limits.probeConcurrency, () => probe(source, files, limits));
    await storeVerdict(db, digest, v);
    return v;
  })();
  verdicts.set(digest, pending);
  pending.then(
    (v) => {
      if (v.transient) verdicts.delete(digest);
    },
    () => verdicts.delete(digest),
  );
  while (verdicts.size > MAX_REMEMBERED) verdicts.delete(verdicts.keys().next().value as string);
  return pending;
}

/**
 * Throws ModelRefusedError (409) unless the artifact's model passes the checks and the probe; then
 * it can be loaded in this process (loadArtifact). `db` keeps the verdict for other processes.
 */
export async function checkUntrustedModel(source: ArtifactSource, db?: Db): Promise<ProbeVerdict> {
  const limits = modelLimits();
  checkInput(source, limits);
  const files =
    source.manifest.format === "onnx" ? await checkOnnx(source, limits) : await checkTfjs(source, limits);
  const verdict = await verdictFor(source, files, limits, db);
  if (!verdict.ok) throw new ModelRefusedError(verdict.reason ?? "it failed the load check.");
  return verdict;
}

/** Forgets this process's verdicts (tests). */
export function forgetModelVerdicts(): void {
  verdicts.clear();
}
