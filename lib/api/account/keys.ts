/** Query keys of the account area (session, plan, credits, personal API keys). */

export const SESSION_PATH = "/api/auth/session";
export const API_KEYS_PATH = "/api/v1/users/me/api-keys";

/** Prefix keys (the generated client's `["get", path, init]` without init) for invalidation. */
export const accountKeys = {
  apiKeys: ["get", API_KEYS_PATH] as const,
};
