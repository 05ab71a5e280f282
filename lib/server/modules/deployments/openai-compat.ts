/**
 * The OpenAI-compatible surface of a language-model deployment (`/v1`, issue 14): models, text and
 * chat completions (whole, or streamed as OpenAI's chunks) and embeddings, over the deployment's
 * warm char LM (text-generation.ts). The deployment is the one the deployment key belongs to, with
 * the same state checks as every inference path (inference.ts: 503 while paused); `model` names it
 * by id or name. Deployments that are not language models answer 400.
 *
 * Chat template: each message becomes a line `<Role>: <content>` (System for system and developer,
 * User, Assistant, Tool for tool and function), then `Assistant: ` is appended and the model
 * continues it. Generation also stops before "\nUser:" or "\nSystem:" (the model starting the next
 * turn), besides the request's own stop sequences.
 *
 * Embeddings: the L2-normalised mean, over the characters of the text, of the model's
 * log-probability vector for the next character (see embedText); one dimension per vocabulary
 * character.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";
import type { DeploymentRevisionRow, DeploymentRow } from "../../db/schema";
import { DomainError } from "../../errors";
import { withWarmModel } from "../serving/model-cache";
import {
  embedText,
  type GenerationParams,
  type GenerationResult,
  generate,
  generationParams,
  isLanguageModel,
  type LanguageModel,
  languageModelOf,
} from "../serving/text-generation";
import type { ModelManifest } from "../training/artifact-reader";
import { type DeploymentCaller, servingDeployment } from "./inference";
import {
  type ChatCompletionBody,
  type ChatMessage,
  type CompletionBody,
  type EmbeddingBody,
  MAX_CHOICES,
  MAX_EMBEDDING_TOTAL_CHARACTERS,
} from "./openai.schemas";

export const CHAT_STOP_SEQUENCES = ["\nUser:", "\nSystem:"];
const ROLE_NAMES: Record<ChatMessage["role"], string> = {
  system: "System",
  developer: "System",
  user: "User",
  assistant: "Assistant",
  tool: "Tool",
  function: "Tool",
};

/** An error with OpenAI's `code` (carried as the domain error's slug). */
function openAIError(status: number, message: string, code: string): DomainError {
  return new DomainError(status, "Error", message, undefined, undefined, code);
}

interface LmTarget {
  deployment: DeploymentRow;
  revision: DeploymentRevisionRow;
  manifest: ModelManifest;
}

/** The key's deployment, serving, named by `model` (id or name), and a language model (else 400). */
async function lmTarget(db: Db, caller: DeploymentCaller, model: string | null): Promise<LmTarget> {
  const { deployment, revision } = await servingDeployment(
    db,
    caller.deploymentId,
    undefined,
    caller.serving,
  );
  if (model !== null && model !== deployment.id && model !== deployment.name)
    throw openAIError(
      404,
      `The model \`${model}\` does not exist or this key cannot use it: a deployment key serves only its own deployment (${deployment.id}).`,
      "model_not_found",
    );
  const manifest = revision.artifactManifest as unknown as ModelManifest;
  if (!isLanguageModel(manifest))
    throw openAIError(
      400,
      `The deployment ${deployment.id} is not a language model: the OpenAI-compatible routes serve character language models only. Use POST /api/v1/inference/${deployment.id}/predict.`,
      "model_not_supported",
    );
  return { deployment, revision, manifest };
}

/** Runs `use` with the revision's warm model as a LanguageModel (loaded first if need be). */
function withLanguageModel<T>(t: LmTarget, use: (lm: LanguageModel) => Promise<T>): Promise<T> {
  return withWarmModel(t.revision, (wm) =>
    use(languageModelOf(wm.manifest, (instances) => wm.batcher.predict(instances))),
  );
}

