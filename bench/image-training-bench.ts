/**
 * Image training figures, printed (no assertions):
 *   npx tsx bench/image-training-bench.ts        (BENCH_IMAGES=60000 by default)
 *
 * 1. Preparing an image ZIP for a job (materialize-images.ts) with a cold cache (every picture
 *    decoded with decodeImage, the uint8 cache written) and a warm one (the cache reused): the time
 *    before the first epoch can start.
 * 2. One epoch of the LeNet template on those 28×28 pictures: the generated train.py (the managed
 *    program, --workers 0 and 2) against a hand-written PyTorch loop over the same decoded uint8
 *    tensors (same batch size, optimizer, scaling and normalisation), as images per second and the
 *    ratio hand-written ÷ generated.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateProject } from "../lib/ml/codegen";
import { DEFAULT_TRAINING_CONFIG } from "../lib/ml/graph-types";
import { analyzeGraph } from "../lib/ml/infer-graph";
import { getTemplate } from "../lib/ml/templates";
import { modelIO } from "../lib/server/modules/training/dataset-fit";
import { materializeImages } from "../lib/server/modules/training/materialize-images";

// The test fixture finds the digits table from __dirname (as vitest defines it for a test file).
Object.assign(globalThis, { __dirname: path.resolve("tests/fixtures") });
const { drawDigit, rowsOf, zipOf } = await import("../tests/fixtures/image-zip");

const COUNT = Number(process.env.BENCH_IMAGES ?? 60_000);
const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-image-bench-"));
process.env.BLOB_DIR = path.join(root, "blobs");

// The pictures: the built-in digits drawn at 28×28, cycled up to COUNT (drawn once per source row).
const files: [string, Buffer][] = [];
const drawn = new Map<string, Buffer>();
for (let i = 0; i < COUNT; i++) {
  const digit = i % 10;
  const rows = rowsOf(digit);
  const row = rows[Math.floor(i / 10) % rows.length];
  const id = `${digit}-${Math.floor(i / 10) % rows.length}`;
  let png = drawn.get(id);
  if (!png) {
    png = await drawDigit(row, { size: 28 });
    drawn.set(id, png);
  }
  files.push([`${digit}/${String(i).padStart(6, "0")}.png`, png]);
}
const zipFile = path.join(root, "digits.zip");
fs.writeFileSync(zipFile, await zipOf(files));
console.log(`${COUNT} pictures, ZIP ${(fs.statSync(zipFile).size / 1024 ** 2).toFixed(1)} MB`);

const template = getTemplate("cnn-image");
const io = modelIO(template.graph, analyzeGraph(template.graph));
if (!io.ok) throw new Error(io.reason);
const config = { ...DEFAULT_TRAINING_CONFIG, epochs: 1, batch_size: 64, validation_split: 0.1 };
const version = {
  file: zipFile,
  schema: { format: "image_zip", columns: [] } as never,
  roles: {},
  splits: null,
  image: null,
};
for (const cache of ["cold", "warm"]) {
  const t0 = performance.now();
  await materializeImages(
    version,
    { id: "bench_v1", corrupt: [] },
    io.io,
    config,
    path.join(root, `prepared-${cache}`),
  );
  console.log(`prepare (${cache} cache): ${((performance.now() - t0) / 1000).toFixed(2)} s`);
}
const prepared = path.join(root, "prepared-warm");

const project = path.join(root, "project");
fs.mkdirSync(project);
for (const f of generateProject("pytorch", template.graph, config).files)
  fs.writeFileSync(path.join(project, f.path), f.content);

function python(args: string[]): string {
  const r = spawnSync("/usr/bin/python3", args, { cwd: project, encoding: "utf8", timeout: 3_600_000 });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

const train = Math.round(COUNT * (1 - config.validation_split));
const generated: Record<string, number> = {};
for (const workers of [0, 2]) {
  const out = python(["train.py", "--data-dir", prepared, "--epochs", "1", "--workers", String(workers)]);
  const epoch = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .find((l) => l.event === "epoch");
  generated[workers] = epoch.seconds;
  console.log(
    `generated train.py, --workers ${workers}: epoch ${epoch.seconds.toFixed(2)} s (incl. validation), ${(train / epoch.seconds).toFixed(0)} images/s`,
  );
}

const handWritten = `
import json, sys, time, numpy as np, torch
from torch import nn
from model import build_model
torch.manual_seed(42)
info = json.load(open(sys.argv[1] + "/dataset.json"))
def split(name):
    s = info["splits"][name]
    x = torch.from_numpy(np.fromfile(sys.argv[1] + "/" + s["x"], dtype=np.uint8).reshape(-1, 1, 28, 28))
    y = torch.from_numpy(np.fromfile(sys.argv[1] + "/" + s["y"], dtype="<i4").astype(np.int64))
    return x, y
(xt, yt), (xv, yv) = split("train"), split("validation")
mean = torch.tensor(info["image"]["mean"]).reshape(1, -1, 1, 1)
std = torch.tensor(info["image"]["std"]).reshape(1, -1, 1, 1)
model = build_model()
opt = torch.optim.Adam(model.parameters(), lr=0.001)
loss_fn = nn.CrossEntropyLoss()
start = time.perf_counter()
model.train()
order = torch.randperm(len(xt))
for i in range(0, len(xt), 64):
    idx = order[i : i + 64]
    x = (xt[idx].float() / 255 - mean) / std
    loss = loss_fn(model(x), yt[idx])
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
model.eval()
with torch.no_grad():
    for i in range(0, len(xv), 64):
        loss_fn(model((xv[i : i + 64].float() / 255 - mean) / std), yv[i : i + 64])
print(time.perf_counter() - start)
`;
fs.writeFileSync(path.join(project, "hand.py"), handWritten);
const hand = Number(python(["hand.py", prepared]).trim());
console.log(
  `hand-written loop: epoch ${hand.toFixed(2)} s (incl. validation), ${(train / hand).toFixed(0)} images/s`,
);
console.log(
  `ratio generated ÷ hand-written (time per epoch): --workers 0 ${(generated[0] / hand).toFixed(3)}×, --workers 2 ${(generated[2] / hand).toFixed(3)}×`,
);
fs.rmSync(root, { recursive: true, force: true });
