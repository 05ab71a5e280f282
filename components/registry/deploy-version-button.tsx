"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { DeployDialog, slugForDeployment } from "@/components/deployments/deploy-dialog";
import { inputClass } from "@/components/ui/field";
import { api } from "@/lib/api/client";
import { invalidateRegistry, registryKeys } from "@/lib/api/registry/keys";

/** A deployment name from a model's and version's (`iris-classifier-v3`), as the API defaults it. */
export function deploymentNameFor(modelName: string, version: number): string {
  return `${slugForDeployment(modelName, "model")}-v${version}`;
}

/**
 * "Deploy" on a ready version: a name (prefilled) and, when the version has aliases, whether to
 * pin it or follow an alias; then POST /deployments/from-model-version and the key, shown once.
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
  const [follow, setFollow] = useState("");
  return (
    <DeployDialog
      formId="deploy-version-form"
      title={`Deploy ${modelName} v${version}`}
      description="Serve this version behind its own key: a prediction endpoint you can call from anywhere."
      keyDescription={`This is its deployment key. It serves ${modelName} v${version}.`}
      defaultName={() => deploymentNameFor(modelName, version)}
      onOpen={() => setFollow("")}
      onCreated={() => {
        invalidateRegistry(queryClient);
        queryClient.invalidateQueries({ queryKey: registryKeys.lineage });
      }}
      create={async (name, idempotencyKey) => {
        const { data } = await api.POST("/api/v1/deployments/from-model-version", {
          params: { header: { "Idempotency-Key": idempotencyKey } },
          body: follow ? { model_id: modelId, alias: follow, name } : { model_version_id: versionId, name },
        });
        if (!data) throw new Error("The server did not answer with the deployment.");
        return data;
      }}
    >
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
    </DeployDialog>
  );
}
