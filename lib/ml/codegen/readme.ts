/** README.md of a generated project (both targets). */
import { thousands } from "./format";
import { mdCode, mdText, shWord } from "./literals";
import type { CodegenPlan } from "./plan";
import type { CodegenTarget, ReproduceOptions } from "./types";

const shape = (s: readonly number[]) => `[${s.join(", ")}]`;

function targetsText(plan: CodegenPlan): string {
  const out = shape(plan.output.shape);
  switch (plan.loss) {
    case "cross_entropy":
      return `class indices \`0\`…\`${plan.output.shape[0] - 1}\` (in a CSV, class names work too: they are numbered in sorted order)`;
    case "binary_cross_entropy":
      return `0/1 labels shaped like the logits ${out} (a CSV holds one label per row; use .npz for more)`;
    case "mse":
      return `real values shaped like the output ${out} (a CSV holds one value per row; use .npz for more)`;
  }
}

function layerTable(plan: CodegenPlan): string[] {
  const rows = [
    "| name | layer | output shape | parameters |",
    "| --- | --- | --- | ---: |",
    `| \`${plan.input.name}\` | Input (${plan.input.params.dtype}) | ${shape(plan.input.shape)} | 0 |`,
  ];
  for (const node of plan.layers) {
    rows.push(`| \`${node.name}\` | ${node.type} | ${shape(node.shape)} | ${thousands(node.paramCount)} |`);
  }
  rows.push(`| | **total** | | **${thousands(plan.totalParams)}** |`);
  return rows;
}

/** The command line of a job's bundle, one shell word per argument. */
function reproduceCommand(r: ReproduceOptions): string {
  const launcher =
    r.launcher.kind === "node"
      ? ["node"]
      : r.launcher.kind === "torchrun"
        ? [
            "python",
            "-m",
            "torch.distributed.run",
            "--standalone",
            `--nproc_per_node=${r.launcher.processes}`,
          ]
        : ["python"];
  return [...launcher, ...r.command].map(shWord).join(" ");
}

/** "Reproduce this job": what the bundle holds and the command that trains the job again. */
function reproduceSection(r: ReproduceOptions, target: CodegenTarget): string[] {
  const same = r.runtime === target;
  const lines = ["## Reproduce this job", ""];
  if (r.data.included) {
    lines.push(
      `This is the code of the training job ${mdCode(r.jobId)}. \`data/\` holds its dataset exactly as the job`,
      "trained on it: the same rows in the same training, validation and test splits, encoded and scaled with",
      "the statistics of the training rows (every step, in order, is in `data/preprocessing.json`; `data/dataset.json`",
      "names the arrays, little-endian binary files, and their shapes).",
    );
  } else {
    lines.push(
      `This is the code of the training job ${mdCode(r.jobId)}. Its dataset is not in this download: ${mdText(r.data.reason)}`,
    );
  }
  if (r.baseWeights)
    lines.push(
      "",
      `${mdCode(r.baseWeights)} holds the base model's weights this fine-tuning run started from.`,
    );
  lines.push("", "```bash", reproduceCommand(r), "```", "");
  if (!r.data.included) {
    lines.push(
      "Without `data/`, `--data-dir` has nothing to read; `--data file.csv` splits the rows itself (at random,",
      "seeded by `--seed`) and does not standardise them, so its figures differ from the job's.",
      "",
    );
  } else if (r.runtime === "external") {
    lines.push(
      "The job runs where you start it: this command trains it on `data/`, the dataset prepared as Layerline's",
      "own workers prepare it (add `--job`, `--token` and `--api` to report to the job: see below).",
      "",
    );
  } else if (same && target === "pytorch") {
    lines.push(
      "These are the job's own arguments (the defaults of `train.py`, spelt out) and seed. PyTorch is seeded and",
      "set to deterministic algorithms, and batches are shuffled with `--seed` + epoch, so on a CPU each epoch's",
      "JSON line gives that epoch's metrics of the job (`loss`, `accuracy`, `val_loss`, `val_accuracy`) to the",
      "third decimal at least; another torch version or a GPU may differ in the last digits. Training on your own CSV",
      "instead (`--data file.csv`) splits the rows at random with `--seed` and does not standardise them: use",
      "`data/` to compare with the job.",
      "",
    );
  } else if (same) {
    lines.push(
      "These are the job's own arguments and seed: the splits and the shuffling are the same, but TensorFlow.js",
      "cannot seed its initial weights, so the figures come close to the job's without equalling them.",
      "",
    );
  } else {
    lines.push(
      `The job ran on ${r.runtime === "pytorch" ? "PyTorch" : "TensorFlow.js"}: this ${
        target === "pytorch" ? "PyTorch" : "TensorFlow.js"
      } project trains the same model on the same data and splits, with its own initial weights, so its figures differ from the job's.`,
      "",
    );
  }
  return lines;
}

