/**
 * "Fit to dataset" (lib/ml/fit-dataset.ts) over every built-in dataset and every template, measured
 * as the server measures a dataset (dataset-shape.ts): whatever it adapts, the server's fit rules
 * (describeDatasetFit, the Train dialog's verdict) accept; what it cannot adapt, they refuse too;
 * and it never lists a blocking mismatch for a model the server accepts. Then a few datasets shaped
 * as users' are: an image ZIP profile and a CSV with a one-hot column.
 */
import "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { fitModelToDataset } from "@/lib/ml/fit-dataset";
import type { ArchitectureGraph } from "@/lib/ml/graph-types";
import { analyzeGraph } from "@/lib/ml/infer-graph";
import { listTemplates } from "@/lib/ml/templates";
import type { DatasetProfile, DatasetSchemaInfo } from "@/lib/server/db/schema/datasets";
import { BUILTIN_DATASETS, builtinVersionData } from "@/lib/server/modules/datasets/builtin";
import { type DatasetFitInput, describeDatasetFit } from "@/lib/server/modules/training/dataset-fit";
import { datasetShapeOf } from "@/lib/server/modules/training/dataset-shape";

const verdict = (graph: ArchitectureGraph, ds: DatasetFitInput) =>
  describeDatasetFit(graph, analyzeGraph(graph), ds);

async function builtinInputs(): Promise<[string, DatasetFitInput][]> {
  return Promise.all(
    BUILTIN_DATASETS.map(async (b) => {
      const data = await builtinVersionData(b);
      const input: DatasetFitInput = {
        task: b.task,
        roles: {},
        schema: data.schema,
        profile: data.profile,
        target: b.target,
        image: b.image ?? null,
      };
      return [b.id, input] as [string, DatasetFitInput];
    }),
  );
}

/** Whether each template can be fitted to each built-in (after fitting, the server agrees). */
const FITTABLE: Record<string, string[]> = {
  "builtin-iris": ["mlp-classifier"],
  "builtin-wine": ["mlp-classifier"],
  "builtin-breast-cancer": ["mlp-classifier"],
  // The pixels as a picture [1, 8, 8]: padded convolutions and global pooling read it, LeNet cannot.
  "builtin-digits": ["mlp-classifier", "cnn-vgg", "cnn-resnet"],
  "builtin-diabetes": ["mlp-classifier"],
  "builtin-penguins": ["mlp-classifier"],
  "builtin-declaration": ["lstm-sequence", "transformer-block"],
};

const inputs = await builtinInputs();

describe("fit to dataset over the built-in datasets", () => {
  it("knows every built-in", () => {
    expect(inputs.map(([id]) => id).sort()).toEqual(Object.keys(FITTABLE).sort());
  });

  for (const [id, ds] of inputs) {
    it(`${id}: every template is fitted where it can be, and the server's rules agree`, () => {
      const shape = datasetShapeOf(ds);
      expect(shape).not.toBeNull();
      if (!shape) return;
      const fitted: string[] = [];
      for (const t of listTemplates()) {
        const before = verdict(t.graph, ds);
        const plan = fitModelToDataset(t.graph, shape);
        const blocking = plan.mismatches.filter((m) => m.blocking);
        // No blocking mismatch ⇔ the server accepts the model as it is.
        expect(blocking.length === 0, `${t.id}: ${JSON.stringify(plan.mismatches)}`).toBe(before.fits);
        const after = verdict(plan.graph, ds);
        expect(after.fits, `${t.id} fitted: ${after.fits ? "" : after.reason}`).toBe(plan.fits);
        if (plan.fits) fitted.push(t.id);
        for (const m of plan.mismatches) expect(m.message).toMatch(/^[A-Z].*\.$/s);
      }
      expect(fitted).toEqual(FITTABLE[id]);
    });
  }

  it("the Iris MLP on the wine table: inputs and classes, in words", () => {
    const wine = inputs.find(([id]) => id === "builtin-wine")?.[1];
    const shape = wine && datasetShapeOf(wine);
    const mlp = listTemplates().find((t) => t.id === "mlp-classifier")?.graph;
    if (!shape || !mlp) throw new Error("missing");
    const plan = fitModelToDataset(mlp, shape);
    expect(plan.mismatches.map((m) => m.message)).toEqual([
      "The model's Input takes 4 values per sample [4]; the dataset gives 13.",
    ]);
    const diabetes = inputs.find(([id]) => id === "builtin-diabetes")?.[1];
    const reg = diabetes && datasetShapeOf(diabetes);
    if (!reg) throw new Error("missing");
    expect(fitModelToDataset(mlp, reg).mismatches.map((m) => m.kind)).toEqual(["inputs", "task"]);
  });
});

