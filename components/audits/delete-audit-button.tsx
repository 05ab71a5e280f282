"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { ProblemAlert } from "@/components/deployments/problem-alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api } from "@/lib/api/client";
import { AUDITS_PATH } from "./types";

/** Delete, confirmed by typing the audit's name: the audit and every dataset, run and deployment it made. */
export function DeleteAuditButton({ auditId, name }: { auditId: string; name: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const remove = $api.useMutation("delete", "/api/v1/audits/{audit_id}", {
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["get", AUDITS_PATH] });
      router.push("/audits");
    },
  });
  const matches = typed === name;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (matches) remove.mutate({ params: { path: { audit_id: auditId } } });
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
        title="Delete this audit?"
        description="The audit and everything it created are deleted: its datasets, fine-tuning runs, model versions and deployments."
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              type="submit"
              form="delete-audit-form"
              disabled={!matches || remove.isPending}
            >
              {remove.isPending ? "Deleting…" : "Delete audit"}
            </Button>
          </>
        }
      >
        <form id="delete-audit-form" onSubmit={submit} className="space-y-3">
          <Field
            label={`Type “${name}” to confirm`}
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
