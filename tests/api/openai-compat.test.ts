/**
 * The OpenAI-compatible surface (/v1) and the streaming prediction session, through the real app
 * served on loopback and the official `openai` client, unchanged: the catalog's char LSTM is
 * fine-tuned (a foundation run: PyTorch, ONNX artifact) and an Iris classifier trains (TF.js), both
 * are deployed, and the language model serves
 * models, completions and chat (whole and streamed), and embeddings. Greedy generation through
 * /v1/completions equals greedy generation computed directly from the job's artifact (no skew).
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequential } from "@/lib/ml/graph-builder";
import { getDb } from "@/lib/server/db/client";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { servingTarget } from "@/lib/server/modules/deployments/deployments";
import { flushRequestLog } from "@/lib/server/modules/deployments/request-log";
import { withWarmModel } from "@/lib/server/modules/serving/model-cache";
import {
  embedText,
  languageModelOf,
  sampleToken,
  seededRandom,
  tokenize,
} from "@/lib/server/modules/serving/text-generation";
import { type LoadedArtifact, loadArtifact } from "@/lib/server/modules/training/artifact-reader";
import { call, serveForUploads, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { tempBlobDir } from "./projects.fixtures";
import { TERMINAL, waitFor } from "./training-fixtures";

tempBlobDir();
let app: TestApp;
let runner: JobRunner | null = null;
let close: () => void = () => {};
let baseUrl = "";
let key = "";
let otherKey = "";
let lm = { id: "", name: "", key: "" };
let iris = { id: "", key: "" };
let artifact: LoadedArtifact;
let artifactDir = "";
let vocabulary: string[] = [];
let window = 0;

const irisGraph = sequential({ shape: [4] }, [
  ["Dense", { units: 8, activation: "relu" }],
  ["Dense", { units: 3 }],
]).graph;

async function finished(r: { status: number; text: string; json: { id: string } }): Promise<string> {
  expect(r.status, r.text).toBe(201);
  const id = r.json.id;
  const job = await waitFor(`job ${id}`, 170_000, async () => {
    const got = await call(app, "GET", `/api/v1/training/jobs/${id}`, { key });
    return TERMINAL.includes(got.json.state) ? got.json : null;
  });
  expect(job.state, job.reason).toBe("succeeded");
  return id;
}

async function deploy(name: string, jobId: string) {
  const r = await call(app, "POST", "/api/v1/deployments", { key, body: { name, job_id: jobId } });
  expect(r.status, r.text).toBe(201);
  return { id: r.json.id as string, name, key: r.json.api_key as string };
}

/** Downloads the job's artifact through the API into a directory. */
async function downloadArtifact(jobId: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "lm-artifact-"));
  for (const name of ["manifest.json", "model.onnx"]) {
    const r = await app.request(`/api/v1/training/jobs/${jobId}/artifact/${name}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(r.status, name).toBe(200);
    await fs.writeFile(path.join(dir, name), Buffer.from(await r.arrayBuffer()));
  }
  return dir;
}

const client = (apiKey: string) => new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey, maxRetries: 0 });

/**
 * Generation computed directly from the artifact: its raw logits for the last `window` token ids
 * (left-padded with 0), over the vocabulary; greedy (argmax), or sampled with the same sampler and
 * seed as the server.
 */
async function direct(
  prompt: string,
  maxTokens: number,
  sampling: { temperature: number; topP: number; seed: number } | null = null,
): Promise<string> {
  const ids = tokenize(vocabulary, prompt);
  const random = seededRandom(sampling?.seed ?? 0);
  let out = "";
  for (let step = 0; step < maxTokens; step++) {
    const last = ids.slice(-window);
    const values = new Int32Array(window);
    values.set(last, window - last.length);
    const logits = (await artifact.run({ count: 1, values })).subarray(0, vocabulary.length);
    let next = 0;
    if (sampling) next = sampleToken(logits, sampling.temperature, sampling.topP, random);
    else for (let k = 1; k < vocabulary.length; k++) if (logits[k] > logits[next]) next = k;
    ids.push(next);
    out += vocabulary[next];
  }
  return out;
}
const directGreedy = (prompt: string, maxTokens: number) => direct(prompt, maxTokens);

interface SseEvent {
  event: string;
  data: string;
}

/** Reads a whole text/event-stream body into its events. */
async function readEvents(res: Response): Promise<SseEvent[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() && !block.startsWith(":"))
    .map((block) => {
      const lines = block.split("\n");
      return {
        event: lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message",
        data: lines
          .filter((l) => l.startsWith("data: "))
          .map((l) => l.slice(6))
          .join("\n"),
      };
    });
}

const session = (id: string, credential: string, body: unknown, signal?: AbortSignal) =>
  fetch(`${baseUrl}/api/v1/inference/${id}/predict/stream/session`, {
    method: "POST",
    headers: { Authorization: `Bearer ${credential}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });

