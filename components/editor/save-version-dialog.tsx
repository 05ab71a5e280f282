"use client";

import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api, type Schemas } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import { fromFlow } from "@/lib/editor/graph-mapping";
import { LayerlineError } from "@/sdk/src/errors";
import { useAnalysis, useEditorStoreApi } from "./editor-store-context";
import type { Autosave } from "./use-autosave";

/** "Save version" (Ctrl/Cmd+S): records the current diagram and configuration with a message. */
export function SaveVersionDialog({
  projectId,
  open,
  onClose,
  autosave,
  onSaved,
}: {
  projectId: string;
  open: boolean;
  onClose: () => void;
  autosave: Autosave;
  onSaved: (version: Schemas["ProjectVersion"]) => void;
}) {
  const store = useEditorStoreApi();
  const queryClient = useQueryClient();
  const errorCount = useAnalysis((d) => d.errors.length);
  const [message, setMessage] = useState("");
  const save = $api.useMutation("post", "/api/v1/projects/{project_id}/save");

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const version = await autosave.exclusive(async () => {
        const s = store.getState();
        const sent = s.rev;
        const v = await save.mutateAsync({
          params: { path: { project_id: projectId } },
          body: {
            message: message.trim() || null,
            graph: fromFlow(s.nodes, s.edges),
            training_config: s.training,
          },
        });
        store.getState().markSaved(sent);
        return v;
      });
      queryClient.invalidateQueries({ queryKey: projectKeys.versions });
      queryClient.invalidateQueries({ queryKey: projectKeys.detail });
      setMessage("");
      onClose();
      onSaved(version);
    } catch {
      // shown below from the mutation's error
    }
  };
  const error = save.error instanceof LayerlineError ? save.error : null;

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Save version"
      description="Record the diagram and training configuration as they are now. You can compare and restore versions later."
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="save-version-form" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save version"}
          </Button>
        </>
      }
    >
      <form id="save-version-form" onSubmit={submit} className="space-y-3">
        <div className="space-y-1">
          <label htmlFor="version-message" className="block text-sm font-medium">
            Message
          </label>
          <input
            id="version-message"
            className={inputClass}
            value={message}
            maxLength={500}
            // biome-ignore lint/a11y/noAutofocus: the dialog exists to type this message
            autoFocus
            placeholder="What changed? e.g. Add dropout after the first dense layer"
            onChange={(e) => setMessage(e.target.value)}
          />
        </div>
        {errorCount > 0 ? (
          <Alert tone="warn">
            The diagram has {errorCount} error{errorCount === 1 ? "" : "s"}. You can still save it as a
            version.
          </Alert>
        ) : null}
        {error ? <Alert>{error.fieldError("message") ?? error.message}</Alert> : null}
      </form>
    </Modal>
  );
}
