"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api } from "@/lib/api/client";
import { forgetKey } from "./key-store";
import { DEPLOYMENTS_PATH } from "./keys";
import { ProblemAlert } from "./problem-alert";
import type { Deployment } from "./types";

/** Delete, confirmed by typing the deployment's name; then back to the list. */
export function DeleteDeploymentButton({ deployment }: { deployment: Deployment }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const remove = $api.useMutation("delete", "/api/v1/deployments/{deployment_id}", {
    onSuccess: () => {
      forgetKey(deployment.id);
      void queryClient.invalidateQueries({ queryKey: ["get", DEPLOYMENTS_PATH] });
      router.push("/deployments");
    },
  });
  const matches = typed === deployment.name;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (matches) remove.mutate({ params: { path: { deployment_id: deployment.id } } });
  };
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setTyped("");
          remove.reset();
          setOpen(true);
        }}
      >
        <Trash2 aria-hidden className="h-4 w-4" /> Delete
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Delete this deployment?"
        description="Its endpoint and key stop working at once, and its metrics, logs and revisions are deleted. The training job is kept."
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              type="submit"
              form="delete-deployment-form"
              disabled={!matches || remove.isPending}
            >
              {remove.isPending ? "Deleting…" : "Delete deployment"}
            </Button>
          </>
        }
      >
        <form id="delete-deployment-form" onSubmit={submit} className="space-y-3">
          <Field
            label={`Type “${deployment.name}” to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            autoFocus
          />
          {remove.isError ? <ProblemAlert error={remove.error} /> : null}
        </form>
      </Modal>
    </>
  );
}
