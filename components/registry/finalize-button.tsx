"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Lock } from "lucide-react";
import { Button } from "@/components/ui/button";
import { $api } from "@/lib/api/client";
import { invalidateRegistry } from "@/lib/api/registry/keys";

/** "Finalize" on a pending version: checks its artifacts (and task contract), then it is immutable. */
export function FinalizeButton({
  versionId,
  onError,
}: {
  versionId: string;
  onError: (m: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const finalize = $api.useMutation("post", "/api/v1/model-versions/{version_id}/finalize", {
    onSuccess: () => {
      onError(null);
      invalidateRegistry(queryClient);
    },
    onError: (err) => onError(err instanceof Error ? err.message : "Finalize failed."),
  });
  return (
    <Button
      size="sm"
      disabled={finalize.isPending}
      onClick={() => finalize.mutate({ params: { path: { version_id: versionId } } })}
      title="Check the artifacts are complete; then the version is ready and immutable"
    >
      <Lock aria-hidden className="h-4 w-4" /> {finalize.isPending ? "Finalizing…" : "Finalize"}
    </Button>
  );
}
