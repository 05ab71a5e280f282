"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { accountKeys } from "@/lib/api/account/keys";
import { useApiKeyUsage } from "@/lib/api/account/queries";
import { $api, type Schemas } from "@/lib/api/client";

function relative(iso: string | null): string {
  if (!iso) return "Never";
  return new Date(iso).toLocaleString();
}

export function ApiKeyRow({ apiKey }: { apiKey: Schemas["ApiKey"] }) {
  const queryClient = useQueryClient();
  const usage = useApiKeyUsage(apiKey.id);
  const revoke = $api.useMutation("delete", "/api/v1/users/me/api-keys/{key_id}", {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys }),
  });
  return (
    <tr className="border-t border-border" data-testid="api-key-row">
      <td className="py-2 font-medium">{apiKey.name}</td>
      <td className="py-2 font-mono text-xs text-muted">{apiKey.prefix}…</td>
      <td className="py-2 text-muted">{new Date(apiKey.created_at).toLocaleDateString()}</td>
      <td className="py-2 text-muted">{relative(apiKey.last_used_at)}</td>
      <td className="py-2 tabular-nums">
        {usage.data ? (
          <span title={`${usage.data.total_errors} errors`}>
            {usage.data.total_requests.toLocaleString()}
            {usage.data.total_errors > 0 ? (
              <span className="text-muted"> ({usage.data.total_errors} errors)</span>
            ) : null}
          </span>
        ) : (
          "–"
        )}
      </td>
      <td className="py-2 text-right">
        <ConfirmButton
          label="Revoke"
          confirmLabel={`Revoke ${apiKey.name}`}
          pending={revoke.isPending}
          onConfirm={() => revoke.mutate({ params: { path: { key_id: apiKey.id } } })}
        />
      </td>
    </tr>
  );
}