function paramsOf(
  body: {
    max_tokens?: number | null;
    temperature?: number | null;
    top_p?: number | null;
    seed?: number | null;
    stop?: string | string[] | null;
  },
  extraStops: readonly string[] = [],
): GenerationParams {
  const stop = body.stop == null ? [] : typeof body.stop === "string" ? [body.stop] : body.stop;
  return generationParams({
    maxTokens: body.max_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    seed: body.seed ?? null,
    stop: [...stop, ...extraStops],
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}-${randomBytes(12).toString("base64url")}`;
const fingerprint = (t: LmTarget) => `layerline-${t.deployment.id}-rev${t.revision.number}`;

function usageOf(promptTokens: number, results: GenerationResult[]) {
  const completion = results.reduce((n, r) => n + r.completionTokens, 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion,
  };
}

/** Writes chunks of a stream; `stream` routes return one of these (see pushStreamResponse). */
export type ChunkProducer = (emit: (chunk: object) => Promise<void>, signal: AbortSignal) => Promise<void>;

// ---------------------------------------------------------------------------------------------

function modelOf(t: LmTarget) {
  return {
    id: t.deployment.id,
    object: "model" as const,
    created: Math.floor(t.deployment.createdAt.getTime() / 1000),
    owned_by: "layerline",
  };
}

export async function listModels(db: Db, caller: DeploymentCaller) {
  return { object: "list" as const, data: [modelOf(await lmTarget(db, caller, null))] };
}

export async function getModel(db: Db, caller: DeploymentCaller, model: string) {
  return modelOf(await lmTarget(db, caller, model));
}

interface Job {
  index: number;
  prompt: string;
  params: GenerationParams;
}

/** One generation per choice: prompt p's choice k is index p·n + k, with seed + k. */
function jobsOf(prompts: string[], n: number, params: GenerationParams): Job[] {
  return prompts.flatMap((prompt, p) =>
    Array.from({ length: n }, (_, k) => ({
      index: p * n + k,
      prompt,
      params: { ...params, seed: params.seed === null ? null : params.seed + k },
    })),
  );
}

function checkChoices(count: number): void {
  if (count > MAX_CHOICES)
    throw openAIError(400, `At most ${MAX_CHOICES} choices per request (prompts × n).`, "invalid_value");
}

export async function createCompletion(
  db: Db,
  caller: DeploymentCaller,
  body: CompletionBody,
  signal?: AbortSignal,
) {
  const t = await lmTarget(db, caller, body.model);
  const prompts = typeof body.prompt === "string" ? [body.prompt] : body.prompt;
  const n = body.n ?? 1;
  checkChoices(prompts.length * n);
  const jobs = jobsOf(prompts, n, paramsOf(body));
  const id = newId("cmpl");
  const created = nowSeconds();
  const base = { id, created, model: t.deployment.id, system_fingerprint: fingerprint(t) };

  if (!body.stream) {
    return withLanguageModel(t, async (lm) => {
      const results: GenerationResult[] = [];
      for (const job of jobs) results.push(await runToEnd(lm, job, signal));
      const promptTokens = promptTokenCount(lm, prompts);
      return {
        kind: "json" as const,
        body: {
          ...base,
          object: "text_completion" as const,
          choices: results.map((r, i) => ({
            index: jobs[i].index,
            text: r.text,
            logprobs: null,
            finish_reason: r.finishReason,
          })),
          usage: usageOf(promptTokens, results),
        },
      };
    });
  }
  await withLanguageModel(t, async () => undefined); // load errors answer as errors, before the stream
  const includeUsage = body.stream_options?.include_usage === true;
  const produce: ChunkProducer = (emit, streamSignal) =>
    withLanguageModel(t, async (lm) => {
      const chunk = (choices: object[]) => ({ ...base, object: "text_completion", choices });
      const results: GenerationResult[] = [];
      for (const job of jobs) {
        const r = await streamJob(lm, job, streamSignal, (text) =>
          emit(chunk([{ index: job.index, text, logprobs: null, finish_reason: null }])),
        );
        if (r.aborted) return;
        results.push(r);
        await emit(chunk([{ index: job.index, text: "", logprobs: null, finish_reason: r.finishReason }]));
      }
      if (includeUsage) await emit({ ...chunk([]), usage: usageOf(promptTokenCount(lm, prompts), results) });
    });
  return { kind: "stream" as const, produce };
}

/** The chat prompt (see the module comment for the template). */
export function renderChatPrompt(messages: readonly ChatMessage[]): string {
  const lines = messages.map((m) => {
    const content =
      m.content == null
        ? ""
        : typeof m.content === "string"
          ? m.content
          : m.content.map((p) => p.text).join("");
    return `${ROLE_NAMES[m.role]}: ${content}\n`;
  });
  return `${lines.join("")}Assistant: `;
}

export async function createChatCompletion(
  db: Db,
  caller: DeploymentCaller,
  body: ChatCompletionBody,
  signal?: AbortSignal,
) {
  const t = await lmTarget(db, caller, body.model);
  const n = body.n ?? 1;
  checkChoices(n);
  const prompt = renderChatPrompt(body.messages);
  const params = paramsOf(
    { ...body, max_tokens: body.max_completion_tokens ?? body.max_tokens },
    CHAT_STOP_SEQUENCES,
  );
  const jobs = jobsOf([prompt], n, params);
  const id = newId("chatcmpl");
  const created = nowSeconds();
  const base = { id, created, model: t.deployment.id, system_fingerprint: fingerprint(t) };

  if (!body.stream) {
    return withLanguageModel(t, async (lm) => {
      const results: GenerationResult[] = [];
      for (const job of jobs) results.push(await runToEnd(lm, job, signal));
      return {
        kind: "json" as const,
        body: {
          ...base,
          object: "chat.completion" as const,
          choices: results.map((r, i) => ({
            index: jobs[i].index,
            message: { role: "assistant" as const, content: r.text, refusal: null },
            logprobs: null,
            finish_reason: r.finishReason,
          })),
          usage: usageOf(promptTokenCount(lm, [prompt]), results),
        },
      };
    });
  }
  await withLanguageModel(t, async () => undefined);
  const includeUsage = body.stream_options?.include_usage === true;
  const produce: ChunkProducer = (emit, streamSignal) =>
    withLanguageModel(t, async (lm) => {
      const chunk = (choices: object[]) => ({ ...base, object: "chat.completion.chunk", choices });
      const results: GenerationResult[] = [];
      for (const job of jobs) {
        await emit(
          chunk([
            {
              index: job.index,
              delta: { role: "assistant", content: "" },
              logprobs: null,
              finish_reason: null,
            },
          ]),
        );
        const r = await streamJob(lm, job, streamSignal, (content) =>
          emit(chunk([{ index: job.index, delta: { content }, logprobs: null, finish_reason: null }])),
        );
        if (r.aborted) return;
        results.push(r);
        await emit(chunk([{ index: job.index, delta: {}, logprobs: null, finish_reason: r.finishReason }]));
      }
      if (includeUsage) await emit({ ...chunk([]), usage: usageOf(promptTokenCount(lm, [prompt]), results) });
    });
  return { kind: "stream" as const, produce };
}

function promptTokenCount(lm: LanguageModel, prompts: readonly string[]): number {
  const vocab = new Set(lm.vocabulary);
  let count = 0;
  for (const p of prompts) for (const ch of p) if (vocab.has(ch)) count++;
  return count;
}

async function runToEnd(lm: LanguageModel, job: Job, signal?: AbortSignal): Promise<GenerationResult> {
  return streamJob(lm, job, signal, () => {});
}

async function streamJob(
  lm: LanguageModel,
  job: Job,
  signal: AbortSignal | undefined,
  onText: (text: string) => Promise<void> | void,
): Promise<GenerationResult> {
  const it = generate(lm, job.prompt, job.params, signal);
  for (;;) {
    const step = await it.next();
    if (step.done) return step.value;
    await onText(step.value);
  }
}

export async function createEmbeddings(
  db: Db,
  caller: DeploymentCaller,
  body: EmbeddingBody,
  signal?: AbortSignal,
) {
  const t = await lmTarget(db, caller, body.model);
  const inputs = typeof body.input === "string" ? [body.input] : body.input;
  if (inputs.reduce((n, text) => n + text.length, 0) > MAX_EMBEDDING_TOTAL_CHARACTERS)
    throw openAIError(
      400,
      `The inputs hold more than ${MAX_EMBEDDING_TOTAL_CHARACTERS} characters in all; send fewer per request.`,
      "invalid_value",
    );
  return withLanguageModel(t, async (lm) => {
    if (body.dimensions !== undefined && body.dimensions !== lm.vocabulary.length)
      throw openAIError(
        400,
        `This model's embeddings have ${lm.vocabulary.length} dimensions (its vocabulary size); they cannot be shortened.`,
        "invalid_value",
      );
    let tokens = 0;
    const data: { object: "embedding"; index: number; embedding: number[] | string }[] = [];
    for (const [index, text] of inputs.entries()) {
      const e = await embedText(lm, text, signal);
      if (!e)
        throw new DomainError(
          400,
          "Error",
          `input[${index}] has no character in the model's vocabulary.`,
          [{ path: `input.${index}`, message: "no character in the vocabulary" }],
          undefined,
          "invalid_value",
        );
      tokens += e.tokens;
      data.push({
        object: "embedding",
        index,
        embedding: body.encoding_format === "base64" ? float32Base64(e.embedding) : Array.from(e.embedding),
      });
    }
    return {
      object: "list" as const,
      data,
      model: t.deployment.id,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  });
}

/** Little-endian float32 bytes, base64 (what OpenAI's base64 encoding_format carries). */
export function float32Base64(values: ArrayLike<number>): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i++) bytes.writeFloatLE(values[i], i * 4);
  return bytes.toString("base64");
}
