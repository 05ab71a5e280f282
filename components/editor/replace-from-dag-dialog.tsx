"use client";

import { DagFileForm } from "@/components/projects/dag-file-form";
import { Modal } from "@/components/ui/modal";

/** "Replace from DAG file…": the file picker, with what replacing means. */
export function ReplaceFromDagDialog({
  open,
  onClose,
  replace,
}: {
  open: boolean;
  onClose: () => void;
  replace: (file: File) => Promise<unknown>;
}) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Replace from a DAG file"
      description="The file's diagram replaces the one on the canvas, and its training configuration replaces this project's when it has one. Undo brings the current diagram back; saved versions are kept."
    >
      <DagFileForm
        send={async (file) => {
          await replace(file);
          onClose();
        }}
        submitLabel="Replace diagram"
        pendingLabel="Replacing…"
        onCancel={onClose}
      />
    </Modal>
  );
}
