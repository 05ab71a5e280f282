/**
 * Checkpoint uploads are checked before they are stored: the format (a PyTorch ZIP archive with its
 * `data.pkl`, or the TF.js checkpoint document), the epoch (within the job's configured epochs), the
 * size (the plan's checkpoint limit, 413) and the count (the best and the last few are kept, older
 * ones are deleted with their files), so one upload token cannot fill the disk.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { withEnv } from "../api/datasets-helpers";
import { tempBlobDir } from "../api/projects.fixtures";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { storedAreaFiles, useOwnBlobBucket } from "../helpers/own-blob-bucket";
import { tfjsCheckpoint, torchCheckpoint } from "./checkpoint-bytes";

const blobDir = tempBlobDir();
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  await useOwnBlobBucket();
});

/** The stored checkpoint files, temporary ones included (on either driver). */
const checkpointFiles = () => storedAreaFiles(blobDir, "checkpoints");

async function externalJob(epochs = 20) {
  const { key } = await signUpWithKey(app);
  const project = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "Flood", template: "mlp-classifier" },
  });
  const job = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: project.json.id,
      dataset_id: "builtin-iris",
      runtime: "external",
      config: { epochs },
    },
  });
  expect(job.status, job.text).toBe(201);
  const token = await call(app, "POST", `/api/v1/training/jobs/${job.json.id}/stream-token`, { key });
  expect(token.status, token.text).toBe(201);
  return { key, token: token.json.token as string, path: `/api/v1/training/jobs/${job.json.id}` };
}

function send(token: string, url: string, body: BodyInit, headers: Record<string, string> = {}) {
  return call(app, "POST", url, {
    key: token,
    rawBody: body,
    headers: { "Content-Type": "application/octet-stream", ...headers },
  });
}

describe("a flood of checkpoints", () => {
  it("keeps only the best and the last three, files included", async () => {
    const before = (await checkpointFiles()).length;
    const { key, token, path: job } = await externalJob();
    for (let epoch = 1; epoch <= 12; epoch++) {
      const r = await send(
        token,
        `${job}/checkpoints?epoch=${epoch}&step=${epoch}&best=${epoch === 2}`,
        torchCheckpoint(),
      );
      expect(r.status, r.text).toBe(201);
    }
    const list = await call(app, "GET", `${job}/checkpoints`, { key });
    expect(list.json.items.map((c: { epoch: number }) => c.epoch)).toEqual([12, 11, 10, 2]);
    expect(list.json.items.find((c: { is_best: boolean }) => c.is_best).epoch).toBe(2);
    const files = await checkpointFiles();
    expect(files.length - before).toBe(4);
    expect(files.some((f) => f.startsWith(".tmp"))).toBe(false);
    // The latest checkpoint (the one a restart resumes from) is still there, byte for byte.
    const latest = list.json.items[0];
    const dl = await app.request(`${job}/checkpoints/${latest.id}/download`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(new Uint8Array(await dl.arrayBuffer())).toEqual(torchCheckpoint());
  });

  it("refuses what is not a checkpoint with 422 and stores nothing", async () => {
    const { key, token, path: job } = await externalJob();
    const before = (await checkpointFiles()).length;
    const pickle = Uint8Array.from([
      0x80,
      0x04,
      0x95,
      ...new TextEncoder().encode("cos\nsystem\n(S'id'\ntR."),
    ]);
    const notZip = new TextEncoder().encode("import os; os.system('id')");
    const otherZip = torchCheckpoint(64, "a/b"); // a ZIP, but not torch.save's layout
    const notCheckpointJson = new TextEncoder().encode('{"format":"something-else","epoch":1}');
    for (const body of [pickle, notZip, otherZip, notCheckpointJson]) {
      const r = await send(token, `${job}/checkpoints?epoch=1`, body);
      expect(r.status, r.text).toBe(422);
      expect(r.res.headers.get("content-type")).toContain("application/problem+json");
      expect(r.json.detail).toMatch(/checkpoint/i);
    }
    expect((await checkpointFiles()).length).toBe(before);
    expect((await call(app, "GET", `${job}/checkpoints`, { key })).json.items).toEqual([]);
    // The TF.js runtime's checkpoint document is a checkpoint.
    const tfjs = await send(token, `${job}/checkpoints?epoch=1`, tfjsCheckpoint(1));
    expect(tfjs.status, tfjs.text).toBe(201);
  });

  it("refuses an epoch beyond the job's configured epochs with 422", async () => {
    const { token, path: job } = await externalJob(20);
    for (const epoch of [999999, 21]) {
      const r = await send(token, `${job}/checkpoints?epoch=${epoch}`, torchCheckpoint());
      expect(r.status, r.text).toBe(422);
      expect(r.json.errors[0].path).toBe("query.epoch");
      expect(r.json.detail).toMatch(/20/);
    }
    expect((await send(token, `${job}/checkpoints?epoch=20`, torchCheckpoint())).status).toBe(201);
  });

  it("refuses a checkpoint above the plan's limit with 413 and the figures, declared or streamed", async () => {
    const { token, path: job } = await externalJob();
    const before = (await checkpointFiles()).length;
    await withEnv({ TRAINING_CHECKPOINT_BYTES: "4096" }, async () => {
      const big = torchCheckpoint(8000);
      const streamed = await app.request(`${job}/checkpoints?epoch=1`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/octet-stream" },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(big);
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      expect(streamed.status).toBe(413);
      const problem = await streamed.json();
      expect(problem).toMatchObject({ limit_bytes: 4096 });
      expect(problem.requested_bytes).toBeGreaterThan(4096);
      expect(problem.detail).toMatch(/4096 bytes/);

      let pulled = 0;
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(1024));
        },
      });
      const res = await app.request(`${job}/checkpoints?epoch=1`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/octet-stream",
          "Content-Length": String(10 * 1024 * 1024),
        },
        body: endless,
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ limit_bytes: 4096, requested_bytes: 10 * 1024 * 1024 });
      expect(pulled).toBeLessThan(5);
      expect((await send(token, `${job}/checkpoints?epoch=1`, torchCheckpoint(1000))).status).toBe(201);
    });
    expect((await checkpointFiles()).length).toBe(before + 1);
    expect((await checkpointFiles()).some((f) => f.startsWith(".tmp"))).toBe(false);
  });
});
