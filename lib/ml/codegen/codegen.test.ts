import { describe, expect, it } from "vitest";
import { GraphBuilder, sequential } from "../graph-builder";
import { type ArchitectureGraph, LAYER_TYPES, OPTIMIZERS } from "../graph-types";
import { ACTIVATIONS, LOSSES } from "../layer-catalog";
import { codegenCorpus } from "./corpus";
import {
  CodegenValidationError,
  generateProject,
  generatePytorchProject,
  generateTfjsProject,
  slugify,
  snakeCase,
  validateForCodegen,
} from "./index";

const corpus = codegenCorpus();
const fileOf = (files: { path: string; content: string }[], path: string) => {
  const file = files.find((f) => f.path === path);
  if (!file) throw new Error(`no ${path}`);
  return file.content;
};

describe("corpus", () => {
  it("covers every layer type, activation, loss and optimizer", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(12);
    const types = new Set(corpus.flatMap((c) => c.graph.nodes.map((n) => n.type)));
    expect([...LAYER_TYPES].filter((t) => !types.has(t))).toEqual([]);
    const params = corpus.flatMap((c) =>
      c.graph.nodes.map((n): Record<string, unknown> => ({ type: n.type, ...n.params })),
    );
    const standalone = new Set(params.filter((p) => p.type === "Activation").map((p) => p.activation));
    const fused = new Set(
      params.filter((p) => p.type === "Dense" || p.type === "Conv2D").map((p) => p.activation),
    );
    expect(ACTIVATIONS.filter((a) => !standalone.has(a) || !fused.has(a))).toEqual([]);
    const losses = new Set(params.filter((p) => p.type === "Output").map((p) => p.loss ?? "cross_entropy"));
    expect(LOSSES.filter((l) => !losses.has(l))).toEqual([]);
    const optimizers = new Set(corpus.map((c) => c.training.optimizer ?? "adam"));
    expect(OPTIMIZERS.filter((o) => !optimizers.has(o))).toEqual([]);
    // Variants that take their own code paths.
    const has = (pred: (p: (typeof params)[number]) => boolean) => params.some(pred);
    expect(has((p) => p.type === "MaxPool2D" && Number(p.padding) > 0)).toBe(true);
    expect(has((p) => p.type === "MaxPool1D" && Number(p.padding) > 0)).toBe(true);
    expect(has((p) => p.type === "LSTM" && Number(p.num_layers) > 1)).toBe(true);
    expect(has((p) => p.type === "GRU" && p.bidirectional === true && p.return_sequences !== true)).toBe(
      true,
    );
    expect(has((p) => p.type === "MultiHeadAttention" && p.causal === true)).toBe(true);
    expect(has((p) => p.type === "GlobalAvgPool" && p.data_format === "channels_last")).toBe(true);
  });

  it("is valid for PyTorch; only the dilated graph is refused for TensorFlow.js", () => {
    for (const c of corpus) expect(validateForCodegen(c.graph, c.training).valid, c.id).toBe(true);
    const refused = corpus
      .filter((c) => !validateForCodegen(c.graph, c.training, "tfjs").valid)
      .map((c) => c.id);
    expect(refused).toEqual(["dilated-conv"]);
  });
});

