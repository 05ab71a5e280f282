"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Rocket } from "lucide-react";
import Link from "next/link";
import { type FormEvent, type ReactNode, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { deploymentKeys } from "@/lib/api/deployments/keys";
import { LayerlineError } from "@/sdk/src/errors";
import { KeyDialog } from "./key-dialog";
import { rememberKey } from "./key-store";
import type { DeploymentWithKey } from "./types";

/** A deployment name from another one ("Iris MLP on Iris" → "iris-mlp-on-iris"), or `fallback`. */
export function slugForDeployment(name: string, fallback: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 90);
  return slug || fallback;
}

/** 128 random bits as hex (crypto.randomUUID needs a secure context; a studio may be served over http). */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

/**
 * A "Deploy" button and its dialogs, for whatever is deployed (a job, a registry version): a name
 * (prefilled), the caller's own fields, then the create call with one Idempotency-Key per opening (a
 * double submit or a retry after a lost answer creates one deployment; a refused call gets a fresh
 * key), then the key shown once with a link to the console. A replay that carries no key says so.
 */
export function DeployDialog({
  formId,
  title,
  description,
  keyDescription,
  defaultName,
  create,
  onOpen,
  onCreated,
  children,
}: {
  formId: string;
  title: string;
  description: string;
  keyDescription: string;
  defaultName: () => string;
  /** Creates the deployment (the API client throws LayerlineError on a refusal). */
  create: (name: string, idempotencyKey: string) => Promise<DeploymentWithKey>;
  onOpen?: () => void;
  /** After the deployments list was refreshed: other views that show deployments. */
  onCreated?: () => void;
  /** Fields after the name. */
  children?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [idempotencyKey, setIdempotencyKey] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<LayerlineError | Error | null>(null);
  const [created, setCreated] = useState<DeploymentWithKey | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const d = await create(name.trim(), idempotencyKey);
      if (d.api_key) rememberKey(d.id, d.api_key);
      queryClient.invalidateQueries({ queryKey: deploymentKeys.list });
      onCreated?.();
      setOpen(false);
      setCreated(d);
    } catch (err) {
      setError(err instanceof Error ? err : new Error("The deployment could not be created."));
      // A refused request is not replayed: the next attempt (maybe with another name) is a new one.
      setIdempotencyKey(newIdempotencyKey());
    } finally {
      setPending(false);
    }
  };
  const nameError = error instanceof LayerlineError ? error.fieldError("name") : undefined;
  const consoleHref = created ? `/deployments/${created.id}` : "/deployments";

  return (
    <>
      <Button
        size="sm"
        onClick={() => {
          setName(defaultName());
          setIdempotencyKey(newIdempotencyKey());
          setError(null);
          onOpen?.();
          setOpen(true);
        }}
      >
        <Rocket aria-hidden className="h-4 w-4" /> Deploy
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={title}
        description={description}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" form={formId} disabled={pending || name.trim() === ""}>
              <Rocket aria-hidden className="h-4 w-4" /> {pending ? "Deploying…" : "Deploy"}
            </Button>
          </>
        }
      >
        <form id={formId} onSubmit={submit} className="space-y-3">
          <Field
            label="Deployment name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            error={nameError}
            autoFocus
          />
          {children}
          {error && !nameError ? <Alert>{error.message}</Alert> : null}
        </form>
      </Modal>
      <Modal
        open={created !== null && created.api_key === null}
        onClose={() => setCreated(null)}
        title={`“${created?.name ?? ""}” is deployed`}
        size="sm"
        footer={
          <Link href={consoleHref} className={buttonClass("primary")}>
            Open the console
          </Link>
        }
      >
        <p className="text-sm">
          This deployment was already created by an earlier request, and its key was shown then. Lost it?
          Rotate the key in the console.
        </p>
      </Modal>
      <KeyDialog
        apiKey={created?.api_key ?? null}
        title={`“${created?.name ?? ""}” is deployed`}
        description={keyDescription}
        consoleHref={created ? consoleHref : undefined}
        onClose={() => setCreated(null)}
      />
    </>
  );
}
