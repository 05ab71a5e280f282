/**
 * The streaming prediction session (`POST /api/v1/inference/{id}/predict/stream/session`, issue 14):
 * the owner of a deployment (personal key or session) streams its predictions as server-sent
 * events. Everything that can be refused is checked before the stream starts (state, ownership,
 * instances, parameters: ordinary HTTP errors); after that, an error ends the stream with an `error`
 * event.
 *
 * Events: `output` — `{index, output}` per instance for ordinary models; `{index, token}` per
 * generated piece of text for language models (one per character, except where a possible stop
 * sequence held characters back); then `done` — `{revision, count}`, and for language models
 * `completions: [{index, text, finish_reason, prompt_tokens, completion_tokens}]`.
 */
import type { Db } from "../../db/client";
import type { ServingTarget } from "../../db/schema";
import { BadRequestError, DomainError } from "../../errors";
import { validateInstances } from "../serving/instance-schema";
import { withWarmModel } from "../serving/model-cache";
import {
  type GenerationParams,
  type GenerationResult,
  generate,
  generationParams,
  isLanguageModel,
  languageModelOf,
} from "../serving/text-generation";
import type { ModelManifest } from "../training/artifact-reader";
import { servingDeployment } from "./inference";
import { checkRequiredFields } from "./inference-fields";
import type { ChatMessage } from "./openai.schemas";
import { CHAT_STOP_SEQUENCES, renderChatPrompt } from "./openai-compat";

export interface StreamSessionRequest {
  /** Instances as for predict (for a language model: each its prompt text). */
  inputs?: readonly unknown[];
  /** A language model's prompt (instead of inputs). */
  prompt?: string;
  /** A language model's conversation, rendered by the chat template (instead of inputs). */
  messages?: readonly ChatMessage[];
  /** Generation parameters (language models only); null when none was given. */
  generation: Partial<GenerationParams> | null;
}

export type SessionEmit = (kind: "output" | "done" | "error", data: unknown) => Promise<void>;
export type SessionProducer = (emit: SessionEmit, signal: AbortSignal) => Promise<void>;

function textOf(manifest: ModelManifest, instance: unknown): string {
  if (typeof instance === "string") return instance;
  const field = manifest.input_features[0]?.name ?? "text";
  return String((instance as Record<string, unknown>)[field]);
}

/** Checks the request and the deployment; returns what writes the stream. */
export async function startStreamSession(
  db: Db,
  ownerId: string,
  deploymentId: string,
  req: StreamSessionRequest,
  /** The deployment's rows, read when the owner was checked in this request (no second read). */
  prefetched?: ServingTarget,
): Promise<SessionProducer> {
  const { revision } = await servingDeployment(db, deploymentId, ownerId, prefetched);
  const manifest = revision.artifactManifest as unknown as ModelManifest;
  const lm = isLanguageModel(manifest);
  if (!lm && (req.prompt !== undefined || req.messages !== undefined || req.generation !== null))
    throw new BadRequestError(
      "`prompt`, `messages` and generation parameters apply to language models only; send `inputs`.",
    );
  if (req.inputs) {
    checkRequiredFields(manifest, req.inputs);
    validateInstances(manifest, req.inputs);
  }
  // Load errors answer as errors, before the stream starts.
  await withWarmModel(revision, async () => undefined);

  if (!lm) {
    const inputs = req.inputs ?? [];
    return (emit, signal) =>
      withWarmModel(revision, async (model) => {
        // Each instance is its own request to the micro-batcher, which coalesces them.
        const pending = inputs.map((instance) => model.batcher.predict([instance]));
        for (const p of pending) p.catch(() => {}); // awaited in order below
        for (const [index, p] of pending.entries()) {
          const [output] = await p;
          if (signal.aborted) return;
          await emit("output", { index, output });
        }
        await emit("done", { revision: revision.number, count: inputs.length });
      });
  }

  const prompts = req.messages
    ? [renderChatPrompt(req.messages)]
    : req.prompt !== undefined
      ? [req.prompt]
      : (req.inputs ?? []).map((i) => textOf(manifest, i));
  const params = generationParams(req.generation ?? {});
  if (req.messages) params.stop = [...params.stop, ...CHAT_STOP_SEQUENCES];
  return (emit, signal) =>
    withWarmModel(revision, async (model) => {
      const lmodel = languageModelOf(model.manifest, (instances) => model.batcher.predict(instances));
      const completions: object[] = [];
      for (const [index, prompt] of prompts.entries()) {
        const it = generate(lmodel, prompt, params, signal);
        let result: GenerationResult;
        for (;;) {
          const step = await it.next();
          if (step.done) {
            result = step.value;
            break;
          }
          await emit("output", { index, token: step.value });
        }
        if (result.aborted) return;
        completions.push({
          index,
          text: result.text,
          finish_reason: result.finishReason,
          prompt_tokens: result.promptTokens,
          completion_tokens: result.completionTokens,
        });
      }
      await emit("done", { revision: revision.number, count: prompts.length, completions });
    });
}

/** The `error` event's data for an error after the stream started (no internals). */
export function streamErrorData(err: unknown): { status: number; detail: string } {
  if (err instanceof DomainError) return { status: err.status, detail: err.message };
  return { status: 500, detail: "Prediction failed. Quote the request id when reporting it." };
}
