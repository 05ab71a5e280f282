"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { $api } from "@/lib/api/client";
import { PROJECTS_PATH, projectKeys } from "@/lib/api/projects/keys";
import { FAMILY_NAMES, type ModelFamily } from "@/lib/ml/dataset-models";
import { LayerlineError } from "@/sdk/src/errors";

/** The model families offered for a dataset's format (the server checks them too). */
function familiesOf(format: string): ModelFamily[] {
  if (format === "image_zip") return ["cnn", "resnet"];
  if (format === "text") return ["lstm", "transformer"];
  return ["mlp"];
}

/**
 * "Train a model on this data": a project sized to the dataset (POST /projects with dataset_id),
 * then its editor with the Train dialog open. Image datasets choose between a CNN and a small ResNet.
 */
export function TrainOnDataButton({ datasetId, format }: { datasetId: string; format: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const families = familiesOf(format);
  const [family, setFamily] = useState<ModelFamily>(families[0]);
  const create = $api.useMutation("post", PROJECTS_PATH, {
    onSuccess: (project) => {
      queryClient.invalidateQueries({ queryKey: projectKeys.list });
      router.push(`/projects/${project.id}?train=1`);
    },
  });
  const error =
    create.error instanceof LayerlineError
      ? create.error.message
      : create.error
        ? "Could not reach the server."
        : null;
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex items-center gap-2">
        {families.length > 1 ? (
          <select
            aria-label="Model family"
            className="h-9 rounded-md border border-border bg-panel px-2 text-sm"
            value={family}
            onChange={(e) => setFamily(e.target.value as ModelFamily)}
          >
            {families.map((f) => (
              <option key={f} value={f}>
                {FAMILY_NAMES[f]}
              </option>
            ))}
          </select>
        ) : null}
        <Button
          onClick={() =>
            create.mutate({ body: { dataset_id: datasetId, ...(families.length > 1 ? { family } : {}) } })
          }
          disabled={create.isPending || create.isSuccess}
        >
          <Sparkles aria-hidden className="h-4 w-4" />
          {create.isPending || create.isSuccess ? "Making the model…" : "Train a model on this data"}
        </Button>
      </div>
      {error ? (
        <p role="alert" className="max-w-sm text-right text-xs text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
