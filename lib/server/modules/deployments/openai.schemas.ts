/**
 * Request and response schemas of the OpenAI-compatible routes at `/v1` and the generation
 * parameters they share with the streaming prediction session (issue 14). Request bodies follow
 * OpenAI's: other OpenAI parameters (user, penalties, logit_bias, logprobs…) are accepted and
 * ignored; the ones listed here are honoured.
 */
import { z } from "@hono/zod-openapi";
import { MAX_STOP_SEQUENCES, MAX_TOKENS_CAP } from "../serving/text-generation";

export const MAX_PROMPT_CHARACTERS = 32_768;
export const MAX_EMBEDDING_INPUT_CHARACTERS = 4096;
export const MAX_EMBEDDING_INPUTS = 256;
/** Characters of all inputs of one embeddings request together (each is one model row). */
export const MAX_EMBEDDING_TOTAL_CHARACTERS = 65_536;
export const MAX_CHOICES = 16;

const stopSchema = z
  .union([z.string().min(1).max(64), z.array(z.string().min(1).max(64)).max(MAX_STOP_SEQUENCES)])
  .nullable()
  .optional()
  .openapi({
    description: `Up to ${MAX_STOP_SEQUENCES} sequences: generation ends before the first one the model writes (it is not returned).`,
  });

/** The generation parameters (OpenAI's names), shared by completions, chat and the stream session. */
export const generationParamsShape = {
  max_tokens: z
    .number()
    .int()
    .min(1)
    .max(MAX_TOKENS_CAP)
    .nullable()
    .optional()
    .openapi({
      description: `Characters to generate at most (one token = one character); default 128, at most ${MAX_TOKENS_CAP}.`,
    }),
  temperature: z.number().min(0).max(2).nullable().optional().openapi({
    description: "Sampling temperature, 0–2 (default 1); 0 is greedy: always the most likely character.",
  }),
  top_p: z.number().min(0).max(1).nullable().optional().openapi({
    description:
      "Nucleus sampling: sample among the most likely characters whose probabilities reach top_p (default 1).",
  }),
  seed: z.number().int().nullable().optional().openapi({
    description:
      "The same seed, prompt, parameters and revision give the same text (choice i uses seed + i).",
  }),
  stop: stopSchema,
};

const modelNameSchema = z
  .string()
  .min(1)
  .max(200)
  .openapi({ description: "The deployment's id (or its name).", example: "dep_…" });

const nSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_CHOICES)
  .nullable()
  .optional()
  .openapi({ description: "Choices per prompt (default 1)." });

const streamOptionsSchema = z
  .object({ include_usage: z.boolean().optional() })
  .nullable()
  .optional()
  .openapi({ description: "With include_usage, a last chunk with empty choices carries the usage." });

const promptString = z.string().max(MAX_PROMPT_CHARACTERS);

export const completionBodySchema = z
  .object({
    model: modelNameSchema,
    prompt: z.union([promptString, z.array(promptString).min(1).max(MAX_CHOICES)]).openapi({
      description: "The text to continue, or several (token arrays are not supported).",
    }),
    n: nSchema,
    stream: z.boolean().nullable().optional(),
    stream_options: streamOptionsSchema,
    ...generationParamsShape,
  })
  .openapi("OpenAICompletionRequest");
export type CompletionBody = z.infer<typeof completionBodySchema>;

const textPartSchema = z.object({ type: z.literal("text"), text: z.string() });

export const chatMessageSchema = z
  .object({
    role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
    content: z
      .union([z.string(), z.array(textPartSchema).max(256)])
      .nullable()
      .optional()
      .openapi({ description: "Text, or text parts (other part types are not supported)." }),
    name: z.string().max(64).optional(),
  })
  .openapi("OpenAIChatMessage");
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatCompletionBodySchema = z
  .object({
    model: modelNameSchema,
    messages: z.array(chatMessageSchema).min(1).max(256),
    n: nSchema,
    stream: z.boolean().nullable().optional(),
    stream_options: streamOptionsSchema,
    max_completion_tokens: z
      .number()
      .int()
      .min(1)
      .max(MAX_TOKENS_CAP)
      .nullable()
      .optional()
      .openapi({ description: "Same as max_tokens (which it overrides)." }),
    ...generationParamsShape,
  })
  .openapi("OpenAIChatCompletionRequest");
export type ChatCompletionBody = z.infer<typeof chatCompletionBodySchema>;

export const embeddingBodySchema = z
  .object({
    model: modelNameSchema,
    input: z
      .union([
        z.string().min(1).max(MAX_EMBEDDING_INPUT_CHARACTERS),
        z.array(z.string().min(1).max(MAX_EMBEDDING_INPUT_CHARACTERS)).min(1).max(MAX_EMBEDDING_INPUTS),
      ])
      .openapi({
        description: `A text or up to ${MAX_EMBEDDING_INPUTS} texts of up to ${MAX_EMBEDDING_INPUT_CHARACTERS} characters, ${MAX_EMBEDDING_TOTAL_CHARACTERS} in all (token arrays are not supported).`,
      }),
    encoding_format: z
      .enum(["float", "base64"])
      .optional()
      .openapi({ description: "float (default): arrays of numbers; base64: little-endian float32 bytes." }),
    dimensions: z.number().int().min(1).optional().openapi({
      description: "Must equal the model's vocabulary size if given (embeddings are not truncated).",
    }),
  })
  .openapi("OpenAIEmbeddingRequest");
export type EmbeddingBody = z.infer<typeof embeddingBodySchema>;

// Responses ---------------------------------------------------------------------------------------

export const openAIErrorSchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string().openapi({ example: "invalid_request_error" }),
      param: z.string().nullable(),
      code: z.string().nullable().openapi({ example: "model_not_found" }),
    }),
  })
  .openapi("OpenAIError", { description: "OpenAI's error shape" });

const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
const finishReasonSchema = z.enum(["stop", "length"]);

export const modelSchema = z
  .object({
    id: z.string().openapi({ description: "The deployment's id" }),
    object: z.literal("model"),
    created: z.number().int().openapi({ description: "When the deployment was created (Unix seconds)" }),
    owned_by: z.string(),
  })
  .openapi("OpenAIModel");

export const modelListSchema = z
  .object({ object: z.literal("list"), data: z.array(modelSchema) })
  .openapi("OpenAIModelList");

export const modelParams = z.object({
  model: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "model", in: "path" }, description: "The deployment's id (or its name)" }),
});

export const completionSchema = z
  .object({
    id: z.string(),
    object: z.literal("text_completion"),
    created: z.number().int(),
    model: z.string(),
    system_fingerprint: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        text: z.string(),
        logprobs: z.null(),
        finish_reason: finishReasonSchema,
      }),
    ),
    usage: usageSchema,
  })
  .openapi("OpenAICompletion");

export const chatCompletionSchema = z
  .object({
    id: z.string(),
    object: z.literal("chat.completion"),
    created: z.number().int(),
    model: z.string(),
    system_fingerprint: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({ role: z.literal("assistant"), content: z.string(), refusal: z.null() }),
        logprobs: z.null(),
        finish_reason: finishReasonSchema,
      }),
    ),
    usage: usageSchema,
  })
  .openapi("OpenAIChatCompletion");

export const embeddingListSchema = z
  .object({
    object: z.literal("list"),
    data: z.array(
      z.object({
        object: z.literal("embedding"),
        index: z.number().int(),
        embedding: z.union([z.array(z.number()), z.string()]),
      }),
    ),
    model: z.string(),
    usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
  })
  .openapi("OpenAIEmbeddingList");