describe("fit to dataset on datasets shaped as users' are", () => {
  const column = (name: string, type: "integer" | "float" | "string") => ({
    name,
    type,
    source_type: type,
    nullable: false,
  });

  it("a CSV with a category: the one-hot width, and the class names", () => {
    const schema = {
      format: "csv",
      columns: [column("age", "integer"), column("city", "string"), column("bought", "string")],
    } as unknown as DatasetSchemaInfo;
    const profile = {
      row_count: 100,
      duration_ms: 1,
      columns: [
        { name: "age", type: "integer", count: 100, missing: 0, distinct: 40 },
        { name: "city", type: "string", count: 100, missing: 0, distinct: 3 },
        {
          name: "bought",
          type: "string",
          count: 100,
          missing: 0,
          distinct: 2,
          top_values: [
            { value: "yes", count: 60 },
            { value: "no", count: 40 },
          ],
        },
      ],
    } as unknown as DatasetProfile;
    const ds: DatasetFitInput = {
      task: "classification",
      roles: { age: "feature", city: "feature", bought: "target" },
      schema,
      profile,
      target: null,
      image: null,
    };
    const shape = datasetShapeOf(ds);
    expect(shape).toMatchObject({
      data: { kind: "table", features: 4 },
      target: "bought",
      labels: ["no", "yes"],
    });
    const mlp = listTemplates().find((t) => t.id === "mlp-classifier")?.graph;
    if (!shape || !mlp) throw new Error("missing");
    const plan = fitModelToDataset(mlp, shape);
    // Age and three one-hot cities: the Iris MLP's four inputs, but two classes out, not three.
    expect(plan.mismatches.map((m) => m.message)).toEqual([
      "The dataset has 2 classes (“no”, “yes”); the model's Output gives 3 logits.",
    ]);
    expect(verdict(plan.graph, ds).fits).toBe(true);
  });

  it("an image ZIP of RGB pictures of one size: channels, size, classes, then the server accepts", () => {
    const schema = { format: "image_zip", columns: [] } as unknown as DatasetSchemaInfo;
    const profile = {
      row_count: 60,
      duration_ms: 1,
      columns: [],
      images: {
        classes: [
          { name: "cat", count: 20 },
          { name: "dog", count: 20 },
          { name: "fox", count: 20 },
        ],
        sizes: [{ width: 24, height: 24, count: 60 }],
        width: { min: 24, max: 24 },
        height: { min: 24, max: 24 },
        formats: [{ format: "png", count: 60 }],
        channels: [{ channels: 3, count: 60 }],
        samples: [],
        skipped: 0,
      },
    } as unknown as DatasetProfile;
    const ds: DatasetFitInput = {
      task: "image_classification",
      roles: {},
      schema,
      profile,
      target: null,
      image: null,
    };
    const shape = datasetShapeOf(ds);
    expect(shape).toMatchObject({ labels: ["cat", "dog", "fox"], picture_size: { height: 24, width: 24 } });
    if (!shape) throw new Error("missing");
    for (const id of ["cnn-image", "cnn-vgg", "cnn-resnet", "mlp-classifier"]) {
      const graph = listTemplates().find((t) => t.id === id)?.graph;
      if (!graph) throw new Error(id);
      const plan = fitModelToDataset(graph, shape);
      expect(plan.fits, `${id}: ${JSON.stringify(plan.mismatches)}`).toBe(true);
      const kinds = plan.mismatches.map((m) => m.kind);
      if (id === "mlp-classifier") {
        // Already three logits: only the Input becomes a picture (with a Flatten).
        expect(kinds).toEqual(["inputs"]);
      } else {
        expect(kinds).toEqual(id === "cnn-image" ? ["channels", "size", "classes"] : ["size", "classes"]);
        expect(plan.mismatches.at(-1)?.message).toBe(
          "The dataset has 3 classes (“cat”, “dog”, “fox”); the model's Output gives 10 logits.",
        );
      }
      expect(verdict(plan.graph, ds).fits).toBe(true);
    }
  });
});
