"use client";

import { Download } from "lucide-react";
import { useRouter } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { $api, ApiError } from "@/lib/api/client";

/** Copies a shared project into the signed-in user's account and opens it in the editor. */
export function ImportSharedButton({ token }: { token: string }) {
  const router = useRouter();
  const importProject = $api.useMutation("post", "/api/v1/shared/{token}/import", {
    onSuccess: (project) => router.push(`/projects/${project.id}`),
  });
  return (
    <div className="space-y-2">
      <Button
        onClick={() => importProject.mutate({ params: { path: { token } } })}
        disabled={importProject.isPending || importProject.isSuccess}
      >
        <Download aria-hidden className="h-4 w-4" />
        {importProject.isPending || importProject.isSuccess ? "Importing…" : "Import into my account"}
      </Button>
      {importProject.error instanceof ApiError ? <Alert>{importProject.error.message}</Alert> : null}
    </div>
  );
}