export function generateReadme(
  plan: CodegenPlan,
  target: CodegenTarget,
  reproduce?: ReproduceOptions,
): string {
  const py = target === "pytorch";
  const run = py ? "python train.py" : "node train.mjs";
  const c = plan.config;
  const perSample = plan.input.shape.reduce((a, b) => a * b, 1);
  const lines = [
    `# ${mdText(plan.projectName)} (${py ? "PyTorch" : "TensorFlow.js"})`,
    "",
    `Generated by Layerline. Input ${shape(plan.input.shape)} ${plan.input.params.dtype} per sample, output ${shape(
      plan.output.shape,
    )}, loss \`${plan.loss}\`, ${thousands(plan.totalParams)} trainable parameters.`,
    "",
    ...(reproduce ? reproduceSection(reproduce, target) : []),
    "## Files",
    "",
    "| file | contents |",
    "| --- | --- |",
    ...(py
      ? [
          `| \`model.py\` | \`${plan.className}\` (an \`nn.Module\`), \`build_model()\`, \`INPUT_SHAPE\`, \`INPUT_DTYPE\`, \`LOSS\` |`,
          "| `train.py` | training script (command line below) |",
          "| `requirements.txt` | Python dependencies |",
        ]
      : [
          "| `model.mjs` | `buildModel()` returning a `tf.LayersModel`, `INPUT_SHAPE`, `INPUT_DTYPE`, `LOSS` |",
          "| `train.mjs` | training script (command line below) |",
          "| `package.json` | Node.js dependencies |",
        ]),
    "",
    "## Run",
    "",
    "```bash",
    ...(py
      ? ["python -m venv .venv && . .venv/bin/activate", "pip install -r requirements.txt"]
      : ["npm install"]),
    `${run} --synthetic 256 --epochs 1        # smoke test on random data of the right shape`,
    `${run} --data train.csv --target label   # your data`,
    "```",
    "",
    "## Data",
    "",
    `- **CSV** with a header row: the target column (\`--target\`, default: the last column) and ${perSample} numeric feature column${
      perSample === 1 ? "" : "s"
    }, read in row-major order into ${shape(plan.input.shape)}.`,
    ...(py
      ? [
          `- **.npz** with arrays \`X\` (\`[N, ${plan.input.shape.join(", ")}]\` or \`[N, ${perSample}]\`) and \`y\`.`,
        ]
      : [
          `- **JSON** \`{"X": [...], "y": [...]}\` with one entry per sample (nested or flat, ${perSample} values each).`,
        ]),
    `- Targets: ${targetsText(plan)}.`,
    ...(plan.vocabSize !== null ? [`- Token ids must be integers in \`0\`…\`${plan.vocabSize - 1}\`.`] : []),
    "",
    "## Options",
    "",
    "| option | default | meaning |",
    "| --- | --- | --- |",
    `| \`--epochs\` | ${c.epochs} | passes over the training set |`,
    `| \`--batch-size\` | ${c.batch_size} | samples per step |`,
    `| \`--lr\` | ${c.learning_rate} | learning rate of ${c.optimizer} |`,
    `| \`--weight-decay\` | ${c.weight_decay} | ${c.optimizer === "adamw" ? "decoupled weight decay" : "L2 penalty"} |`,
    `| \`--validation-split\` | ${c.validation_split} | fraction held out for validation |`,
    `| \`--seed\` | ${c.seed} | seed of the ${py ? "weights, " : ""}shuffling and validation split |`,
    `| \`--checkpoint-dir\` | \`checkpoints\` | where the best model is saved (${py ? "`best.pt`" : "`best/`"}) |`,
    ...(py ? ["| `--device` | `auto` | `cuda` when available, else `mps`, else `cpu` |"] : []),
    "",
    "Every epoch prints one JSON line, e.g.",
    `\`{"event": "epoch", "epoch": 1, "loss": 0.52${plan.loss === "mse" ? "" : ', "accuracy": 0.81'}, "val_loss": 0.48, ...}\`.`,
    ...(py
      ? []
      : [
          "",
          "TensorFlow.js cannot seed its weight initialisers globally: shuffling and the validation split are",
          "seeded, the initial weights are not.",
        ]),
    "",
    "## Send metrics to Layerline",
    "",
    "Run the training on your own hardware and follow it live in Layerline: create a training job with the",
    "runtime `external`, mint an upload token for it, then pass both (or set `LAYERLINE_UPLOAD_TOKEN`",
    "instead of `--token`, which keeps it out of the process list). The program reports its status, each",
    "epoch's metrics, progress and log line (`{api}/api/v1/training/jobs/{job}/metrics/events`), each",
    "epoch's checkpoint and, with `--export-dir`, the model files; a failed upload is retried, reported,",
    "and training goes on.",
    "",
    "```bash",
    `${run} --data train.csv --job JOB_ID --token UPLOAD_TOKEN --api https://layerline.example.com`,
    "```",
    "",
    "| option | meaning |",
    "| --- | --- |",
    `| \`--resume FILE\` | continue from a checkpoint this program wrote (model and optimizer state) at the next epoch |`,
    `| \`--export-dir DIR\` | write the best epoch's model there (${py ? "`model.onnx`, and its state_dict as `weights.pt`" : "`model.json` and `weights.bin`"}) |`,
    "| `--data-dir DIR` | a dataset prepared by Layerline (what its workers pass; see the platform's docs) |",
    "",
    "## Layers",
    "",
    ...layerTable(plan),
    "",
  ];
  return lines.join("\n");
}
