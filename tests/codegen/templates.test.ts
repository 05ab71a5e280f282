/**
 * Every starter template and training recipe generates valid PyTorch and TensorFlow.js code, and the
 * image templates' and recipes' PyTorch programs (with their default augmentation) build the model
 * Layerline describes and train for an epoch (the corpus harness). TensorFlow.js runs their layers in
 * the corpus (lenet5, resnet-block: BatchNorm, Add, strided and 1×1 convolutions): the 32×32 RGB
 * templates themselves take minutes per epoch on its CPU backend.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateProject, validateForCodegen } from "@/lib/ml/codegen";
import type { CorpusGraph } from "@/lib/ml/codegen/corpus";
import { RECIPES } from "@/lib/ml/recipes";
import { listTemplates } from "@/lib/ml/templates";
import { expectedFor, runHarness, tempRoot, writeProject } from "./codegen-fixtures";

const root = tempRoot("layerline-codegen-templates-", true);
const entries: CorpusGraph[] = [
  ...listTemplates().map((t) => ({
    id: `template-${t.id}`,
    description: t.name,
    graph: t.graph,
    training: t.training,
  })),
  ...RECIPES.map((r) => ({ id: `recipe-${r.id}`, description: r.name, graph: r.graph, training: r.config })),
];
const IMAGE_TEMPLATES = ["template-cnn-image", "template-cnn-vgg", "template-cnn-resnet"];

describe("templates and recipes", () => {
  it("generate valid code for both targets", () => {
    for (const entry of entries) {
      for (const target of ["pytorch", "tfjs"] as const) {
        const { valid, issues } = validateForCodegen(entry.graph, entry.training, target);
        expect({ id: entry.id, target, valid, issues }).toEqual({
          id: entry.id,
          target,
          valid: true,
          issues: [],
        });
        const files = generateProject(target, entry.graph, entry.training, { projectName: entry.id }).files;
        expect(files.map((f) => f.path)).toContain(target === "pytorch" ? "train.py" : "train.mjs");
      }
    }
  });

  it("image templates build the described model and train an epoch with their augmentation in PyTorch", async () => {
    const args = entries
      .filter((e) => IMAGE_TEMPLATES.includes(e.id) || e.id.startsWith("recipe-images-"))
      .flatMap((entry) => {
        const dir = writeProject(
          root,
          `pytorch-${entry.id}`,
          generateProject("pytorch", entry.graph, entry.training),
        );
        return [dir, JSON.stringify(expectedFor(entry, "pytorch"))];
      });
    const results = await runHarness(
      "/usr/bin/python3",
      [path.resolve("tests/codegen/verify_pytorch.py"), ...args],
      {
        timeout: 240_000,
      },
    );
    expect(results).toHaveLength(args.length / 2);
    for (const result of results) {
      expect(result.errors, result.id).toEqual([]);
      expect(Number.isFinite(result.loss), result.id).toBe(true);
    }
  }, 240_000);
});
