import { createRoute, z } from "@hono/zod-openapi";
import { allowJsonBody } from "../../http/body-limit";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, security } from "../../http/openapi";
import { deploymentIdParams, MAX_PREDICT_INSTANCES } from "./deployments.schemas";
import { PREDICT_JSON_BYTES } from "./inference.routes";
import { chatMessageSchema, generationParamsShape, MAX_PROMPT_CHARACTERS } from "./openai.schemas";

export const streamSessionBodySchema = z
  .object({
    inputs: z
      .array(z.unknown())
      .min(1)
      .max(MAX_PREDICT_INSTANCES)
      .optional()
      .openapi({
        description:
          "Instances as for predict (GET …/schema); for a language model each instance is a prompt " +
          '(`"…"` or `{<text field>: "…"}`), generated from in turn.',
      }),
    prompt: z
      .string()
      .max(MAX_PROMPT_CHARACTERS)
      .optional()
      .openapi({ description: "A language model's prompt (instead of `inputs`)." }),
    messages: z
      .array(chatMessageSchema)
      .min(1)
      .max(256)
      .optional()
      .openapi({
        description:
          "A language model's conversation (instead of `inputs`), rendered with the chat template of " +
          "POST /v1/chat/completions (and its extra stop sequences); the reply is generated.",
      }),
    ...generationParamsShape,
  })
  .strict()
  .refine((b) => [b.inputs, b.prompt, b.messages].filter((v) => v !== undefined).length === 1, {
    message: "Give exactly one of inputs, prompt or messages.",
    path: ["inputs"],
  })
  .openapi("StreamSessionRequest", {
    description:
      "Generation parameters (`max_tokens` default 128 and at most 1,024 characters, `temperature` 0–2 " +
      "with 0 greedy, `top_p`, `seed`, `stop`) apply to language models only; on other models they are a 400.",
  });
export type StreamSessionBody = z.infer<typeof streamSessionBodySchema>;

export const streamPredictSession = createRoute({
  method: "post",
  path: "/api/v1/inference/{deployment_id}/predict/stream/session",
  operationId: "streamPredictSession",
  tags: ["Inference"],
  summary: "Stream predictions (one event per instance, or per generated token of a language model)",
  description:
    "For the deployment's owner (personal API key or web session; a deployment key is refused with 403). " +
    "The body holds exactly one of `inputs` (any model, as for predict), `prompt` or `messages` (language " +
    "models), with generation parameters for language models. " +
    "Answers `text/event-stream` at once: `output` events — `{index, output}` per instance for ordinary " +
    "models, in input order; `{index, token}` per generated character for language models (several " +
    "characters when a possible stop sequence held them back) — then `done` — `{revision, count}`, plus " +
    "`completions: [{index, text, finish_reason, prompt_tokens, completion_tokens}]` for language models. " +
    "Refusals (paused: 503, bad instances: 422, …) are ordinary problem responses before the stream; an " +
    "error after it started ends it with an `error` event `{status, detail}`. Closing the connection " +
    "stops the generation.",
  security: security(["api_key", "session"]),
  middleware: [credentials(["api_key", "session"]), allowJsonBody(PREDICT_JSON_BYTES)],
  request: { params: deploymentIdParams, body: jsonBody(streamSessionBodySchema) },
  responses: {
    200: {
      description: "The event stream",
      content: { "text/event-stream": { schema: z.string() } },
    },
    ...errors(400, 401, 403, 404, 422),
    503: {
      description: "The deployment is paused (or not ready); see Retry-After",
      headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" as const } } },
      content: {
        "application/problem+json": { schema: errors(503)[503].content["application/problem+json"].schema },
      },
    },
  },
});
