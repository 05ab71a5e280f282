/**
 * The warm models of this process: each revision's artifact is loaded once (copied from blob
 * storage into a temporary directory, then artifact-reader.ts) and kept in an LRU keyed by revision
 * id; an evicted model is disposed. Concurrent loads of one revision share one promise. Models are
 * per process; everything that must hold across servers (state, keys, pause) is read from the
 * database on each request.
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { DeploymentRevisionRow } from "../../db/schema";
import { ConflictError } from "../../errors";
import { loadArtifact, type ModelManifest } from "../training/artifact-reader";
import { copyBlobToFile } from "../training/blob-files";
import { MicroBatcher } from "./micro-batcher";

const MAX_MODELS = Number(process.env.LAYERLINE_SERVING_MAX_MODELS ?? 16);

export interface WarmModel {
  manifest: ModelManifest;
  batcher: MicroBatcher;
  dispose(): Promise<void>;
}

const cache = new Map<string, Promise<WarmModel>>();

async function load(revision: DeploymentRevisionRow): Promise<WarmModel> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-serve-"));
  try {
    const files: Record<string, string> = {};
    for (const f of revision.artifactFiles) {
      if (f.name === "manifest.json") continue;
      const file = path.join(dir, path.basename(f.name));
      if (!(await copyBlobToFile(f.blob_key, file)))
        throw new ConflictError(`The artifact file ${f.name} is missing from storage.`);
      files[f.name] = file;
    }
    const manifest = revision.artifactManifest as unknown as ModelManifest;
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

/** The warm model of a revision, loading it on first use. */
export function warmModel(revision: DeploymentRevisionRow): Promise<WarmModel> {
  const hit = cache.get(revision.id);
  if (hit) {
    cache.delete(revision.id); // re-insert: most recently used last
    cache.set(revision.id, hit);
    return hit;
  }
  const loading = load(revision);
  cache.set(revision.id, loading);
  loading.catch(() => {
    if (cache.get(revision.id) === loading) cache.delete(revision.id);
  });
  while (cache.size > MAX_MODELS) {
    const [oldest, evicted] = cache.entries().next().value as [string, Promise<WarmModel>];
    cache.delete(oldest);
    evicted.then((m) => m.dispose()).catch(() => {});
  }
  return loading;
}

/** Drops the warm models of these revisions (a deleted deployment). */
export function evictRevisions(ids: string[]): void {
  for (const id of ids) {
    const entry = cache.get(id);
    if (!entry) continue;
    cache.delete(id);
    entry.then((m) => m.dispose()).catch(() => {});
  }
}

export function cachedRevisionCount(): number {
  return cache.size;
}
