/**
 * The committed base-model weights for real: for each catalog entry, its held-out data is prepared
 * again from data/builtin (seeded, as `npm run catalog:build` did), the PyTorch project is generated
 * from its graph, and /usr/bin/python3 loads the committed state_dict strictly into the generated
 * model and evaluates it on the test split: the catalog's recorded figures come out again.
 */
// Zod's OpenAPI extension before any schema is built.
import "@hono/zod-openapi";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePytorchProject } from "@/lib/ml/codegen";
import { closeDb, type Db, getDb, openDb, setDb } from "@/lib/server/db/client";
import {
  baseModelWeightsFile,
  listBaseModels,
  resetCatalogCache,
} from "@/lib/server/modules/catalog/base-models";
import { findPretrainSpec, prepareCatalogData } from "@/lib/server/modules/training/catalog-pretraining";
import { evaluateStateDict } from "@/lib/server/modules/training/catalog-weights";
import { writeProjectFiles } from "@/lib/server/modules/training/executors/process";

/** Same weights, same rows: only float summation order may differ from the build's batched figures. */
const TOLERANCE = 1e-4;

const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-catalog-weights-"));
let db: Db;

beforeAll(async () => {
  delete process.env.LAYERLINE_CATALOG_DIR;
  resetCatalogCache();
  setDb(await openDb({ kind: "pglite-memory" }));
  db = await getDb();
});
afterAll(async () => {
  await closeDb();
  fs.rmSync(root, { recursive: true, force: true });
});

const models = listBaseModels();

describe("committed base-model weights", () => {
  it("the catalog has the four curated models", () => {
    expect(models.map((m) => m.id)).toEqual([
      "digits-cnn-0-4",
      "digits-lenet-28",
      "breast-cancer-mlp",
      "char-lstm-declaration",
    ]);
  });

  it.each(models.map((m) => [m.id, m] as const))(
    "%s loads strictly into the generated model and reproduces its held-out figures",
    async (id, entry) => {
      const spec = findPretrainSpec(id);
      expect(spec, id).toBeDefined();
      if (!spec) return;
      const work = path.join(root, id);
      const data = await prepareCatalogData(db, spec, path.join(work, "data"));
      // The catalog's input and output orders are the prepared data's.
      expect(entry.features).toEqual(data.features);
      expect(entry.labels).toEqual(data.labels);
      expect(entry.vocab).toEqual(data.vocab);
      expect(entry.splits).toEqual(data.rows);
      expect(entry.evaluation.rows).toBe(data.rows.test);
      expect(entry.graph).toEqual(spec.graph);

      const weights = await baseModelWeightsFile(entry); // checks the SHA-256
      const projectDir = path.join(work, "project");
      await writeProjectFiles(projectDir, generatePytorchProject(entry.graph, entry.config).files);
      const measured = await evaluateStateDict({
        projectDir,
        weights,
        dataDir: path.join(work, "data"),
        split: "test",
      });
      expect(measured.rows).toBe(entry.evaluation.rows);
      expect(Math.abs(measured.loss - entry.evaluation.metrics.loss)).toBeLessThan(TOLERANCE);
      expect(Math.abs(measured.accuracy - entry.evaluation.metrics.accuracy)).toBeLessThan(TOLERANCE);
      if (entry.task === "language_modeling") {
        expect(entry.evaluation.metrics.perplexity).toBeCloseTo(Math.exp(measured.loss), 2);
        // Better than guessing among the 96 characters (ln 96 ≈ 4.56 nats).
        expect(measured.loss).toBeLessThan(3);
      } else {
        expect(measured.accuracy).toBeGreaterThan(0.9);
      }
    },
    120_000,
  );
});
