import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll } from "vitest";
import { call, type TestApp } from "../helpers";

/** Points blob storage at a fresh temporary directory for this test file. */
export function tempBlobDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-test-blobs-"));
  process.env.BLOB_DIR = dir;
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A small valid graph: Input[4] → Dense(units) → Output. */
export function mlpGraph(units = 8) {
  return {
    nodes: [
      { id: "in", type: "Input", params: { shape: [4] }, position: { x: 0, y: 0 } },
      { id: "hidden", type: "Dense", params: { units, activation: "relu" }, position: { x: 0, y: 110 } },
      {
        id: "out",
        type: "Output",
        params: { loss: "cross_entropy", num_classes: units },
        position: { x: 0, y: 220 },
      },
    ],
    edges: [
      { id: "e1", source: "in", target: "hidden" },
      { id: "e2", source: "hidden", target: "out" },
    ],
  };
}

export function validDag(name?: string) {
  return {
    format: "layerline.dag/v1",
    ...(name ? { name } : {}),
    graph: mlpGraph(16),
    training: { epochs: 7, batch_size: 8, learning_rate: 0.05 },
  };
}

/** A DAG with a bad param on node 1 and an unknown layer type on node 2. */
export function invalidDag() {
  return {
    format: "layerline.dag/v1",
    graph: {
      nodes: [
        { id: "in", type: "Input", params: { shape: [1, 28, 28] } },
        { id: "conv", type: "Conv2D", params: { out_channels: -3, kernel_size: 3 } },
        { id: "typo", type: "Danse", params: {} },
      ],
      edges: [{ id: "e1", source: "in", target: "conv" }],
    },
  };
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real 1×1 RGBA PNG (signature, IHDR, IDAT, IEND), built by hand. */
export function tinyPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const pixel = Buffer.from([0, 0x33, 0x66, 0x99, 0xff]); // filter byte + one pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(pixel)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A multipart body with one file in `file` (plus optional text fields). */
export function fileForm(
  bytes: Uint8Array | string,
  fileName: string,
  type: string,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  form.append(
    "file",
    new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], { type }),
    fileName,
  );
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

export async function createProject(app: TestApp, key: string, body: Record<string, unknown> = {}) {
  const r = await call(app, "POST", "/api/v1/projects", { key, body: { name: "Model", ...body } });
  if (r.status !== 201) throw new Error(`project creation failed: ${r.status} ${r.text}`);
  return r.json as { id: string; name: string; [k: string]: unknown };
}