describe("generated files", () => {
  it("is deterministic: the same input gives byte-identical files", () => {
    for (const c of corpus) {
      for (const target of ["pytorch", "tfjs"] as const) {
        if (!validateForCodegen(c.graph, c.training, target).valid) continue;
        const a = generateProject(target, c.graph, c.training, { projectName: c.id });
        const copy = JSON.parse(JSON.stringify(c.graph)) as ArchitectureGraph;
        const b = generateProject(target, copy, c.training, { projectName: c.id });
        expect(b).toEqual(a);
      }
    }
  });

  it("lists the files of each target with their Monaco language", () => {
    const { graph, training } = corpus[0];
    const py = generatePytorchProject(graph, training, { projectName: "Iris" });
    expect(py.files.map((f) => [f.path, f.language])).toEqual([
      ["model.py", "python"],
      ["train.py", "python"],
      ["requirements.txt", "plaintext"],
      ["README.md", "markdown"],
    ]);
    const js = generateTfjsProject(graph, training, { projectName: "Iris" });
    expect(js.files.map((f) => f.path)).toEqual(["model.mjs", "train.mjs", "package.json", "README.md"]);
    const lstm = corpus.find((c) => c.id === "lstm-classifier");
    if (!lstm) throw new Error("corpus changed");
    const withLayers = generateTfjsProject(lstm.graph, lstm.training);
    expect(withLayers.files.map((f) => f.path)).toContain("torch-layers.mjs");
    const layers = fileOf(withLayers.files, "torch-layers.mjs");
    expect(layers).toContain("class TorchLSTM");
    expect(layers).not.toContain("class TorchGRU");
    expect(layers).not.toContain("ConstantPad");
  });

  it("keeps Python lines within 88 columns and JavaScript within 100 (comments aside)", () => {
    for (const c of corpus) {
      for (const target of ["pytorch", "tfjs"] as const) {
        if (!validateForCodegen(c.graph, c.training, target).valid) continue;
        const { files } = generateProject(target, c.graph, c.training, { projectName: c.id });
        for (const f of files.filter(
          (file) => file.language === "python" || file.language === "javascript",
        )) {
          const limit = f.language === "python" ? 88 : 100;
          const long = f.content
            .split("\n")
            .filter(
              (line) =>
                line.length > limit && !/^\s*(\/\/|\*|#|""")/.test(line) && !line.includes("Layerline for"),
            );
          expect(long, `${c.id}/${f.path}`).toEqual([]);
        }
      }
    }
  });

  it("imports only what the code uses", () => {
    const plain = sequential({ shape: [4] }, [["Dense", { units: 3 }]]).graph;
    const model = fileOf(generatePytorchProject(plain).files, "model.py");
    expect(model).toContain("import torch\nfrom torch import nn\n");
    expect(model).not.toContain("functional");
    expect(model).not.toContain("VOCAB_SIZE");
    const train = fileOf(generatePytorchProject(plain).files, "train.py");
    expect(train).toContain("from model import INPUT_DTYPE, INPUT_SHAPE, LOSS, OUTPUT_SHAPE, build_model");
    expect(train).toContain("nn.CrossEntropyLoss()");
    expect(train).not.toContain("BCEWithLogitsLoss");
    expect(train).not.toContain("drop_last");

    const relu = sequential({ shape: [4] }, [["Dense", { units: 3, activation: "relu" }]]).graph;
    expect(fileOf(generatePytorchProject(relu).files, "model.py")).toContain(
      "import torch.nn.functional as F",
    );
    const regression = sequential({ shape: [4] }, [["BatchNorm"], ["Dense", { units: 2 }]], {
      loss: "mse",
    }).graph;
    const regTrain = fileOf(generatePytorchProject(regression, { optimizer: "sgd" }).files, "train.py");
    expect(regTrain).toContain("nn.MSELoss()");
    expect(regTrain).not.toContain("accuracy");
    expect(regTrain).toContain("torch.optim.SGD(");
    expect(regTrain).toContain("drop_last=");
  });

  it("expresses layers idiomatically and names attributes after labels, ids or types", () => {
    const b = new GraphBuilder();
    b.add("Input", { shape: [3, 8, 8] }, { id: "in", label: "Image" });
    b.add("Conv2D", { out_channels: 4, padding: 1, activation: "relu" }, { id: "node_8f3a2c1d" });
    b.add("Conv2D", { out_channels: 4, padding: 1 }, { id: "3f9c0b7e-1d2a-4b5c-9e8f-0a1b2c3d4e5f" });
    b.add("Add", {}, { id: "sum", inputs: ["node_8f3a2c1d", "3f9c0b7e-1d2a-4b5c-9e8f-0a1b2c3d4e5f"] });
    b.add(
      "Activation",
      { activation: "leaky_relu", negative_slope: 0.2 },
      { id: "a1b2c3d4e5", inputs: ["sum"] },
    );
    b.add("Flatten", {}, { id: "flat", label: "Self-attention → flat", inputs: ["a1b2c3d4e5"] });
    b.add("Dense", { units: 2 }, { id: "class", inputs: ["flat"] });
    b.add("Output", {}, { id: "out", inputs: ["class"] });
    b.connect("in", "node_8f3a2c1d").connect("node_8f3a2c1d", "3f9c0b7e-1d2a-4b5c-9e8f-0a1b2c3d4e5f");
    const model = fileOf(generatePytorchProject(b.build()).files, "model.py");
    expect(model).toContain("def forward(self, image: torch.Tensor) -> torch.Tensor:");
    expect(model).toContain("self.conv2d = nn.Conv2d(3, 4, kernel_size=3, padding=1)");
    expect(model).toContain("self.conv2d_2 = nn.Conv2d(4, 4, kernel_size=3, padding=1)");
    expect(model).toContain("conv2d = F.relu(self.conv2d(image))");
    expect(model).toContain("sum_ = conv2d + conv2d_2");
    expect(model).toContain("leaky_relu = F.leaky_relu(sum_, negative_slope=0.2)");
    expect(model).toContain("self_attention_flat = torch.flatten(leaky_relu, 1)");
    expect(model).toContain("self.class_ = nn.Linear(256, 2)");
    expect(model).toContain("return class_");
  });

  it("leaves out layers that do not feed the Output", () => {
    const b = new GraphBuilder();
    b.add("Input", { shape: [4] }, { id: "in" });
    b.add("Dense", { units: 3 }, { id: "head", inputs: ["in"] });
    b.add("Dense", { units: 99 }, { id: "unused", inputs: ["in"] });
    b.add("Output", {}, { id: "out", inputs: ["head"] });
    const graph = b.build();
    expect(validateForCodegen(graph).issues.map((i) => [i.code, i.severity, i.nodeId])).toEqual([
      ["disconnected", "warning", "unused"],
    ]);
    const model = fileOf(generatePytorchProject(graph).files, "model.py");
    expect(model).not.toContain("unused");
    expect(model).toContain("Trainable parameters: 15.");
  });

  it("makes project names safe in docstrings and slugs", () => {
    const { graph } = sequential({ shape: [2] }, [["Dense", { units: 2 }]]);
    const model = fileOf(
      generatePytorchProject(graph, {}, { projectName: 'Évaluation "v2"\n\\ """' }).files,
      "model.py",
    );
    expect(model.split("\n")[0]).toBe(
      `"""PyTorch model generated by Layerline for "Évaluation \\"v2\\"\\n\\\\ \\"\\"\\"".`,
    );
    expect(model).toContain("class EvaluationV2Model(nn.Module):");
    expect(slugify("Évaluation — MNIST v2!")).toBe("evaluation-mnist-v2");
    expect(slugify("???")).toBe("project");
    expect(snakeCase("denseLayer2D")).toBe("dense_layer2_d");
  });
});

describe("validateForCodegen", () => {
  it("reports the editor's per-node issues", () => {
    const b = new GraphBuilder();
    b.add("Input", { shape: [4] }, { id: "in" });
    b.add("Dense", { units: 0 }, { id: "bad", inputs: ["in"] });
    b.add("Dense", { units: 3 }, { id: "loose" });
    b.add("Output", {}, { id: "out", inputs: ["bad"] });
    const result = validateForCodegen(b.build());
    expect(result.valid).toBe(false);
    expect(result.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "invalid_params", severity: "error", nodeId: "bad", param: "units" }),
        expect.objectContaining({ code: "dangling_input", severity: "error", nodeId: "loose", port: 0 }),
      ]),
    );
    expect(() => generatePytorchProject(b.build())).toThrow(CodegenValidationError);
  });

  it("adds code generation's own rules", () => {
    const b = new GraphBuilder();
    b.add("Input", { shape: [4] }, { id: "a" });
    b.add("Input", { shape: [4] }, { id: "b" });
    b.add("Add", {}, { id: "sum", inputs: ["a", "b"] });
    b.add("Output", { loss: "mse" }, { id: "out", inputs: ["sum"] });
    const two = validateForCodegen(b.build());
    expect(two.issues.filter((i) => i.code === "multiple_inputs").map((i) => i.nodeId)).toEqual(["a", "b"]);

    const { graph } = sequential({ shape: [5, 3] }, [
      ["LSTM", { hidden_size: 4, dropout: 0.2 }],
      ["Dense", { units: 2 }],
    ]);
    const lstm = validateForCodegen(graph);
    expect(lstm.valid).toBe(true);
    expect(lstm.issues).toEqual([
      expect.objectContaining({ code: "no_effect", severity: "warning", param: "dropout" }),
    ]);

    const identity = sequential({ shape: [3, 4] }, [["Flatten"]], { loss: "mse" }).graph;
    expect(validateForCodegen(identity).issues).toEqual([
      expect.objectContaining({ code: "no_trainable_parameters", severity: "error", nodeId: "output" }),
    ]);

    const config = validateForCodegen(graph, { epochs: 0, optimizer: "lbfgs" as "adam" });
    expect(config.valid).toBe(false);
    expect(config.issues.filter((i) => i.code === "invalid_config").map((i) => i.param)).toEqual([
      "training.epochs",
      "training.optimizer",
    ]);
  });

  it("lists the layers TensorFlow.js cannot train instead of generating wrong code", () => {
    const dilated = corpus.find((c) => c.id === "dilated-conv");
    if (!dilated) throw new Error("corpus changed");
    const result = validateForCodegen(dilated.graph, dilated.training, "tfjs");
    const unsupported = result.issues.filter((i) => i.code === "unsupported_for_target");
    expect(unsupported.map((i) => i.nodeId)).toEqual(["dil2", "dil4", "dil_2d"]);
    expect(unsupported[0]).toMatchObject({ severity: "error", param: "dilation" });
    let thrown: unknown;
    try {
      generateTfjsProject(dilated.graph, dilated.training);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(CodegenValidationError);
    const error = thrown as CodegenValidationError;
    expect(error.target).toBe("tfjs");
    expect(error.message).toMatch(/Conv1D "dil2".*dilated/);
    expect(error.issues.filter((i) => i.code === "unsupported_for_target")).toHaveLength(3);
    expect(() => generatePytorchProject(dilated.graph, dilated.training)).not.toThrow();
  });
});

