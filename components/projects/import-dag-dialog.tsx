"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Modal } from "@/components/ui/modal";
import { api } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import { DagFileForm, dagFormData } from "./dag-file-form";

/** A new project from a DAG file (the editor's "Export DAG file", or one written by a script). */
export function ImportDagDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const send = async (file: File) => {
    const { data } = await api.POST("/api/v1/projects/import-dag", {
      body: { file: "" },
      bodySerializer: () => dagFormData(file),
    });
    if (!data) throw new Error("No project in the response");
    await queryClient.invalidateQueries({ queryKey: projectKeys.list });
    router.push(`/projects/${data.id}`);
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Import a DAG file"
      description="Creates a project with the file's diagram, training configuration and name. Every layer and connection is checked first."
    >
      <DagFileForm send={send} submitLabel="Import" pendingLabel="Importing…" onCancel={onClose} />
    </Modal>
  );
}
