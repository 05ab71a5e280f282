"use client";

import { api } from "@/lib/api/client";
import { DeployDialog, slugForDeployment } from "./deploy-dialog";

/** A deployment name from a job's ("Iris MLP on Iris" → "iris-mlp-on-iris"). */
export function deploymentNameFor(jobName: string): string {
  return slugForDeployment(jobName, "deployment");
}

/**
 * "Deploy" on a succeeded job's or fine-tuning run's page: asks for a name, creates the deployment,
 * then shows its key once, with a link to the console.
 */
export function DeployButton({ jobId, jobName }: { jobId: string; jobName: string }) {
  return (
    <DeployDialog
      formId="deploy-form"
      title="Deploy this model"
      description="Serve the job's model behind its own key: a prediction endpoint you can call from anywhere."
      keyDescription="This is its deployment key."
      defaultName={() => deploymentNameFor(jobName)}
      create={async (name, idempotencyKey) => {
        const { data } = await api.POST("/api/v1/deployments", {
          params: { header: { "Idempotency-Key": idempotencyKey } },
          body: { name, job_id: jobId },
        });
        if (!data) throw new Error("The server did not answer with the deployment.");
        return data;
      }}
    />
  );
}
