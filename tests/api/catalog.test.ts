/**
 * GET /api/v1/foundation-catalog through the real app and database: the committed catalog
 * (data/catalog), its weights files (SHA-256 and size), parameter counts and codegen validity.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { validateForCodegen } from "@/lib/ml/codegen";
import type { ArchitectureGraph } from "@/lib/ml/graph-types";
import { analyzeGraph } from "@/lib/ml/infer-graph";
import { PRETRAIN_SPECS } from "@/lib/server/modules/training/catalog-pretraining";
import { call, signUp, signUpWithKey, startTestApp, type TestApp } from "../helpers";

const CATALOG_DIR = path.resolve("data/catalog");
let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await startTestApp();
  key = (await signUpWithKey(app)).key;
});

interface Item {
  id: string;
  task: string;
  architecture: ArchitectureGraph;
  config: { epochs: number };
  parameter_count: number;
  labels: string[] | null;
  num_labels: number | null;
  vocab: string[] | null;
  vocab_size: number | null;
  head: string[];
  license: string;
  training_data: { dataset_id: string; attribution: string; rows: number };
  evaluation: { rows: number; metrics: Record<string, number> };
  weights: { format: string; bytes: number; sha256: string };
}

describe("GET /foundation-catalog", () => {
  it("lists every base model with its card, and its weights file matches its size and SHA-256", async () => {
    const r = await call(app, "GET", "/api/v1/foundation-catalog", { key });
    expect(r.status, r.text).toBe(200);
    const items = r.json.items as Item[];
    expect(items.map((m) => m.id)).toEqual(PRETRAIN_SPECS.map((s) => s.id));
    expect(r.json).toMatchObject({ total: 4, page: 1, limit: 20, pages: 1 });
    const tasks = new Set(items.map((m) => m.task));
    expect(tasks).toEqual(new Set(["image_classification", "classification", "language_modeling"]));
    for (const m of items) {
      const bytes = fs.readFileSync(path.join(CATALOG_DIR, `${m.id}.pt`));
      expect(m.weights).toEqual({
        format: "pytorch_state_dict",
        bytes: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
      expect(bytes.length).toBeLessThan(400_000);
      expect(m.parameter_count).toBe(analyzeGraph(m.architecture).totalParams);
      const validation = validateForCodegen(m.architecture, m.config, "pytorch");
      expect(
        validation.issues.filter((i) => i.severity === "error"),
        m.id,
      ).toEqual([]);
      expect(validation.valid).toBe(true);
      for (const id of m.head) expect(m.architecture.nodes.map((n) => n.id)).toContain(id);
      expect(m.license).toMatch(/Weights: .+Training data: .+/);
      expect(m.training_data.attribution.length).toBeGreaterThan(20);
      expect(m.evaluation.rows).toBeGreaterThan(50);
      expect(m.evaluation.metrics.accuracy).toBeGreaterThan(0);
      expect(Number.isFinite(m.evaluation.metrics.loss)).toBe(true);
      if (m.task === "language_modeling") {
        expect(m.vocab_size).toBe(m.vocab?.length);
        expect(m.labels).toBeNull();
        expect(m.evaluation.metrics.perplexity).toBeCloseTo(Math.exp(m.evaluation.metrics.loss), 2);
      } else {
        expect(m.num_labels).toBe(m.labels?.length);
        expect(m.vocab).toBeNull();
      }
    }
    const digits = items.find((m) => m.id === "digits-cnn-0-4");
    expect(digits?.labels).toEqual(["0", "1", "2", "3", "4"]);
    expect(digits?.evaluation.metrics.accuracy).toBeGreaterThan(0.95);
    // The picture model: a LeNet on 1×28×28 pictures, normalised by its recorded image step.
    const lenet = items.find((m) => m.id === "digits-lenet-28");
    expect(lenet?.labels).toEqual(["0", "1", "2", "3", "4"]);
    expect(lenet?.architecture.nodes[0].params.shape).toEqual([1, 28, 28]);
    expect(lenet?.evaluation.metrics.accuracy).toBeGreaterThan(0.95);
    // Nothing about the server's files leaks.
    expect(r.text).not.toContain(CATALOG_DIR);
  });

  it("filters by task, pages, and gets one model", async () => {
    const lm = await call(app, "GET", "/api/v1/foundation-catalog?task=language_modeling", { key });
    expect(lm.status).toBe(200);
    expect(lm.json.items.map((m: Item) => m.id)).toEqual(["char-lstm-declaration"]);
    expect(lm.json.total).toBe(1);
    const none = await call(app, "GET", "/api/v1/foundation-catalog?task=regression", { key });
    expect(none.json).toMatchObject({ items: [], total: 0 });
    const page2 = await call(app, "GET", "/api/v1/foundation-catalog?limit=2&page=2", { key });
    expect(page2.json).toMatchObject({ total: 4, page: 2, limit: 2, pages: 2 });
    expect(page2.json.items).toHaveLength(2);
    const bad = await call(app, "GET", "/api/v1/foundation-catalog?task=poetry", { key });
    expect(bad.status).toBe(422);
    expect(bad.res.headers.get("content-type")).toContain("application/problem+json");

    const one = await call(app, "GET", "/api/v1/foundation-catalog/breast-cancer-mlp", { key });
    expect(one.status, one.text).toBe(200);
    expect(one.json).toMatchObject({ id: "breast-cancer-mlp", task: "classification", num_labels: 2 });
    const missing = await call(app, "GET", "/api/v1/foundation-catalog/no-such-model", { key });
    expect(missing.status).toBe(404);
    expect(missing.json.status).toBe(404);
  });

  it("needs a personal key or a session", async () => {
    const anonymous = await call(app, "GET", "/api/v1/foundation-catalog");
    expect(anonymous.status).toBe(401);
    expect(anonymous.res.headers.get("content-type")).toContain("application/problem+json");
    expect((await call(app, "GET", "/api/v1/foundation-catalog/digits-cnn-0-4")).status).toBe(401);
    const revoked = await call(app, "GET", "/api/v1/foundation-catalog", { key: `lk_${"x".repeat(40)}` });
    expect(revoked.status).toBe(401);
    const { cookie } = await signUp(app);
    expect((await call(app, "GET", "/api/v1/foundation-catalog", { cookie })).status).toBe(200);
  });
});
