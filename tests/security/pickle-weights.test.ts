/**
 * Weights are data: a checkpoint or a base model's weights file is a pickle, and a pickle can hold
 * code (`__reduce__`) that `torch.load` would run. Each malicious file here writes a marker file when
 * unpickled; it is given to the generated train.py as --resume and as --init-weights, and to the
 * catalog's weight extraction. None may write its marker, and each refusal says why.
 */
import "@/lib/server/app";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateProject } from "@/lib/ml/codegen";
import { sequential } from "@/lib/ml/graph-builder";
import { DEFAULT_TRAINING_CONFIG } from "@/lib/ml/graph-types";
import { extractStateDict } from "@/lib/server/modules/training/catalog-weights";
import { tempRoot, writeProject } from "../codegen/codegen-fixtures";

const PYTHON = "/usr/bin/python3";
const root = tempRoot("layerline-pickle-weights-");
// The generated program's sandbox (when it runs one) writes as another user: let it reach the markers.
fs.chmodSync(root, 0o755);
const markers = path.join(root, "markers");
fs.mkdirSync(markers, { mode: 0o777 });
fs.chmodSync(markers, 0o777);

function exec(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 120_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? null) : 0;
      resolve({ code: typeof code === "number" ? code : null, stdout, stderr });
    });
  });
}

/**
 * A torch.save file whose unpickling runs `touch <marker>`: as a checkpoint of the generated script
 * (the payload where model_state_dict is) or as a bare state_dict.
 */
async function maliciousWeights(id: string, shape: "checkpoint" | "state_dict"): Promise<string> {
  const file = path.join(root, `${id}.pt`);
  const marker = path.join(markers, id);
  const program = `
import os, sys, torch
class Payload:
    def __reduce__(self):
        return (os.system, (${JSON.stringify(`touch ${marker}`)},))
evil = Payload()
if sys.argv[2] == "checkpoint":
    data = {"epoch": 1, "step": 1, "model_state_dict": evil, "optimizer_state_dict": {}, "best_epoch": 1}
else:
    data = {"0.weight": evil}
torch.save(data, sys.argv[1])
`;
  const made = await exec(PYTHON, ["-c", program, file, shape], root);
  expect(made.code, made.stderr).toBe(0);
  // The payload is real: an unguarded torch.load runs it (and this is what the fix stops).
  const unguarded = await exec(PYTHON, ["-c", `import torch, sys; torch.load(sys.argv[1])`, file], root);
  expect(unguarded.code).toBe(0);
  expect(fs.existsSync(marker)).toBe(true);
  fs.rmSync(marker);
  return file;
}

const graph = sequential({ shape: [4] }, [
  ["Dense", { units: 8, activation: "relu" }],
  ["Dense", { units: 3 }],
]).graph;
const project = writeProject(
  root,
  "project",
  generateProject("pytorch", graph, { ...DEFAULT_TRAINING_CONFIG, epochs: 1 }, { projectName: "Pickle" }),
);

describe("malicious pickles are refused, never run", () => {
  it("as train.py --resume (a checkpoint)", async () => {
    const file = await maliciousWeights("resume", "checkpoint");
    const run = await exec(
      PYTHON,
      [
        "train.py",
        "--synthetic",
        "32",
        "--epochs",
        "2",
        "--checkpoint-dir",
        path.join(root, "ck-resume"),
        "--resume",
        file,
      ],
      project,
    );
    expect(fs.existsSync(path.join(markers, "resume"))).toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/resume\.pt: refused: not a plain PyTorch checkpoint or state_dict/);
  }, 120_000);

  it("as train.py --init-weights (base weights)", async () => {
    for (const shape of ["state_dict", "checkpoint"] as const) {
      const file = await maliciousWeights(`init-${shape}`, shape);
      const run = await exec(
        PYTHON,
        [
          "train.py",
          "--synthetic",
          "32",
          "--epochs",
          "1",
          "--checkpoint-dir",
          path.join(root, `ck-${shape}`),
          "--init-weights",
          file,
        ],
        project,
      );
      expect(fs.existsSync(path.join(markers, `init-${shape}`))).toBe(false);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/refused: not a plain PyTorch checkpoint or state_dict/);
    }
  }, 120_000);

  it("in the catalog's weight extraction", async () => {
    const file = await maliciousWeights("extract", "checkpoint");
    await expect(extractStateDict(file, path.join(root, "extracted.pt"))).rejects.toThrow(
      /refused: not a plain PyTorch checkpoint or state_dict/,
    );
    expect(fs.existsSync(path.join(markers, "extract"))).toBe(false);
  }, 120_000);

  it("while a real checkpoint of the generated script still resumes", async () => {
    const ck = path.join(root, "ck-real");
    const first = await exec(
      PYTHON,
      ["train.py", "--synthetic", "32", "--epochs", "1", "--checkpoint-dir", ck],
      project,
    );
    expect(first.code, first.stderr).toBe(0);
    const second = await exec(
      PYTHON,
      [
        "train.py",
        "--synthetic",
        "32",
        "--epochs",
        "2",
        "--checkpoint-dir",
        ck,
        "--resume",
        path.join(ck, "epoch-1.pt"),
      ],
      project,
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('"event": "resumed"');
    // …and its weights start a fine-tuning run.
    const third = await exec(
      PYTHON,
      [
        "train.py",
        "--synthetic",
        "32",
        "--epochs",
        "1",
        "--checkpoint-dir",
        path.join(root, "ck-init"),
        "--init-weights",
        path.join(ck, "best.pt"),
      ],
      project,
    );
    expect(third.code, third.stderr).toBe(0);
  }, 120_000);
});
