import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/env";
import { handleOpenAIError, openAIErrorResponse, openAIValidationResponse } from "./openai.errors";
import * as h from "./openai.handlers";
import * as r from "./openai.routes";

/**
 * The OpenAI-compatible routes at the root `/v1` (not under /api/v1), issue 14: a language-model
 * deployment behind its deployment key, for the official OpenAI clients (`baseURL: <origin>/v1`).
 * Errors are OpenAI-shaped, so this router has its own validation hook and error handler.
 */
export const openaiRouter = new OpenAPIHono<AppEnv>({
  defaultHook: (result, c) => {
    if (!result.success) return openAIValidationResponse(c, result.error);
  },
})
  .openapi(r.listModels, h.listModels)
  .openapi(r.getModel, h.getModel)
  .openapi(r.createCompletion, h.createCompletion)
  .openapi(r.createChatCompletion, h.createChatCompletion)
  .openapi(r.createEmbeddings, h.createEmbeddings);

openaiRouter.all("/v1/*", (c) =>
  openAIErrorResponse(c, 404, `Unknown route ${c.req.method} ${c.req.path}.`, { code: "unknown_url" }),
);
openaiRouter.onError(handleOpenAIError);
