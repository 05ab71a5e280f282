/**
 * The curated base-model catalog: data/catalog/catalog.json (written by `npm run catalog:build`)
 * and the weight files beside it. Read once per process; each weight file's SHA-256 is checked
 * against the catalog before it is handed to a run (a corrupted or replaced file is refused).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { BaseModelCatalog, BaseModelEntry } from "../../../ml/catalog/types";
import { ConflictError } from "../../errors";

export function catalogDir(): string {
  return path.resolve(
    /* turbopackIgnore: true */ process.env.LAYERLINE_CATALOG_DIR ??
      path.join(process.cwd(), "data", "catalog"),
  );
}

let cached: { dir: string; catalog: BaseModelCatalog } | null = null;

/** The catalog (empty when catalog.json is absent). */
export function loadCatalog(): BaseModelCatalog {
  const dir = catalogDir();
  if (cached?.dir === dir) return cached.catalog;
  const file = path.join(/* turbopackIgnore: true */ dir, "catalog.json");
  const catalog: BaseModelCatalog = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, "utf8")) as BaseModelCatalog)
    : { format: "layerline.catalog/v1", models: [] };
  cached = { dir, catalog };
  return catalog;
}

export function listBaseModels(): BaseModelEntry[] {
  return loadCatalog().models;
}

export function findBaseModel(id: string): BaseModelEntry | undefined {
  return loadCatalog().models.find((m) => m.id === id);
}

const verified = new Map<string, string>();

/** The absolute path of a base model's weights, after checking their SHA-256 (once per process). */
export async function baseModelWeightsFile(entry: BaseModelEntry): Promise<string> {
  const file = path.join(/* turbopackIgnore: true */ catalogDir(), path.basename(entry.weights.file));
  if (verified.get(file) === entry.weights.sha256) return file;
  const hash = createHash("sha256");
  try {
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  } catch {
    throw new ConflictError(`The weights of base model "${entry.id}" are missing on this server.`);
  }
  if (hash.digest("hex") !== entry.weights.sha256)
    throw new ConflictError(
      `The weights of base model "${entry.id}" do not match their SHA-256 in the catalog; rebuild them with npm run catalog:build.`,
    );
  verified.set(file, entry.weights.sha256);
  await fsp.access(file);
  return file;
}

/** Forget the cached catalog (tests that point LAYERLINE_CATALOG_DIR elsewhere). */
export function resetCatalogCache(): void {
  cached = null;
  verified.clear();
}
