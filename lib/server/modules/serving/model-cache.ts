/**
 * The warm models of this process: each revision's artifact is loaded once (linked into a temporary
 * directory from this server's local copy of the stored files, fetched from the blob store and
 * checked once: training/blob-files.ts; then artifact-reader.ts) and kept in an LRU keyed by revision
 * id. Before its first load in a process, the model is checked in a limited child process
 * (model-probe.ts: a model built to crash the runtime or exhaust memory is refused with 409, and the
 * verdict is kept per digest of its bytes); requests then run in-process. An evicted model is disposed once no request is using it any more (each use holds a
 * reference). Concurrent loads of one revision share one promise. Models are
 * per process; everything that must hold across servers (state, keys, pause) is read from the
 * database on each request.
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { getDb } from "../../db/client";
import type { DeploymentRevisionRow } from "../../db/schema";
import { ConflictError } from "../../errors";
import { loadArtifact, type ModelManifest } from "../training/artifact-reader";
import { linkBlobToFile } from "../training/blob-files";
import { MicroBatcher } from "./micro-batcher";
import { checkUntrustedModel } from "./model-probe";

const MAX_MODELS = Number(process.env.LAYERLINE_SERVING_MAX_MODELS ?? 16);

export interface WarmModel {
  manifest: ModelManifest;
  batcher: MicroBatcher;
  dispose(): Promise<void>;
}

/** What loading a revision's model reads (a revision about to be written has no other fields yet). */
export type ServableRevision = Pick<
  DeploymentRevisionRow,
  "id" | "artifactFiles" | "artifactManifest" | "settings"
>;

/** Files the loaders do not read: the manifest (already parsed) and PyTorch weights (fine-tuning only). */
const NOT_SERVED = new Set(["manifest.json", "weights.pt"]);

async function load(revision: ServableRevision): Promise<WarmModel> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-serve-"));
  try {
    const files: Record<string, string> = {};
    for (const f of revision.artifactFiles) {
      if (NOT_SERVED.has(f.name)) continue;
      const file = path.join(dir, path.basename(f.name));
      if (!(await linkBlobToFile(f.blob_key, file)))
        throw new ConflictError(`The artifact file ${f.name} is missing from storage.`);
      files[f.name] = file;
    }
    const manifest = revision.artifactManifest as unknown as ModelManifest;
    await checkUntrustedModel({ manifest, files }, await getDb());
    const model = await loadArtifact({ manifest, files });
    return {
      manifest,
      batcher: new MicroBatcher(model, { maxBatch: revision.settings.max_batch_size }),
      async dispose() {
        await model.dispose();
        await fsp.rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await fsp.rm(dir, { recursive: true, force: true });
    throw err;
  }
}

interface Entry {
  loading: Promise<WarmModel>;
  /** Requests using the model now. */
  users: number;
  /** Out of the cache: disposed when the last user leaves. */
  retired: boolean;
}

/** An LRU of loaded models whose evicted entries wait for their users before being disposed. */
export class ModelCache<K> {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly loader: (key: K) => Promise<WarmModel>,
    private readonly idOf: (key: K) => string,
    private readonly maxModels: number,
  ) {}

  /** Runs `use` with the warm model of `key` (loaded on first use), holding it until `use` ends. */
  async with<T>(key: K, use: (model: WarmModel) => Promise<T>): Promise<T> {
    const entry = this.acquire(key);
    entry.users += 1;
    try {
      return await use(await entry.loading);
    } finally {
      entry.users -= 1;
      if (entry.retired && entry.users === 0) dispose(entry);
    }
  }

  /** Drops these keys' models (a deleted deployment); each is disposed when its users are done. */
  evict(ids: string[]): void {
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (entry) this.retire(id, entry);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether the model of this id is loaded (or loading) in this process. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  private acquire(key: K): Entry {
    const id = this.idOf(key);
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id); // re-insert: most recently used last
      this.entries.set(id, hit);
      return hit;
    }
    const entry: Entry = { loading: this.loader(key), users: 0, retired: false };
    this.entries.set(id, entry);
    entry.loading.catch(() => {
      if (this.entries.get(id) === entry) this.entries.delete(id);
    });
    while (this.entries.size > this.maxModels) {
      const [oldest, evicted] = this.entries.entries().next().value as [string, Entry];
      this.retire(oldest, evicted);
    }
    return entry;
  }

  private retire(id: string, entry: Entry): void {
    if (this.entries.get(id) === entry) this.entries.delete(id);
    entry.retired = true;
    if (entry.users === 0) dispose(entry);
  }
}

function dispose(entry: Entry): void {
  entry.loading.then((m) => m.dispose()).catch(() => {});
}

const cache = new ModelCache<ServableRevision>(load, (r) => r.id, MAX_MODELS);

/** Runs `use` with the warm model of a revision (loaded on first use); it stays loaded meanwhile. */
export function withWarmModel<T>(
  revision: DeploymentRevisionRow,
  use: (model: WarmModel) => Promise<T>,
): Promise<T> {
  return cache.with(revision, use);
}

/**
 * Loads a revision's model before the revision is written (a new deployment, a new model, a roll
 * back): the revision then serves its first call warm in this process, and a model that cannot be
 * loaded is refused (409) before anything changes.
 */
export async function preloadRevision(revision: ServableRevision): Promise<void> {
  try {
    await cache.with(revision, async () => undefined);
  } catch (err) {
    if (err instanceof ConflictError) throw err;
    console.error("[serving] model load failed:", err instanceof Error ? err.message : err);
    throw new ConflictError(
      "The model cannot be loaded for serving: its artifact is not a valid model of its format (manifest.json and model.onnx, or model.json and its weights).",
    );
  }
}

/** Drops the warm models of these revisions (a deleted deployment). */
export function evictRevisions(ids: string[]): void {
  cache.evict(ids);
}

/** Whether a revision's model is warm (loaded or loading) in this process. */
export function isRevisionWarm(revisionId: string): boolean {
  return cache.has(revisionId);
}

export function cachedRevisionCount(): number {
  return cache.size;
}
