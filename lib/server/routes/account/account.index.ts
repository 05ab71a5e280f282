import { createRouter } from "../../http/openapi";
import * as h from "./account.handlers";
import * as r from "./account.routes";

export const accountRouter = createRouter()
  .openapi(r.createApiKey, h.createApiKey)
  .openapi(r.listApiKeys, h.listApiKeys)
  .openapi(r.revokeApiKey, h.revokeApiKey)
  .openapi(r.getApiKeyUsage, h.getApiKeyUsage)
  .openapi(r.getEntitlements, h.getEntitlements)
  .openapi(r.getCredits, h.getCredits)
  .openapi(r.getProfile, h.getProfile);
