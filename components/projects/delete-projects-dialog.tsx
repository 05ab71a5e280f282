"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { $api } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import { LayerlineError } from "@/sdk/src/errors";

/** Confirmation before deleting one or more projects (bulk delete). */
export function DeleteProjectsDialog({
  projects,
  onClose,
  onDeleted,
}: {
  projects: { id: string; name: string }[];
  onClose: () => void;
  onDeleted: (ids: string[]) => void;
}) {
  const queryClient = useQueryClient();
  const remove = $api.useMutation("post", "/api/v1/projects/bulk-delete", {
    onSuccess: (result) => {
      queryClient.invalidateQueries({ queryKey: projectKeys.list });
      onDeleted(result.deleted);
      if (result.failed.length === 0) onClose();
    },
  });
  const count = projects.length;
  const noun = count === 1 ? "project" : `${count} projects`;
  const failed = remove.data?.failed ?? [];
  return (
    <Modal
      open={count > 0}
      onClose={onClose}
      size="sm"
      title={count === 1 ? `Delete “${projects[0].name}”?` : `Delete ${count} projects?`}
      description="Their versions, share links and thumbnails are deleted too. This cannot be undone."
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ body: { ids: projects.map((p) => p.id) } })}
          >
            {remove.isPending ? "Deleting…" : `Delete ${noun}`}
          </Button>
        </>
      }
    >
      {count > 1 || remove.error || failed.length > 0 ? (
        <div className="space-y-3">
          {count > 1 ? (
            <ul className="max-h-48 list-disc space-y-0.5 overflow-y-auto pl-5 text-sm">
              {projects.map((p) => (
                <li key={p.id}>{p.name}</li>
              ))}
            </ul>
          ) : null}
          {remove.error instanceof LayerlineError ? <Alert>{remove.error.message}</Alert> : null}
          {failed.length > 0 ? (
            <Alert>
              {failed.length} could not be deleted: {failed.map((f) => f.detail).join("; ")}
            </Alert>
          ) : null}
        </div>
      ) : undefined}
    </Modal>
  );
}
