"use client";

import { useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClass } from "@/components/ui/field";
import { accountKeys } from "@/lib/api/account/keys";
import { useApiKeys } from "@/lib/api/account/queries";
import { $api, type Schemas } from "@/lib/api/client";
import { LayerlineError } from "@/sdk/src/errors";
import { ApiKeyRow } from "./api-key-row";

export function ApiKeysCard() {
  const queryClient = useQueryClient();
  const keys = useApiKeys();
  const [created, setCreated] = useState<Schemas["CreatedApiKey"] | null>(null);
  const [name, setName] = useState("");
  const create = $api.useMutation("post", "/api/v1/users/me/api-keys", {
    onSuccess: (data) => {
      setCreated(data);
      setName("");
      queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ body: { name } });
  };
  const error = create.error instanceof LayerlineError ? create.error : null;

  return (
    <Card>
      <CardHeader
        title="API keys"
        description={
          <>
            Personal keys for scripts and the CLI: send{" "}
            <code className="font-mono text-xs">Authorization: Bearer &lt;key&gt;</code>.
          </>
        }
      />
      <div className="space-y-4 px-5 py-4">
        <form onSubmit={submit} className="flex items-end gap-2">
          <div className="flex-1">
            <label htmlFor="key-name" className="mb-1 block text-sm font-medium">
              New key name
            </label>
            <input
              id="key-name"
              className={inputClass}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. laptop, CI pipeline"
              maxLength={80}
            />
          </div>
          <Button type="submit" disabled={create.isPending || name.trim() === ""}>
            <KeyRound aria-hidden className="h-4 w-4" /> Create key
          </Button>
        </form>
        {error ? <Alert>{error.fieldError("name") ?? error.message}</Alert> : null}
        {created ? (
          <div className="rounded-md border border-ok/40 bg-ok-soft p-3" data-testid="new-key">
            <p className="text-sm font-medium text-ok">Copy your new key now. It will not be shown again.</p>
            <div className="mt-2 flex items-center gap-2">
              <code
                className="flex-1 truncate rounded bg-panel px-2 py-1.5 font-mono text-xs"
                data-testid="new-key-value"
              >
                {created.key}
              </code>
              <CopyButton value={created.key} />
              <Button variant="ghost" size="sm" onClick={() => setCreated(null)}>
                Done
              </Button>
            </div>
          </div>
        ) : null}
        {keys.data && keys.data.items.length === 0 ? (
          <p className="rounded-md border border-dashed border-border px-4 py-6 text-center text-sm text-muted">
            No API keys yet. Create one to call the API from scripts, notebooks or the CLI.
          </p>
        ) : (
          <table className="w-full text-sm">
            <caption className="sr-only">Your API keys</caption>
            <thead>
              <tr className="text-left text-xs text-muted">
                <th className="py-1.5 font-medium">Name</th>
                <th className="py-1.5 font-medium">Key</th>
                <th className="py-1.5 font-medium">Created</th>
                <th className="py-1.5 font-medium">Last used</th>
                <th className="py-1.5 font-medium">Requests (30 d)</th>
                <th className="py-1.5">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data?.items.map((k) => (
                <ApiKeyRow key={k.id} apiKey={k} />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Card>
  );
}
