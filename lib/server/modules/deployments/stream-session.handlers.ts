import type { RouteHandler } from "@hono/zod-openapi";
import { formatSseEvent, SSE_HEADERS } from "../../events/sse";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { pushStreamResponse } from "../../http/push-stream";
import type { GenerationParams } from "../serving/text-generation";
import { ownerCaller } from "./inference-owner";
import { startStreamSession, streamErrorData } from "./stream-session";
import type * as r from "./stream-session.routes";

function generationOf(b: r.StreamSessionBody): Partial<GenerationParams> | null {
  const given = [b.max_tokens, b.temperature, b.top_p, b.seed, b.stop].some(
    (v) => v !== undefined && v !== null,
  );
  if (!given) return null;
  return {
    maxTokens: b.max_tokens ?? undefined,
    temperature: b.temperature ?? undefined,
    topP: b.top_p ?? undefined,
    seed: b.seed ?? null,
    stop: b.stop == null ? undefined : typeof b.stop === "string" ? [b.stop] : b.stop,
  };
}

export const streamPredictSession: RouteHandler<typeof r.streamPredictSession, AppEnv> = async (c) => {
  const body = c.req.valid("json");
  const id = c.req.valid("param").deployment_id;
  // The owner only; logged and rate-limited against the deployment like a keyed call.
  const owner = await ownerCaller(c, id);
  if (body.inputs) c.set("inferenceInstances", body.inputs.length);
  const produce = await startStreamSession(
    c.get("db"),
    currentUser(c).id,
    id,
    {
      inputs: body.inputs,
      prompt: body.prompt,
      messages: body.messages,
      generation: generationOf(body),
    },
    owner.serving,
  );
  const requestId = c.get("requestId");
  return pushStreamResponse(
    async (write, signal) => {
      let id = 0;
      const emit = (kind: string, data: unknown) => write(formatSseEvent({ id: ++id, kind, data }));
      try {
        await produce(emit, signal);
      } catch (err) {
        if (signal.aborted) return;
        console.error(`[${requestId}] stream session failed:`, err instanceof Error ? err.message : err);
        await emit("error", { ...streamErrorData(err), request_id: requestId });
      }
    },
    { headers: { ...SSE_HEADERS, "X-Request-ID": requestId }, requestSignal: c.req.raw.signal },
  ) as never;
};