beforeAll(async () => {
  app = await startTestApp();
  close = await serveForUploads(app);
  baseUrl = process.env.LAYERLINE_INTERNAL_URL ?? "";
  runner = startJobRunner({ db: await getDb(), concurrency: 2, pollIntervalMs: 100 });
  ({ key } = await signUpWithKey(app));
  ({ key: otherKey } = await signUpWithKey(app));
  const project = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "Iris", graph: irisGraph },
  });
  expect(project.status, project.text).toBe(201);
  const [lmJob, irisJob] = await Promise.all([
    // The catalog's pretrained char LSTM, fine-tuned briefly: a language model that writes real words.
    call(app, "POST", "/api/v1/training/foundation-runs", {
      key,
      body: {
        base_model_id: "char-lstm-declaration",
        dataset_id: "builtin-declaration",
        config: { epochs: 1, learning_rate: 0.001 },
      },
    }).then(finished),
    call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: {
        project_id: project.json.id,
        dataset_id: "builtin-iris",
        runtime: "tfjs",
        config: { epochs: 5, batch_size: 16, learning_rate: 0.02 },
      },
    }).then(finished),
  ]);
  lm = await deploy("declaration-lm", lmJob);
  iris = await deploy("iris", irisJob);
  artifactDir = await downloadArtifact(lmJob);
  artifact = await loadArtifact(artifactDir);
  const tokens = artifact.manifest.input.preprocessing.find((s) => s.kind === "char_tokens");
  if (tokens?.kind !== "char_tokens") throw new Error("not a char LM");
  vocabulary = tokens.vocabulary;
  window = artifact.manifest.input.shape[0];
}, 200_000);

afterAll(async () => {
  await artifact?.dispose();
  if (artifactDir) await fs.rm(artifactDir, { recursive: true, force: true });
  await runner?.stop({ graceMs: 2000 });
  close();
});

