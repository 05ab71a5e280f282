"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Pause, Play } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { $api } from "@/lib/api/client";
import { deploymentKeys, deploymentQuery } from "@/lib/api/deployments/keys";
import { DeleteDeploymentButton } from "./delete-deployment-button";
import { KeyDialog } from "./key-dialog";
import { rememberKey } from "./key-store";
import type { Deployment } from "./types";

/** Pause/resume, rotate the key (asks first, then shows the new key once), delete. */
export function DeploymentActions({
  deployment,
  onError,
}: {
  deployment: Deployment;
  onError: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  const [newKey, setNewKey] = useState<string | null>(null);
  const settle = {
    onSuccess: (d: Deployment) => {
      queryClient.setQueryData(deploymentQuery(d.id).queryKey, d);
      void queryClient.invalidateQueries({ queryKey: deploymentKeys.list });
      onError(null);
    },
    onError,
  };
  const pause = $api.useMutation("post", "/api/v1/deployments/{deployment_id}/pause", settle);
  const resume = $api.useMutation("post", "/api/v1/deployments/{deployment_id}/resume", settle);
  const rotate = $api.useMutation("post", "/api/v1/deployments/{deployment_id}/rotate-key", {
    onSuccess: (d) => {
      settle.onSuccess(d);
      if (d.api_key) {
        rememberKey(d.id, d.api_key);
        setNewKey(d.api_key);
      }
    },
    onError,
  });
  const path = { params: { path: { deployment_id: deployment.id } } };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {deployment.state === "paused" ? (
        <Button size="sm" disabled={resume.isPending} onClick={() => resume.mutate(path)}>
          <Play aria-hidden className="h-4 w-4" /> {resume.isPending ? "Resuming…" : "Resume"}
        </Button>
      ) : (
        <Button
          variant="secondary"
          size="sm"
          disabled={pause.isPending || deployment.state !== "ready"}
          onClick={() => pause.mutate(path)}
          title="Stop serving: predictions answer 503 until it is resumed"
        >
          <Pause aria-hidden className="h-4 w-4" /> {pause.isPending ? "Pausing…" : "Pause"}
        </Button>
      )}
      <ConfirmButton
        // A new key prefix remounts it: asked again next time.
        key={deployment.key_prefix}
        label="Rotate key"
        confirmLabel="Rotate: the old key stops working"
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate(path)}
      />
      <DeleteDeploymentButton deployment={deployment} />
      <KeyDialog
        apiKey={newKey}
        title="New deployment key"
        description="The key is rotated: update your clients with this one."
        onClose={() => setNewKey(null)}
      />
    </div>
  );
}
