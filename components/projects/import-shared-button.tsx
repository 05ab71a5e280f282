"use client";

import { Download } from "lucide-react";
import { useRouter } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { $api } from "@/lib/api/client";
import { LayerlineError } from "@/sdk/src/errors";
import type { ImportSource } from "./import-source";

/** Copies a shared or public project into the signed-in user's account and opens it in the editor. */
export function ImportSharedButton({ source }: { source: ImportSource }) {
  const router = useRouter();
  const onSuccess = (project: { id: string }) => router.push(`/projects/${project.id}`);
  const fromShare = $api.useMutation("post", "/api/v1/shared/{token}/import", { onSuccess });
  const fromProfile = $api.useMutation("post", "/api/v1/users/{username}/projects/{project_id}/import", {
    onSuccess,
  });
  const busy = fromShare.isPending || fromShare.isSuccess || fromProfile.isPending || fromProfile.isSuccess;
  const error = fromShare.error ?? fromProfile.error;
  return (
    <div className="space-y-2">
      <Button
        onClick={() =>
          "token" in source
            ? fromShare.mutate({ params: { path: { token: source.token } } })
            : fromProfile.mutate({
                params: { path: { username: source.username, project_id: source.projectId } },
              })
        }
        disabled={busy}
      >
        <Download aria-hidden className="h-4 w-4" />
        {busy ? "Importing…" : "Import into my account"}
      </Button>
      {error instanceof LayerlineError ? <Alert>{error.message}</Alert> : null}
    </div>
  );
}
