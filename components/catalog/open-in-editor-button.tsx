"use client";

import { useQueryClient } from "@tanstack/react-query";
import { PenTool } from "lucide-react";
import { useRouter } from "next/navigation";
import { errorMessage } from "@/components/training/error-message";
import { Button } from "@/components/ui/button";
import { $api } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import type { BaseModel } from "./catalog-format";

/** Creates a project from the base model's graph and configuration, then opens it in the editor. */
export function OpenInEditorButton({ model }: { model: BaseModel }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const create = $api.useMutation("post", "/api/v1/projects", {
    onSuccess: (project) => {
      queryClient.invalidateQueries({ queryKey: projectKeys.list });
      router.push(`/projects/${project.id}`);
    },
  });
  return (
    <div className="flex flex-col items-start gap-1">
      <Button
        variant="secondary"
        size="sm"
        disabled={create.isPending || create.isSuccess}
        onClick={() =>
          create.mutate({
            body: {
              name: model.name,
              description: `From the base-model catalog (${model.id}): ${model.description}`.slice(0, 2000),
              graph: model.architecture,
              training_config: model.config,
            },
          })
        }
      >
        <PenTool aria-hidden className="h-4 w-4" />
        {create.isPending || create.isSuccess ? "Opening…" : "Open in editor"}
      </Button>
      {create.error ? (
        <p role="alert" className="text-xs text-danger">
          {errorMessage(create.error)}
        </p>
      ) : null}
    </div>
  );
}
