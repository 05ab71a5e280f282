/** Read hooks of the account area. */
import { $api } from "@/lib/api/client";
import type { Data, ReadOptions } from "@/lib/api/read-options";
import { API_KEYS_PATH, SESSION_PATH } from "./keys";

export function useSession(options?: ReadOptions<Data<typeof SESSION_PATH>>) {
  return $api.useQuery("get", SESSION_PATH, {}, options);
}

export function useEntitlements() {
  return $api.useQuery("get", "/api/v1/users/me/entitlements");
}

export function useCredits() {
  return $api.useQuery("get", "/api/v1/users/me/credits");
}

export function useApiKeys() {
  return $api.useQuery("get", API_KEYS_PATH);
}

/** A key's daily use over the last 30 days. */
export function useApiKeyUsage(keyId: string) {
  return $api.useQuery("get", "/api/v1/users/me/api-keys/{key_id}/usage", {
    params: { path: { key_id: keyId }, query: { days: 30 } },
  });
}
