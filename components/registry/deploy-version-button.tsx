"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Rocket } from "lucide-react";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { KeyDialog } from "@/components/deployments/key-dialog";
import { rememberKey } from "@/components/deployments/key-store";
import { DEPLOYMENTS_PATH } from "@/components/deployments/keys";
import type { DeploymentWithKey } from "@/components/deployments/types";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api, ApiError } from "@/lib/api/client";
import { invalidateRegistry } from "./keys";

/** 128 random bits as hex (crypto.randomUUID needs a secure context). */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

/** A deployment name from a model's and version's (`iris-classifier-v3`), as the API defaults it. */
export function deploymentNameFor(modelName: string, version: number): string {
  const slug = modelName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 90);
  return `${slug || "model"}-v${version}`;
}

/**
 * "Deploy" on a ready version: a name (prefilled), then POST /deployments/from-model-version, then
 * the deployment's key, shown once in the deployments area's key dialog with a link to its console.
 */
export function DeployVersionButton({
  versionId,
  modelId,
  modelName,
  version,
  aliases = [],
}: {
  versionId: string;
  modelId: string;
  modelName: string;
  version: number;
  /** The version's aliases: the deployment may follow one of them instead of pinning the version. */
  aliases?: string[];
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [follow, setFollow] = useState("");
  const [idempotencyKey, setIdempotencyKey] = useState("");
  const [created, setCreated] = useState<DeploymentWithKey | null>(null);
  const deploy = $api.useMutation("post", "/api/v1/deployments/from-model-version", {
    onSuccess: (d) => {
      if (d.api_key) rememberKey(d.id, d.api_key);
      queryClient.invalidateQueries({ queryKey: ["get", DEPLOYMENTS_PATH] });
      invalidateRegistry(queryClient);
      queryClient.invalidateQueries({ queryKey: ["get", "/api/v1/model-versions/{version_id}/lineage"] });
      setOpen(false);
      setCreated(d);
    },
    onError: () => setIdempotencyKey(newIdempotencyKey()),
  });
  const error = deploy.error instanceof ApiError ? deploy.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    deploy.mutate({
      params: { header: { "Idempotency-Key": idempotencyKey } },
      body: follow
        ? { model_id: modelId, alias: follow, name: name.trim() }
        : { model_version_id: versionId, name: name.trim() },
    });
  };
  return (
    <>
      <Button
        size="sm"
        onClick={() => {
          setName(deploymentNameFor(modelName, version));
          setFollow("");
          setIdempotencyKey(newIdempotencyKey());
          deploy.reset();
          setOpen(true);
        }}
      >
        <Rocket aria-hidden className="h-4 w-4" /> Deploy
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={`Deploy ${modelName} v${version}`}
        description="Serve this version behind its own key: a prediction endpoint you can call from anywhere."
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              type="submit"
              form="deploy-version-form"
              disabled={deploy.isPending || name.trim() === ""}
            >
              <Rocket aria-hidden className="h-4 w-4" /> {deploy.isPending ? "Deploying…" : "Deploy"}
            </Button>
          </>
        }
      >
        <form id="deploy-version-form" onSubmit={submit} className="space-y-3">
          <Field
            label="Deployment name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            error={error?.fieldError("name")}
            autoFocus
          />
          {aliases.length > 0 ? (
            <div className="space-y-1">
              <label htmlFor="deploy-follow" className="block text-sm font-medium">
                Serve
              </label>
              <select
                id="deploy-follow"
                value={follow}
                onChange={(e) => setFollow(e.target.value)}
                className={inputClass}
              >
                <option value="">This version (v{version}), pinned</option>
                {aliases.map((a) => (
                  <option key={a} value={a}>
                    Whatever “{a}” points at (now v{version}), following it
                  </option>
                ))}
              </select>
              <p className="text-xs text-muted">
                A deployment that follows an alias gets a new revision whenever the alias moves.
              </p>
            </div>
          ) : null}
          {error && !error.fieldError("name") ? <Alert>{error.message}</Alert> : null}
        </form>
      </Modal>
      <Modal
        open={created !== null && created.api_key === null}
        onClose={() => setCreated(null)}
        title={`“${created?.name ?? ""}” is deployed`}
        size="sm"
      >
        <p className="text-sm">
          This deployment was already created by an earlier request, and its key was shown then. Lost it?
          Rotate the key in its{" "}
          <Link
            className="text-accent hover:underline"
            href={created ? `/deployments/${created.id}` : "/deployments"}
          >
            console
          </Link>
          .
        </p>
      </Modal>
      <KeyDialog
        apiKey={created?.api_key ?? null}
        title={`“${created?.name ?? ""}” is deployed`}
        description={`This is its deployment key. It serves ${modelName} v${version}.`}
        consoleHref={created ? `/deployments/${created.id}` : undefined}
        onClose={() => setCreated(null)}
      />
    </>
  );
}
