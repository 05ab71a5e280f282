"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { ProblemAlert } from "@/components/deployments/problem-alert";
import { TypedConfirmDelete } from "@/components/ui/typed-confirm-delete";
import { auditKeys } from "@/lib/api/audits/keys";
import { $api } from "@/lib/api/client";

/** Delete, confirmed by typing the audit's name: the audit and every dataset, run and deployment it made. */
export function DeleteAuditButton({ auditId, name }: { auditId: string; name: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const remove = $api.useMutation("delete", "/api/v1/audits/{audit_id}", {
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: auditKeys.list });
      router.push("/audits");
    },
  });
  return (
    <TypedConfirmDelete
      name={name}
      title="Delete this audit?"
      description="The audit and everything it created are deleted: its datasets, fine-tuning runs, model versions and deployments."
      confirmLabel="Delete audit"
      pending={remove.isPending}
      error={remove.isError ? <ProblemAlert error={remove.error} /> : null}
      onOpen={() => remove.reset()}
      onConfirm={() => remove.mutate({ params: { path: { audit_id: auditId } } })}
    />
  );
}
