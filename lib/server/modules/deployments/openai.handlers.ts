import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { deploymentCaller } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { pushStreamResponse } from "../../http/push-stream";
import type * as r from "./openai.routes";
import * as openai from "./openai-compat";

const STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
};

/** OpenAI's stream: `data: <chunk>` lines, `data: [DONE]` at the end, an error as `data: {"error": …}`. */
function openAIStream(c: Context<AppEnv>, produce: openai.ChunkProducer): Response {
  return pushStreamResponse(
    async (write, signal) => {
      const emit = (chunk: object) => write(`data: ${JSON.stringify(chunk)}\n\n`);
      try {
        await produce(emit, signal);
      } catch (err) {
        if (signal.aborted) return;
        console.error(`[${c.get("requestId")}] /v1 stream failed:`, err instanceof Error ? err.message : err);
        await emit({
          error: { message: "Generation failed.", type: "server_error", param: null, code: null },
        });
      }
      if (!signal.aborted) await write("data: [DONE]\n\n");
    },
    { headers: { ...STREAM_HEADERS, "X-Request-ID": c.get("requestId") }, requestSignal: c.req.raw.signal },
  );
}

export const listModels: RouteHandler<typeof r.listModels, AppEnv> = async (c) =>
  c.json(await openai.listModels(c.get("db"), deploymentCaller(c)), 200);

export const getModel: RouteHandler<typeof r.getModel, AppEnv> = async (c) =>
  c.json(await openai.getModel(c.get("db"), deploymentCaller(c), c.req.valid("param").model), 200);

export const createCompletion: RouteHandler<typeof r.createCompletion, AppEnv> = async (c) => {
  const result = await openai.createCompletion(
    c.get("db"),
    deploymentCaller(c),
    c.req.valid("json"),
    c.req.raw.signal,
  );
  return result.kind === "json" ? c.json(result.body, 200) : (openAIStream(c, result.produce) as never);
};

export const createChatCompletion: RouteHandler<typeof r.createChatCompletion, AppEnv> = async (c) => {
  const result = await openai.createChatCompletion(
    c.get("db"),
    deploymentCaller(c),
    c.req.valid("json"),
    c.req.raw.signal,
  );
  return result.kind === "json" ? c.json(result.body, 200) : (openAIStream(c, result.produce) as never);
};

export const createEmbeddings: RouteHandler<typeof r.createEmbeddings, AppEnv> = async (c) =>
  c.json(
    await openai.createEmbeddings(c.get("db"), deploymentCaller(c), c.req.valid("json"), c.req.raw.signal),
    200,
  );
