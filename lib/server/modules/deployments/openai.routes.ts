import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { jsonBody, security } from "../../http/openapi";
import {
  chatCompletionBodySchema,
  chatCompletionSchema,
  completionBodySchema,
  completionSchema,
  embeddingBodySchema,
  embeddingListSchema,
  modelListSchema,
  modelParams,
  modelSchema,
  openAIErrorSchema,
} from "./openai.schemas";

const tags = ["OpenAI-compatible"];
/** The deployment key only; a personal key or session is a 403 (in OpenAI's error shape). */
const auth = { security: security(["deployment_key"]), middleware: [credentials(["deployment_key"])] };

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid request, or the deployment is not a language model (`model_not_supported`)",
  401: "Missing, unknown or rotated deployment key (`invalid_api_key`)",
  403: "A credential other than a deployment key (a personal key or session)",
  404: "`model` names neither this key's deployment's id nor its name (`model_not_found`)",
  429: "Rate limited; see Retry-After",
};

function openAIErrors(...statuses: number[]) {
  const out: Record<
    number,
    { description: string; content: { "application/json": { schema: typeof openAIErrorSchema } } }
  > = {};
  for (const s of [...statuses, 429])
    out[s] = {
      description: ERROR_TEXT[s] ?? "Error",
      content: { "application/json": { schema: openAIErrorSchema } },
    };
  return out;
}

const unavailable = {
  503: {
    description: "The deployment is paused (or not ready); see Retry-After",
    headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" as const } } },
    content: { "application/json": { schema: openAIErrorSchema } },
  },
};

function jsonOrStream<T extends z.ZodTypeAny>(schema: T, description: string, chunk: string) {
  return {
    description,
    content: {
      "application/json": { schema },
      "text/event-stream": {
        schema: z.string().openapi({
          description: `With \`stream: true\`: server-sent events \`data: {…}\` each holding a \`${chunk}\` (one per generated character), ending with \`data: [DONE]\`.`,
        }),
      },
    },
  };
}

export const listModels = createRoute({
  method: "get",
  path: "/v1/models",
  operationId: "openaiListModels",
  tags,
  summary: "The deployment this key belongs to, as OpenAI's model list",
  ...auth,
  responses: {
    200: {
      description: "One model: the deployment",
      content: { "application/json": { schema: modelListSchema } },
    },
    ...openAIErrors(400, 401, 403),
    ...unavailable,
  },
});

export const getModel = createRoute({
  method: "get",
  path: "/v1/models/{model}",
  operationId: "openaiGetModel",
  tags,
  summary: "The key's deployment, by id or name, as an OpenAI model",
  ...auth,
  request: { params: modelParams },
  responses: {
    200: { description: "The deployment", content: { "application/json": { schema: modelSchema } } },
    ...openAIErrors(400, 401, 403, 404),
    ...unavailable,
  },
});

const generationNote =
  "Generation is character by character (one token = one character of the model's vocabulary; " +
  "prompt characters outside it are skipped), the model seeing the last `window` characters. " +
  "`temperature: 0` is greedy; `seed` makes sampling reproducible on the same revision " +
  "(`system_fingerprint` names it); `finish_reason` is `stop` (a stop sequence) or `length` (max_tokens). " +
  "`usage` counts characters.";

export const createCompletion = createRoute({
  method: "post",
  path: "/v1/completions",
  operationId: "openaiCreateCompletion",
  tags,
  summary: "Continue a prompt (OpenAI completions; `stream: true` for chunks)",
  description: `${generationNote} Other OpenAI parameters are accepted and ignored.`,
  ...auth,
  request: { body: jsonBody(completionBodySchema) },
  responses: {
    200: jsonOrStream(completionSchema, "The completion (or its stream)", "text_completion"),
    ...openAIErrors(400, 401, 403, 404),
    ...unavailable,
  },
});

export const createChatCompletion = createRoute({
  method: "post",
  path: "/v1/chat/completions",
  operationId: "openaiCreateChatCompletion",
  tags,
  summary: "Answer a conversation (OpenAI chat completions; `stream: true` for chunks)",
  description:
    "The messages are rendered as one prompt, a line per message: `System: …` (system and developer), " +
    "`User: …`, `Assistant: …`, `Tool: …` (tool and function), each ending with a newline, then " +
    "`Assistant: ` which the model continues. Generation also stops before `\\nUser:` or `\\nSystem:`. " +
    `${generationNote} A stream sends a first chunk with \`delta.role\`, then one \`delta.content\` per ` +
    "character, then one with `finish_reason`; `stream_options.include_usage` adds a usage chunk.",
  ...auth,
  request: { body: jsonBody(chatCompletionBodySchema) },
  responses: {
    200: jsonOrStream(chatCompletionSchema, "The chat completion (or its stream)", "chat.completion.chunk"),
    ...openAIErrors(400, 401, 403, 404),
    ...unavailable,
  },
});

export const createEmbeddings = createRoute({
  method: "post",
  path: "/v1/embeddings",
  operationId: "openaiCreateEmbeddings",
  tags,
  summary: "Embed texts with the language model (OpenAI embeddings)",
  description:
    "A text's embedding is taken from the model's own predictions: for each character of the text (in " +
    "the vocabulary), the model's log-probability vector over the vocabulary for the next character, " +
    "given the text up to and including that character (its last `window` characters, left-padded with " +
    "token 0 as predict does); the mean of these vectors over the text, L2-normalised. It has one " +
    "dimension per vocabulary character, in vocabulary order (the output labels of GET /api/v1/inference/{id}/schema, placeholders `<unused …>` excluded). " +
    "Texts with similar continuations get similar vectors; it is not a semantic sentence embedding. " +
    "`usage.prompt_tokens` counts the characters read.",
  ...auth,
  request: { body: jsonBody(embeddingBodySchema) },
  responses: {
    200: {
      description: "One embedding per input, in order",
      content: { "application/json": { schema: embeddingListSchema } },
    },
    ...openAIErrors(400, 401, 403, 404),
    ...unavailable,
  },
});
