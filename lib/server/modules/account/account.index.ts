import { registerApiKeyUseRecorder, registerCredentialVerifier } from "../../http/credentials";
import { createRouter } from "../../http/openapi";
import * as h from "./account.handlers";
import * as r from "./account.routes";
import { userForSession } from "./accounts";
import { resolveApiKey } from "./api-keys";
import { recordKeyUse } from "./usage-recorder";

// Sessions and personal keys are the account's credentials: checked and counted through hooks, so
// http/credentials.ts knows no service.
registerCredentialVerifier("session", async (c, secret) => {
  const user = await userForSession(c.get("db"), secret);
  return user ? { kind: "session", user, sessionToken: secret } : null;
});
registerCredentialVerifier("api_key", async (c, secret) => {
  const found = await resolveApiKey(c.get("db"), secret);
  return found ? { kind: "api_key", user: found.user, keyId: found.keyId } : null;
});
registerApiKeyUseRecorder(recordKeyUse);

export const accountRouter = createRouter()
  .openapi(r.createApiKey, h.createApiKey)
  .openapi(r.listApiKeys, h.listApiKeys)
  .openapi(r.revokeApiKey, h.revokeApiKey)
  .openapi(r.getApiKeyUsage, h.getApiKeyUsage)
  .openapi(r.getEntitlements, h.getEntitlements)
  .openapi(r.getCredits, h.getCredits)
  .openapi(r.getProfile, h.getProfile);
