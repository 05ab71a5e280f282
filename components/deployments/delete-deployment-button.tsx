"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { TypedConfirmDelete } from "@/components/ui/typed-confirm-delete";
import { $api } from "@/lib/api/client";
import { deploymentKeys } from "@/lib/api/deployments/keys";
import { forgetKey } from "./key-store";
import { ProblemAlert } from "./problem-alert";
import type { Deployment } from "./types";

/** Delete, confirmed by typing the deployment's name; then back to the list. */
export function DeleteDeploymentButton({ deployment }: { deployment: Deployment }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const remove = $api.useMutation("delete", "/api/v1/deployments/{deployment_id}", {
    onSuccess: () => {
      forgetKey(deployment.id);
      void queryClient.invalidateQueries({ queryKey: deploymentKeys.list });
      router.push("/deployments");
    },
  });
  return (
    <TypedConfirmDelete
      name={deployment.name}
      title="Delete this deployment?"
      description="Its endpoint and key stop working at once, and its metrics, logs and revisions are deleted. The training job is kept."
      confirmLabel="Delete deployment"
      pending={remove.isPending}
      error={remove.isError ? <ProblemAlert error={remove.error} /> : null}
      onOpen={() => remove.reset()}
      onConfirm={() => remove.mutate({ params: { path: { deployment_id: deployment.id } } })}
    />
  );
}
