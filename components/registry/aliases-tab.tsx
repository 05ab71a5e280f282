"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Tag, X } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { $api } from "@/lib/api/client";
import { invalidateRegistry } from "@/lib/api/registry/keys";
import { LayerlineError } from "@/sdk/src/errors";
import { AliasChip } from "./alias-chip";
import type { ModelVersion, RegisteredModel } from "./types";

const ALIAS_PATH = "/api/v1/models/{model_id}/aliases/{alias}";

/**
 * The version's aliases: set one (a name on another version is moved only after an explicit
 * "Move"), remove one.
 */
export function AliasesTab({ model, version }: { model: RegisteredModel; version: ModelVersion }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  /** An alias now on another version, which the user is asked about before it moves. */
  const [moving, setMoving] = useState<{ alias: string; from: number } | null>(null);
  const inputId = useId();
  const settle = {
    onSuccess: () => {
      invalidateRegistry(queryClient);
      setName("");
      setMoving(null);
    },
  };
  const set = $api.useMutation("put", ALIAS_PATH, settle);
  const remove = $api.useMutation("delete", ALIAS_PATH, { onSuccess: () => invalidateRegistry(queryClient) });
  const error = set.error instanceof LayerlineError ? set.error : null;

  const put = (alias: string) =>
    set.mutate({ params: { path: { model_id: model.id, alias } }, body: { version_id: version.id } });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const alias = name.trim().toLowerCase();
    if (!alias) return;
    set.reset();
    const current = model.aliases.find((a) => a.alias === alias);
    if (current && current.version_id !== version.id) {
      setMoving({ alias, from: current.version });
      return;
    }
    put(alias);
  };

  if (version.state !== "ready")
    return (
      <p className="text-sm text-muted">Only a finalized version can carry aliases: finalize it first.</p>
    );

  return (
    <div className="max-w-2xl space-y-5">
      <div>
        <h3 className="mb-2 text-sm font-semibold">On this version</h3>
        {version.aliases.length === 0 ? (
          <p className="text-sm text-muted">No alias yet.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" aria-label="Aliases of this version">
            {version.aliases.map((a) => (
              <li key={a} className="inline-flex items-center gap-1">
                <AliasChip alias={a} />
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-6 px-1.5"
                  aria-label={`Remove alias ${a}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate({ params: { path: { model_id: model.id, alias: a } } })}
                >
                  <X aria-hidden className="h-3.5 w-3.5" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        {remove.error ? (
          <div className="mt-2">
            <Alert>{errorMessage(remove.error)}</Alert>
          </div>
        ) : null}
      </div>
      <form onSubmit={submit} className="space-y-2">
        <label htmlFor={inputId} className="block text-sm font-semibold">
          Set an alias
        </label>
        <p className="text-xs text-muted">
          A name such as <code className="font-mono">champion</code> that deployments and clients can follow.
          It names one version of the model at a time.
        </p>
        <div className="flex gap-2">
          <input
            id={inputId}
            value={name}
            maxLength={63}
            placeholder="champion"
            onChange={(e) => {
              setName(e.target.value);
              setMoving(null);
            }}
            aria-invalid={error ? true : undefined}
            className={cn(inputClass, "max-w-xs font-mono", error && "border-danger")}
          />
          <Button
            type="submit"
            variant="secondary"
            disabled={set.isPending || name.trim() === "" || moving !== null}
          >
            <Tag aria-hidden className="h-4 w-4" /> Set alias
          </Button>
        </div>
        {error ? <Alert>{error.fieldError("alias") ?? error.message}</Alert> : null}
      </form>
      {moving ? (
        <div
          className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-warn/40 bg-warn-soft px-3 py-2 text-sm text-warn"
          role="alertdialog"
          aria-label="Move the alias"
        >
          <span>
            <code className="font-mono">{moving.alias}</code> is on v{moving.from}. Move it to v
            {version.version}?
          </span>
          <span className="flex gap-2">
            <Button size="sm" disabled={set.isPending} onClick={() => put(moving.alias)}>
              Move to v{version.version}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setMoving(null)}>
              Keep it on v{moving.from}
            </Button>
          </span>
        </div>
      ) : null}
    </div>
  );
}
