"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Rocket } from "lucide-react";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api, ApiError } from "@/lib/api/client";
import { KeyDialog } from "./key-dialog";
import { rememberKey } from "./key-store";
import { DEPLOYMENTS_PATH } from "./keys";
import type { DeploymentWithKey } from "./types";

/** A deployment name from a job's ("Iris MLP on Iris" → "iris-mlp-on-iris"). */
export function deploymentNameFor(jobName: string): string {
  const slug = jobName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 90);
  return slug || "deployment";
}

/** 128 random bits as hex (crypto.randomUUID needs a secure context; a studio may be served over http). */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

/**
 * "Deploy" on a succeeded job's or fine-tuning run's page: asks for a name, creates the deployment,
 * then shows its key once, with a link to the console.
 */
export function DeployButton({ jobId, jobName }: { jobId: string; jobName: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<DeploymentWithKey | null>(null);
  /** One per opening of the dialog: a double submit (or a retry after a lost answer) creates one deployment. */
  const [idempotencyKey, setIdempotencyKey] = useState("");
  const create = $api.useMutation("post", "/api/v1/deployments", {
    onSuccess: (d) => {
      if (d.api_key) rememberKey(d.id, d.api_key);
      queryClient.invalidateQueries({ queryKey: ["get", DEPLOYMENTS_PATH] });
      setOpen(false);
      setCreated(d);
    },
    // A refused request is not replayed: the next attempt (maybe with another name) is a new one.
    onError: () => setIdempotencyKey(newIdempotencyKey()),
  });
  const error = create.error instanceof ApiError ? create.error : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      params: { header: { "Idempotency-Key": idempotencyKey } },
      body: { name: name.trim(), job_id: jobId },
    });
  };

  return (
    <>
      <Button
        size="sm"
        onClick={() => {
          setName(deploymentNameFor(jobName));
          setIdempotencyKey(newIdempotencyKey());
          create.reset();
          setOpen(true);
        }}
      >
        <Rocket aria-hidden className="h-4 w-4" /> Deploy
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Deploy this model"
        description="Serve the job's model behind its own key: a prediction endpoint you can call from anywhere."
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" form="deploy-form" disabled={create.isPending || name.trim() === ""}>
              <Rocket aria-hidden className="h-4 w-4" /> {create.isPending ? "Deploying…" : "Deploy"}
            </Button>
          </>
        }
      >
        <form id="deploy-form" onSubmit={submit} className="space-y-3">
          <Field
            label="Deployment name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            error={error?.fieldError("name")}
            autoFocus
          />
          {error && !error.fieldError("name") ? <Alert>{error.message}</Alert> : null}
        </form>
      </Modal>
      <Modal
        open={created !== null && created.api_key === null}
        onClose={() => setCreated(null)}
        title={`“${created?.name ?? ""}” is deployed`}
        size="sm"
        footer={
          <Link
            href={created ? `/deployments/${created.id}` : "/deployments"}
            className={buttonClass("primary")}
          >
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
        description="This is its deployment key."
        consoleHref={created ? `/deployments/${created.id}` : undefined}
        onClose={() => setCreated(null)}
      />
    </>
  );
}