describe("a training job's README", () => {
  const mlp = sequential({ shape: [4] }, [["Dense", { units: 3 }]]);
  const reproduce = {
    jobId: "job_1",
    runtime: "pytorch" as const,
    command: ["train.py", "--data-dir", "data", "--seed", "7"],
    launcher: { kind: "python" as const },
    data: { included: true as const },
    baseWeights: null,
  };
  const readme = (target: "pytorch" | "tfjs", extra: Partial<typeof reproduce> | object = {}) =>
    fileOf(
      generateProject(target, mlp.graph, undefined, {
        projectName: "x",
        reproduce: { ...reproduce, ...extra },
      }).files,
      "README.md",
    );

  it("says how to train the job again, and whether that equals the job", () => {
    const plain = fileOf(generatePytorchProject(mlp.graph).files, "README.md");
    expect(plain).not.toContain("Reproduce this job");
    const same = readme("pytorch");
    expect(same).toContain("## Reproduce this job");
    expect(same).toContain("```bash\npython train.py --data-dir data --seed 7\n```");
    expect(same).toContain("to the\nthird decimal");
    expect(readme("pytorch", { launcher: { kind: "torchrun", processes: 2 } })).toContain(
      "python -m torch.distributed.run --standalone --nproc_per_node=2 train.py",
    );
    expect(readme("tfjs", { command: ["train.mjs"], launcher: { kind: "node" } })).toContain(
      "its own initial weights",
    );
    expect(readme("pytorch", { runtime: "external" })).toContain("The job runs where you start it");
  });

  it("writes the reason and the words it is given as text and shell words, never as markup or commands", () => {
    const text = readme("pytorch", {
      jobId: "job`\n# Run me",
      data: { included: false, reason: "the dataset “<b>x</b>\n## Injected” is gone" },
      command: ["train.py", "--replace", "a b;rm -rf ~"],
    });
    expect(text).toContain("``job` # Run me``");
    expect(text).toContain("the dataset “\\<b\\>x\\</b\\> \\#\\# Injected” is gone");
    expect(text).toContain("python train.py --replace 'a b;rm -rf ~'");
    const headings = text.split("\n").filter((l) => l.startsWith("#"));
    expect(headings.filter((l) => /Run me|Injected/.test(l))).toEqual([]);
  });
});