describe("OpenAI-compatible routes with the official client", () => {
  it("lists the key's one deployment as a model", async () => {
    const models = await client(lm.key).models.list();
    expect(models.data.map((m) => m.id)).toEqual([lm.id]);
    expect(models.data[0].object).toBe("model");
    expect((await client(lm.key).models.retrieve(lm.name)).id).toBe(lm.id);
    await expect(client(lm.key).models.retrieve(iris.id)).rejects.toMatchObject({ status: 404 });
  });

  it("completes greedily exactly as the artifact does, streamed or not", async () => {
    const prompt = "We hold these truths to be self-evident, that all men";
    const expected = await directGreedy(prompt, 40);
    const openai = client(lm.key);
    const done = await openai.completions.create({ model: lm.id, prompt, max_tokens: 40, temperature: 0 });
    expect(done.object).toBe("text_completion");
    expect(done.choices[0].text).toBe(expected);
    expect(done.choices[0].finish_reason).toBe("length");
    expect(done.usage).toEqual({
      prompt_tokens: tokenize(vocabulary, prompt).length,
      completion_tokens: 40,
      total_tokens: tokenize(vocabulary, prompt).length + 40,
    });
    // By name too; streamed: one chunk per character, then the finish_reason chunk.
    const stream = await openai.completions.create({
      model: lm.name,
      prompt,
      max_tokens: 40,
      temperature: 0,
      stream: true,
    });
    const pieces: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice.text) pieces.push(choice.text);
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    expect(pieces).toHaveLength(40);
    expect(pieces.join("")).toBe(expected);
    expect(finish).toBe("length");
  });

  it("samples reproducibly with a seed, several choices, and stops before a stop sequence", async () => {
    const openai = client(lm.key);
    const body = { model: lm.id, prompt: "Liberty", max_tokens: 30, temperature: 1, seed: 7, n: 2 };
    const a = await openai.completions.create(body);
    const b = await openai.completions.create(body);
    expect(a.choices.map((c) => c.text)).toEqual(b.choices.map((c) => c.text));
    expect(a.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(a.choices[0].text).toHaveLength(30);
    // The sampled text is the artifact's own distribution sampled with the same seed (no skew).
    expect(a.choices[0].text).toBe(await direct("Liberty", 30, { temperature: 1, topP: 1, seed: 7 }));
    const nucleus = await openai.completions.create({ ...body, n: 1, temperature: 0.8, top_p: 0.9, seed: 3 });
    expect(nucleus.choices[0].text).toBe(
      await direct("Liberty", 30, { temperature: 0.8, topP: 0.9, seed: 3 }),
    );
    const greedy = await directGreedy("Liberty", 30);
    const stop = greedy.slice(10, 12);
    const stopped = await openai.completions.create({
      model: lm.id,
      prompt: "Liberty",
      max_tokens: 30,
      temperature: 0,
      stop: [stop],
    });
    expect(stopped.choices[0].finish_reason).toBe("stop");
    expect(stopped.choices[0].text).toBe(greedy.slice(0, greedy.indexOf(stop)));
  });

  it("chats, whole and streamed as chat.completion.chunk deltas with usage", async () => {
    const openai = client(lm.key);
    const messages = [
      { role: "system" as const, content: "You are the Declaration." },
      { role: "user" as const, content: "What do you hold?" },
    ];
    const whole = await openai.chat.completions.create({
      model: lm.id,
      messages,
      max_tokens: 24,
      temperature: 0,
    });
    const reply = whole.choices[0].message;
    expect(reply.role).toBe("assistant");
    expect(typeof reply.content).toBe("string");
    const rendered = "System: You are the Declaration.\nUser: What do you hold?\nAssistant: ";
    const expected = await directGreedy(rendered, 24);
    const cut = ["\nUser:", "\nSystem:"].map((s) => expected.indexOf(s)).filter((i) => i >= 0);
    expect(reply.content).toBe(cut.length ? expected.slice(0, Math.min(...cut)) : expected);
    expect(whole.usage?.prompt_tokens).toBe(tokenize(vocabulary, rendered).length);

    const stream = await openai.chat.completions.create({
      model: lm.id,
      messages,
      max_tokens: 24,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0].object).toBe("chat.completion.chunk");
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    const contents = chunks.flatMap((c) => c.choices.map((ch) => ch.delta?.content ?? "")).filter(Boolean);
    expect(contents.length).toBeGreaterThan(1);
    expect(contents.join("")).toBe(reply.content);
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish?.choices[0].finish_reason).toBe(whole.choices[0].finish_reason);
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual(whole.usage);
  });

  it("embeds texts with the model's own predictions (base64 by default in the client, or floats)", async () => {
    const openai = client(lm.key);
    const texts = ["We hold these truths", "the consent of the governed"];
    const viaBase64 = await openai.embeddings.create({ model: lm.id, input: texts });
    expect(viaBase64.data).toHaveLength(2);
    const floats = await openai.embeddings.create({ model: lm.id, input: texts, encoding_format: "float" });
    for (const [i, d] of floats.data.entries()) {
      expect(d.embedding).toHaveLength(vocabulary.length);
      expect(Math.hypot(...d.embedding)).toBeCloseTo(1, 6);
      for (const [k, v] of viaBase64.data[i].embedding.entries()) expect(v).toBeCloseTo(d.embedding[k], 5);
    }
    expect(floats.data[0].embedding).not.toEqual(floats.data[1].embedding);
    expect(floats.usage.prompt_tokens).toBe(texts.reduce((n, t) => n + tokenize(vocabulary, t).length, 0));
    // The same definition computed from the artifact directly.
    const direct = await embedText(languageModelOf(artifact.manifest, artifact.predict), texts[0]);
    if (!direct) throw new Error("no embedding");
    for (const [k, v] of direct.embedding.entries()) expect(floats.data[0].embedding[k]).toBeCloseTo(v, 5);
  });

  it("answers errors in OpenAI's shape: 401, 403, 404, 400 for a non-LM and bad input, 503 paused", async () => {
    const raw = (credential: string, route = "models", body?: unknown) =>
      fetch(`${baseUrl}/v1/${route}`, {
        method: body ? "POST" : "GET",
        headers: { Authorization: `Bearer ${credential}`, "Content-Type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
    const personal = await raw(key);
    expect(personal.status).toBe(403);
    const pj = await personal.json();
    expect(pj.error).toMatchObject({ type: "permission_error" });
    expect(typeof pj.error.message).toBe("string");

    await expect(client("ldk_unknown").models.list()).rejects.toMatchObject({ status: 401 });
    const unknown = await raw("ldk_unknown");
    expect((await unknown.json()).error.type).toBe("authentication_error");

    await expect(
      client(lm.key).completions.create({ model: "someone-else", prompt: "a" }),
    ).rejects.toMatchObject({ status: 404, code: "model_not_found" });
    await expect(
      client(iris.key).chat.completions.create({
        model: iris.id,
        messages: [{ role: "user", content: "hi" }],
      }),
    ).rejects.toMatchObject({ status: 400, code: "model_not_supported" });
    expect((await raw(iris.key)).status).toBe(400);
    const bad = await raw(lm.key, "completions", { model: lm.id, prompt: "a", max_tokens: 5000 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ type: "invalid_request_error", param: "max_tokens" });
    const notJson = await fetch(`${baseUrl}/v1/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${lm.key}`, "Content-Type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.type).toBe("invalid_request_error");

    expect((await call(app, "POST", `/api/v1/deployments/${lm.id}/pause`, { key })).status).toBe(200);
    try {
      const paused = await raw(lm.key, "chat/completions", {
        model: lm.id,
        messages: [{ role: "user", content: "hi" }],
      });
      expect(paused.status).toBe(503);
      expect(Number(paused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await paused.json()).error.code).toBe("deployment_unavailable");
      await expect(client(lm.key).models.list()).rejects.toMatchObject({ status: 503 });
      expect((await session(lm.id, key, { prompt: "a" })).status).toBe(503);
    } finally {
      await call(app, "POST", `/api/v1/deployments/${lm.id}/resume`, { key });
    }
    expect((await client(lm.key).models.list()).data).toHaveLength(1);
  });
});

describe("the request log of a language-model deployment", () => {
  it("records /v1 calls under their path and the owner's stream sessions", async () => {
    await client(lm.key).completions.create({ model: lm.id, prompt: "We", max_tokens: 3, temperature: 0 });
    const s = await session(lm.id, key, { prompt: "a", max_tokens: 2 });
    await s.text();
    await flushRequestLog();
    const logs = await call(app, "GET", `/api/v1/deployments/${lm.id}/logs?limit=1000`, { key });
    expect(logs.status, logs.text).toBe(200);
    const routes = logs.json.items.map((e: { route: string }) => e.route);
    expect(routes).toContain("/v1/completions");
    expect(routes).toContain("predict/stream/session");
    // Another account's calls on this deployment are not logged against it.
    await session(lm.id, otherKey, { prompt: "a", max_tokens: 2 });
    await flushRequestLog();
    const after = await call(app, "GET", `/api/v1/deployments/${lm.id}/logs?limit=1000`, { key });
    expect(after.json.items).toHaveLength(logs.json.items.length);
  });
});

describe("the streaming prediction session", () => {
  it("streams a language model's tokens as separate output events, then done", async () => {
    const prompt = "When in the course of human events";
    const res = await session(lm.id, key, { prompt, max_tokens: 20, temperature: 0 });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = await readEvents(res);
    const outputs = events.filter((e) => e.event === "output").map((e) => JSON.parse(e.data));
    expect(outputs).toHaveLength(20);
    for (const o of outputs) {
      expect(o.index).toBe(0);
      expect(Array.from(o.token as string)).toHaveLength(1);
    }
    const text = outputs.map((o) => o.token).join("");
    expect(text).toBe(await directGreedy(prompt, 20));
    const last = events[events.length - 1];
    expect(last.event).toBe("done");
    expect(JSON.parse(last.data)).toMatchObject({
      revision: 1,
      count: 1,
      completions: [{ index: 0, text, finish_reason: "length", completion_tokens: 20 }],
    });
  });

  it("streams a chat reply from messages, with the chat template of /v1/chat/completions", async () => {
    const messages = [{ role: "user", content: "What do you hold?" }];
    const events = await readEvents(await session(lm.id, key, { messages, max_tokens: 24, temperature: 0 }));
    const text = events
      .filter((e) => e.event === "output")
      .map((e) => JSON.parse(e.data).token)
      .join("");
    const chat = await client(lm.key).chat.completions.create({
      model: lm.id,
      messages: [{ role: "user", content: "What do you hold?" }],
      max_tokens: 24,
      temperature: 0,
    });
    expect(text).toBe(chat.choices[0].message.content);
    expect(events[events.length - 1].event).toBe("done");
  });

  it("streams one output per instance for a tabular deployment", async () => {
    const instances = [
      { sepal_length_cm: 5.1, sepal_width_cm: 3.5, petal_length_cm: 1.4, petal_width_cm: 0.2 },
      { sepal_length_cm: 6.7, sepal_width_cm: 3.0, petal_length_cm: 5.2, petal_width_cm: 2.3 },
      { sepal_length_cm: 5.9, sepal_width_cm: 3.0, petal_length_cm: 4.2, petal_width_cm: 1.5 },
    ];
    const events = await readEvents(await session(iris.id, key, { inputs: instances }));
    expect(events.map((e) => e.event)).toEqual(["output", "output", "output", "done"]);
    const predicted = await call(app, "POST", `/api/v1/inference/${iris.id}/predict`, {
      key: iris.key,
      body: { inputs: instances },
    });
    events.slice(0, 3).forEach((e, i) => {
      const data = JSON.parse(e.data);
      expect(data.index).toBe(i);
      expect(data.output).toEqual(predicted.json.outputs[i]);
    });
    expect(JSON.parse(events[3].data)).toEqual({ revision: 1, count: 3 });
    // Generation parameters are for language models; bad instances are a 422 before any stream.
    expect((await session(iris.id, key, { inputs: instances, temperature: 0 })).status).toBe(400);
    const bad = await session(iris.id, key, { inputs: [{ sepal_length_cm: "long" }] });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors[0].path).toMatch(/^inputs\.0\./);
  });

  it("is for the owner's personal key or session only", async () => {
    const dk = await session(lm.id, lm.key, { prompt: "a", max_tokens: 2 });
    expect(dk.status).toBe(403);
    expect(dk.headers.get("content-type")).toContain("application/problem+json");
    expect((await session(lm.id, otherKey, { prompt: "a", max_tokens: 2 })).status).toBe(404);
    expect((await session(lm.id, key, { prompt: "a", inputs: ["b"] })).status).toBe(422);
  });

  it("keeps serving other requests while generating, and stops when the client goes away", async () => {
    const target = await servingTarget(await getDb(), lm.id);
    if (!target?.r) throw new Error("no revision");
    const revision = target.r;
    const calls = () => withWarmModel(revision, async (m) => m.batcher.calls);
    const before = await calls();
    const ctrl = new AbortController();
    // 20 prompts × 1,024 tokens: far more than can be generated before the client leaves.
    const body = { inputs: Array(20).fill("We"), max_tokens: 1024, temperature: 1 };
    const res = await session(lm.id, key, body, ctrl.signal);
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    const decoder = new TextDecoder();
    let received = "";
    let healthMs = Number.POSITIVE_INFINITY;
    // Read as a client does; after 200 tokens check that other requests are served, then leave.
    while ((received.match(/event: output/g) ?? []).length < 200) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended early");
      received += decoder.decode(value, { stream: true });
      if (healthMs === Number.POSITIVE_INFINITY && received.includes("event: output")) {
        const t0 = performance.now();
        const health = await fetch(`${baseUrl}/health`);
        expect(health.status).toBe(200);
        healthMs = performance.now() - t0;
      }
    }
    expect(healthMs).toBeLessThan(1000);
    ctrl.abort();
    await reader.cancel().catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    const after = await calls();
    await new Promise((r) => setTimeout(r, 500));
    expect(await calls()).toBe(after);
    expect(after - before).toBeGreaterThanOrEqual(200);
    expect(after - before).toBeLessThan(20 * 1024);
  });
});
